/**
 * Gate 2 of a computed column (DESIGN §7): the database compiles the column's expression inside the
 * view's ordinary read, with a condition that selects no row. A refusal is thrown as the driver's
 * error; the admin use-case (core/control/computed.ts) says what it means.
 */
import { render } from '../sql.ts';
import type { WorkspaceRuntime } from '../workspace/runtime.ts';
import type { ViewRecord } from '../workspace/types.ts';
import { compileRead } from './compile-read.ts';
import { NO_POLICY, type ComputedField, type Predicate } from './plan.ts';
import { planRead } from './plan-read.ts';
import { readScope } from './read.ts';
import { DEFAULT_PAGE_SIZE, type ReadRequest } from './request.ts';

export async function probeComputedField(runtime: WorkspaceRuntime, view: ViewRecord, field: ComputedField): Promise<void> {
  const base = readScope(runtime, view.entity, NO_POLICY, view.uuid);
  // The view as it will be once the column is saved: the new expression replaces any old one of that name.
  const computed = [...base.root.computed.filter((c) => c.fieldName !== field.fieldName), field];
  const scope = { ...base, root: { ...base.root, computed } };
  const request: ReadRequest = { page: 0, size: DEFAULT_PAGE_SIZE, sort: [], expand: [], fields: [[field.fieldName]], filters: [], count: 'none' };
  const noRow: Predicate = { target: { kind: 'field', hops: [], field: base.root.entity.idField }, op: 'never', value: null };
  const { dialect, driver } = runtime.database;
  await driver.query(render(compileRead(planRead(scope, request, { where: [noRow] }), dialect).page, dialect.sql));
}
