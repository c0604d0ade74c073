/**
 * Computed column record → the ComputedField the planner emits: gate 1 and the checker run here;
 * a stored formula that no longer checks (the schema changed) reads as null instead of failing.
 */
import { checkFormula, emitFormula, parseFormula, type CheckedFormula } from '../formula/index.ts';
import type { Entity, SchemaModel } from '../schema/model.ts';
import type { ColumnRecord } from '../workspace/types.ts';
import type { ComputedField } from './plan.ts';

export function computedField(fieldName: string, checked: CheckedFormula): ComputedField {
  return {
    fieldName,
    valueType: checked.type,
    refs: checked.refs,
    emit: (columnRef, formula) => emitFormula(checked, { dialect: formula, columnRef }),
    broken: null,
    ast: checked.ast,
  };
}

function brokenField(fieldName: string, reason: string): ComputedField {
  return { fieldName, valueType: 'null', refs: [], emit: () => { throw new Error('broken formula'); }, broken: reason };
}

/** Compiles a stored column; a formula that no longer checks (schema changed) reads as null. */
export function compileComputedColumn(column: ColumnRecord, entity: Entity, model: SchemaModel, maxDepth: number): ComputedField {
  if (column.broken) return brokenField(column.fieldName, column.broken);
  try {
    return computedField(column.fieldName, checkFormula(parseFormula(column.formula ?? ''), { entity, model, maxDepth }));
  } catch (error) {
    return brokenField(column.fieldName, error instanceof Error ? error.message : 'formula does not compile');
  }
}

/** Why the stored formula no longer compiles against `model`, or null when it does. */
export function brokenReason(formula: string, entity: Entity, model: SchemaModel, maxDepth: number): string | null {
  try {
    checkFormula(parseFormula(formula), { entity, model, maxDepth });
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : 'formula does not compile';
  }
}
