/**
 * Saving a computed column: gate 1 and the checker (core/query/computed-field.ts), then gate 2 runs
 * the compiled expression against the workspace's database in a query that returns no rows.
 */
import { checkFormula, parseFormula, printFormula } from '../formula/index.ts';
import { ApiError, serviceUnavailable } from '../errors.ts';
import type { ComputedField } from '../query/plan.ts';
import { computedField } from '../query/computed-field.ts';
import { probeComputedField } from '../query/probe.ts';
import type { ViewRecord } from '../workspace/types.ts';
import type { WorkspaceRuntime } from '../workspace/runtime.ts';

const GATE2_REASONS: Record<string, string> = {
  undefined_function: 'the workspace database does not support a function this formula uses',
  undefined_column: 'a column this formula uses does not exist in the workspace database',
  invalid_value: 'the workspace database cannot convert a value as this formula asks',
  division_by_zero: 'the formula divides by zero',
};

async function probe(runtime: WorkspaceRuntime, view: ViewRecord, field: ComputedField): Promise<void> {
  try {
    await probeComputedField(runtime, view, field);
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
