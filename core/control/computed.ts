/**
 * Computed column record → ComputedField the query planner can emit. The one place where the
 * control plane meets the formula compiler: gate 1 and the checker run here, and gate 2 runs the
 * compiled expression against the workspace's database in a query that returns no rows.
 */
import { checkFormula, emitFormula, parseFormula, printFormula, type CheckedFormula } from '../formula/index.ts';
import { ApiError, serviceUnavailable } from '../errors.ts';
import { render } from '../sql.ts';
import type { Entity, SchemaModel } from '../schema/model.ts';
import type { ComputedField, Predicate, ReadScope } from '../query/plan.ts';
import { planRead } from '../query/plan-read.ts';
import { compileRead } from '../query/compile-read.ts';
import { NO_POLICY } from '../query/read.ts';
import { DEFAULT_PAGE_SIZE } from '../query/request.ts';
import type { ColumnRecord, ViewRecord } from './types.ts';
import type { WorkspaceRuntime } from './runtime.ts';

function computedField(fieldName: string, checked: CheckedFormula): ComputedField {
  return {
    fieldName,
    valueType: checked.type,
    refs: checked.refs,
    emit: (columnRef, dialect) => emitFormula(checked, { dialect: dialect.formula, columnRef }),
    broken: null,
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

const GATE2_REASONS: Record<string, string> = {
  undefined_function: 'the workspace database does not support a function this formula uses',
  undefined_column: 'a column this formula uses does not exist in the workspace database',
  invalid_value: 'the workspace database cannot convert a value as this formula asks',
  division_by_zero: 'the formula divides by zero',
};

async function probe(runtime: WorkspaceRuntime, view: ViewRecord, field: ComputedField): Promise<void> {
  const shape = runtime.shape(view.entity, view.uuid);
  const root = { ...shape, computed: [...shape.computed.filter((c) => c.fieldName !== field.fieldName), field] };
  const scope: ReadScope = { model: runtime.model, root, defaultView: (name) => runtime.shape(name), policy: NO_POLICY };
  const never: Predicate = { target: { kind: 'field', hops: [], field: shape.entity.idField }, op: 'never', value: null };
  const request = { page: 0, size: DEFAULT_PAGE_SIZE, sort: [], expand: [], fields: [[field.fieldName]], filters: [], count: 'none' as const };
  const compiled = compileRead(planRead(scope, request, { where: [never] }), runtime.dialect, runtime.config);
  try {
    await runtime.driver.query(render(compiled.page, runtime.dialect));
  } catch (error) {
    const kind = runtime.dialect.mapError(error)?.kind;
    if (kind === 'connection_lost') throw serviceUnavailable('the workspace database is unavailable; try again shortly', error);
    const reason = (kind && GATE2_REASONS[kind]) ?? `the workspace database (${runtime.dialect.name}) refused this formula`;
    throw new ApiError('INVALID_FORMULA', reason, { position: { offset: 0, line: 1, column: 1 }, reason: 'database' });
  }
}

/** Gate 1, the checker and gate 2; returns the canonical text to store. */
export async function validateComputedFormula(runtime: WorkspaceRuntime, view: ViewRecord, fieldName: string, formula: string): Promise<string> {
  const entity = runtime.entity(view.entity);
  const maxDepth = runtime.entityRecord(entity.name).options.maxExpandDepth;
  const checked = checkFormula(parseFormula(formula), { entity, model: runtime.model, maxDepth });
  await probe(runtime, view, computedField(fieldName, checked));
  return printFormula(checked.ast);
}
