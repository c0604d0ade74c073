/**
 * Saving a computed column: gate 1 and the checker (core/query/computed-field.ts), then gate 2 runs
 * the compiled expression against the workspace's database in a query that returns no rows.
 */
import { checkFormula, parseFormula, printFormula } from '../formula/index.ts';
import { ApiError, serviceUnavailable } from '../errors.ts';
import type { ComputedField } from '../query/plan.ts';
import { computedField } from '../query/computed-field.ts';
import { previewComputedField, probeComputedField } from '../query/probe.ts';
import type { JsonRecord } from '../query/assemble.ts';
import type { FormulaType } from '../formula/index.ts';
import type { ViewRecord } from '../workspace/types.ts';
import type { WorkspaceRuntime } from '../workspace/runtime.ts';

const GATE2_REASONS: Record<string, string> = {
  undefined_function: 'the workspace database does not support a function this formula uses',
  undefined_column: 'a column this formula uses does not exist in the workspace database',
  invalid_value: 'the workspace database cannot convert a value as this formula asks',
  division_by_zero: 'the formula divides by zero',
};

/** Runs `work` against the workspace database; a refusal becomes gate 2's INVALID_FORMULA. */
async function gate2<T>(runtime: WorkspaceRuntime, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ApiError) throw error;
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
  await gate2(runtime, () => probeComputedField(runtime, view, computedField(fieldName, checked)));
  return printFormula(checked.ast);
}

export interface FormulaCheck {
  /** The canonical text that saving would store. */
  readonly formula: string;
  readonly type: FormulaType;
  /** The first rows of the view: the id and the value the formula gives (field `value`). */
  readonly preview: readonly JsonRecord[];
}

/** Gates 1 and 2 without saving, and the values on the first rows (the admin application's formula editor). */
export async function checkComputedFormula(runtime: WorkspaceRuntime, view: ViewRecord, formula: string, previewRows: number): Promise<FormulaCheck> {
  const entity = runtime.entity(view.entity);
  const maxDepth = runtime.entityRecord(entity.name).options.maxExpandDepth;
  const checked = checkFormula(parseFormula(formula), { entity, model: runtime.model, maxDepth });
  const field = computedField(PREVIEW_FIELD, checked);
  await gate2(runtime, () => probeComputedField(runtime, view, field));
  const rows = await gate2(runtime, () => previewComputedField(runtime, view, field, previewRows));
  const id = entity.idField.name;
  const preview = rows.map((row) => ({ id: row[id], value: row[PREVIEW_FIELD] ?? null }));
  return { formula: printFormula(checked.ast), type: checked.type, preview };
}

/** A name no introspected field can have (they are camelCase identifiers), so the preview never shadows one. */
const PREVIEW_FIELD = '$preview';
