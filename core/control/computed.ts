/**
 * Saving a computed column: gate 1 and the checker (core/query/computed-field.ts), then gate 2 runs
 * the compiled expression against the workspace's database in a query that returns no rows.
 */
import { checkFormula, parseFormula, printFormula } from '../formula/index.ts';
import { ApiError, serviceUnavailable } from '../errors.ts';
import { render } from '../sql.ts';
import { NO_POLICY, type ComputedField, type Predicate, type ReadScope } from '../query/plan.ts';
import { planRead } from '../query/plan-read.ts';
import { compileRead } from '../query/compile-read.ts';
import { DEFAULT_PAGE_SIZE } from '../query/request.ts';
import { computedField } from '../query/computed-field.ts';
import { viewShape } from '../query/shape.ts';
import type { ViewRecord } from '../workspace/types.ts';
import type { WorkspaceRuntime } from '../workspace/runtime.ts';

const GATE2_REASONS: Record<string, string> = {
  undefined_function: 'the workspace database does not support a function this formula uses',
  undefined_column: 'a column this formula uses does not exist in the workspace database',
  invalid_value: 'the workspace database cannot convert a value as this formula asks',
  division_by_zero: 'the formula divides by zero',
};

async function probe(runtime: WorkspaceRuntime, view: ViewRecord, field: ComputedField): Promise<void> {
  const shape = viewShape(runtime, view.entity, view.uuid);
  const root = { ...shape, computed: [...shape.computed.filter((c) => c.fieldName !== field.fieldName), field] };
  const scope: ReadScope = { model: runtime.model, root, defaultView: (name) => viewShape(runtime, name), policy: NO_POLICY };
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
