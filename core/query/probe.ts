/**
 * Gate 2 of a computed column (DESIGN §7): the database compiles the column's expression inside the
 * view's ordinary read, with a condition that selects no row. A refusal is thrown as the driver's
 * error; the admin use-case (core/control/computed.ts) says what it means.
 */
import { render } from '../sql.ts';
import type { WorkspaceRuntime } from '../workspace/runtime.ts';
import type { ViewRecord } from '../workspace/types.ts';
import { compileRead } from './compile-read.ts';
import { NO_POLICY, type ComputedField, type Predicate, type ReadScope } from './plan.ts';
import { planRead } from './plan-read.ts';
import { listRecords, readScope } from './read.ts';
import type { JsonRecord } from './assemble.ts';
import { DEFAULT_PAGE_SIZE, type ReadRequest } from './request.ts';

/**
 * The view as it will be once the column is saved: the new expression replaces any old one of that
 * name. Without the view's cache of compiled reads: that cache keys a read by its request, which is
 * the same for every unsaved formula, so sharing it would answer the first formula's read again.
 */
function scopeWith(runtime: WorkspaceRuntime, view: ViewRecord, field: ComputedField): ReadScope {
  const { reads: _viewReads, ...base } = readScope(runtime, view.entity, NO_POLICY, view.uuid);
  const computed = [...base.root.computed.filter((c) => c.fieldName !== field.fieldName), field];
  return { ...base, root: { ...base.root, computed } };
}

export async function probeComputedField(runtime: WorkspaceRuntime, view: ViewRecord, field: ComputedField): Promise<void> {
  const scope = scopeWith(runtime, view, field);
  const request: ReadRequest = { page: 0, size: DEFAULT_PAGE_SIZE, sort: [], expand: [], fields: [[field.fieldName]], filters: [], count: 'none' };
  const noRow: Predicate = { target: { kind: 'field', hops: [], field: scope.root.entity.idField }, op: 'never', value: null };
  const { dialect, driver } = runtime.database;
  await driver.query(render(compileRead(planRead(scope, request, { where: [noRow] }), dialect).page, dialect.sql));
}

/**
 * The first `size` rows of the view (in id order) with the unsaved column's value beside the id:
 * the admin application's preview while a formula is typed. Owner access, like saving the column.
 */
export async function previewComputedField(runtime: WorkspaceRuntime, view: ViewRecord, field: ComputedField, size: number): Promise<JsonRecord[]> {
  const scope = scopeWith(runtime, view, field);
  const id = scope.root.entity.idField.name;
  const request: ReadRequest = { page: 0, size, sort: [{ path: [id], direction: 'asc' }], expand: [], fields: [[id], [field.fieldName]], filters: [], count: 'none' };
  return (await listRecords(runtime.database, scope, request, { estimateThreshold: 0, cursorSecret: '' })).data;
}
