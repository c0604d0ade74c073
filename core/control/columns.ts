/**
 * View columns (spec "View column endpoints", DESIGN §12). Computed columns are validated by both
 * formula gates before they are stored and never touch the workspace database's schema.
 */
import { ApiError, badRequest } from '../errors.ts';
import { camelCase } from '../schema/names.ts';
import { PayloadReader } from '../payload.ts';
import { compactPositions, moveColumn } from './column-order.ts';
import { validateComputedFormula } from './computed.ts';
import { createPhysicalColumn, dropPhysicalColumn } from './physical-columns.ts';
import type { WorkspaceCache } from '../workspace/cache.ts';
import type { WorkspaceRuntime } from '../workspace/runtime.ts';
import type { ColumnRecord, ViewRecord } from '../workspace/types.ts';

const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

/** The column record as clients see it (DESIGN §12). */
export function columnBody(column: ColumnRecord): Record<string, unknown> {
  const { broken, formula, members, ...rest } = column;
  return { ...rest, ...(formula !== null ? { formula } : {}), ...(members !== null ? { members } : {}), ...(broken !== null ? { broken } : {}) };
}

function takenNames(runtime: WorkspaceRuntime, view: ViewRecord, except?: string): Set<string> {
  const entity = runtime.entity(view.entity);
  const names = new Set<string>([...entity.fields.map((f) => f.name), ...entity.relationships.keys()]);
  for (const column of runtime.columnsByView.get(view.uuid) ?? []) if (column.uuid !== except) names.add(column.fieldName);
  return names;
}

function checkFieldName(runtime: WorkspaceRuntime, view: ViewRecord, fieldName: string, except?: string): void {
  if (!FIELD_NAME.test(fieldName)) {
    throw new ApiError('VALIDATION_FAILED', `fieldName '${fieldName}' is not a valid field name`, [{ field: 'fieldName', rule: 'pattern', message: 'must be letters, digits and _' }]);
  }
  if (takenNames(runtime, view, except).has(fieldName)) throw new ApiError('CONFLICT', `field name '${fieldName}' is already used in this view`);
}

function checkMembers(runtime: WorkspaceRuntime, view: ViewRecord, members: string[]): void {
  const known = new Set((runtime.columnsByView.get(view.uuid) ?? []).filter((c) => c.kind !== 'GROUP').map((c) => c.fieldName));
  const unknown = members.filter((m) => !known.has(m));
  if (unknown.length > 0) throw badRequest(`display group members are not columns of the view: ${unknown.join(', ')}`);
}

export async function createColumn(cache: WorkspaceCache, runtime: WorkspaceRuntime, view: ViewRecord, body: unknown): Promise<ColumnRecord> {
  const reader = new PayloadReader(body, ['viewUuid', 'displayName', 'formula', 'widgetType', 'fieldName', 'kind', 'members']);
  const displayName = reader.string('displayName', { required: true });
  const formula = reader.has('formula') ? reader.string('formula', { required: true }) : undefined;
  const widgetType = reader.string('widgetType') ?? 'STRING';
  const kind = reader.string('kind');
  const members = reader.stringList('members');
  const explicitName = reader.string('fieldName');
  if (kind !== undefined && !['GROUP', 'COMPUTED', 'FIELD'].includes(kind)) reader.fail('kind', 'enum', 'must be FIELD, COMPUTED or GROUP');
  if (kind === 'COMPUTED' && formula === undefined) reader.fail('formula', 'required', 'is required for a computed column');
  reader.done();
  const fieldName = explicitName ?? camelCase(displayName ?? '');
  if (kind === 'GROUP') {
    checkFieldName(runtime, view, fieldName);
    checkMembers(runtime, view, members ?? []);
    return cache.change(view.workspaceId, (tx) => tx.insertColumn({ viewUuid: view.uuid, kind: 'GROUP', fieldName, displayName: displayName ?? '', formula: null, widgetType, members: members ?? [] }));
  }
  if (formula === undefined) {
    return createPhysicalColumn(cache, runtime, view, { displayName: displayName ?? '', widgetType, fieldName: explicitName });
  }
  checkFieldName(runtime, view, fieldName);
  const normalized = await validateComputedFormula(runtime, view, fieldName, formula);
  return cache.change(view.workspaceId, (tx) => tx.insertColumn({ viewUuid: view.uuid, kind: 'COMPUTED', fieldName, displayName: displayName ?? '', formula: normalized, widgetType, members: null }));
}

export async function updateColumn(cache: WorkspaceCache, runtime: WorkspaceRuntime, view: ViewRecord, column: ColumnRecord, body: unknown): Promise<ColumnRecord> {
  const reader = new PayloadReader(body, ['displayName', 'formula', 'widgetType', 'fieldName', 'members', 'position']);
  const changes: Partial<ColumnRecord> = {};
  const lastPosition = (runtime.columnsByView.get(view.uuid)?.length ?? 1) - 1;
  const position = reader.integer('position', 0, lastPosition);
  const displayName = reader.string('displayName');
  const widgetType = reader.string('widgetType');
  const fieldName = reader.string('fieldName');
  const formula = reader.has('formula') ? reader.string('formula', { required: true }) : undefined;
  const members = reader.stringList('members');
  if (formula !== undefined && column.kind !== 'COMPUTED') reader.fail('formula', 'readOnly', 'only computed columns have a formula');
  if (fieldName !== undefined && column.kind !== 'COMPUTED' && column.kind !== 'GROUP') reader.fail('fieldName', 'readOnly', 'the field name of a physical column follows its database column');
  reader.done();
  if (displayName !== undefined) changes.displayName = displayName;
  if (widgetType !== undefined) changes.widgetType = widgetType;
  if (fieldName !== undefined && fieldName !== column.fieldName) {
    checkFieldName(runtime, view, fieldName, column.uuid);
    changes.fieldName = fieldName;
  }
  if (members !== undefined && column.kind === 'GROUP') {
    checkMembers(runtime, view, members ?? []);
    changes.members = members ?? [];
  }
  if (formula !== undefined) {
    changes.formula = await validateComputedFormula(runtime, view, changes.fieldName ?? column.fieldName, formula);
    changes.broken = null;
  }
  await cache.change(view.workspaceId, async (tx) => {
    if (Object.keys(changes).length > 0) await tx.updateColumn(column.uuid, changes);
    if (position !== undefined) await moveColumn(tx, view.uuid, column.uuid, position);
  });
  return { ...column, ...changes, ...(position !== undefined ? { position } : {}) };
}

export async function deleteColumn(cache: WorkspaceCache, runtime: WorkspaceRuntime, view: ViewRecord, column: ColumnRecord): Promise<void> {
  if (column.kind === 'FIELD' || column.kind === 'RELATIONSHIP') {
    await dropPhysicalColumn(cache, runtime, view, column); // its sync closes the gap
    return;
  }
  await cache.change(view.workspaceId, async (tx) => {
    await tx.deleteColumn(column.uuid);
    await compactPositions(tx, view.uuid);
  });
}
