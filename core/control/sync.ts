/**
 * Schema sync: introspect the workspace database, store the result and its hash, report drift,
 * and reconcile entities, default views and their field columns. Computed columns are kept and
 * never part of the hash or the drift (spec rule 11).
 */
import type { Dialect, Driver } from '../../dialects/dialect.ts';
import { buildModel, defaultViewSlug, diffSchemas, displayName, schemaHash } from '../schema/index.ts';
import type { Drift } from '../schema/drift.ts';
import type { Entity, SchemaModel } from '../schema/model.ts';
import { brokenReason } from '../query/computed-field.ts';
import type { WorkspaceCache } from '../workspace/cache.ts';
import type { ControlStore } from '../workspace/store.ts';
import type { ColumnRecord, ViewRecord, WorkspaceRecord } from '../workspace/types.ts';
import { compactPositions } from './column-order.ts';

export interface BrokenColumn {
  uuid: string;
  viewUuid: string;
  fieldName: string;
  reason: string;
}

export interface SyncResult {
  hash: string;
  drift: Drift;
  skippedTables: { table: string; reason: string }[];
  /** Computed columns whose formula no longer compiles against the new schema (spec rule 11). */
  brokenColumns: BrokenColumn[];
}

function isRelationshipField(entity: Entity, fieldName: string): boolean {
  return [...entity.relationships.values()].some((r) => r.kind === 'manyToOne' && r.field === fieldName);
}

async function ensureDefaultView(store: ControlStore, workspace: WorkspaceRecord, entity: Entity, views: ViewRecord[]): Promise<ViewRecord> {
  const existing = views.find((v) => v.entity === entity.name && v.isDefault);
  if (existing) return existing;
  return store.createView({
    workspaceId: workspace.id,
    slug: defaultViewSlug(workspace.orgSlug, workspace.slug, entity.name),
    name: displayName(entity.table),
    entity: entity.name,
    isDefault: true,
  });
}

/** Adds a column for each new field and drops those of removed fields; computed columns stay. */
async function reconcileFieldColumns(store: ControlStore, view: ViewRecord, entity: Entity): Promise<void> {
  const columns = await store.listColumns(view.uuid);
  const physical = columns.filter((c) => c.kind === 'FIELD' || c.kind === 'RELATIONSHIP');
  const gone = physical.filter((column) => !entity.fieldsByName.has(column.fieldName));
  for (const column of gone) await store.deleteColumn(column.uuid);
  if (gone.length > 0) await compactPositions(store, view.uuid);
  const present = new Set(physical.map((c) => c.fieldName));
  for (const field of entity.fields) {
    if (present.has(field.name)) continue;
    const column: Omit<ColumnRecord, 'uuid' | 'position' | 'broken'> = {
      viewUuid: view.uuid,
      kind: isRelationshipField(entity, field.name) ? 'RELATIONSHIP' : 'FIELD',
      fieldName: field.name,
      displayName: displayName(field.column),
      formula: null,
      widgetType: widgetTypeOf(field.type),
      members: null,
    };
    await store.insertColumn(column);
  }
}

export function widgetTypeOf(type: string): string {
  switch (type) {
    case 'integer':
    case 'bigint':
      return 'INTEGER';
    case 'decimal':
    case 'float':
      return 'DECIMAL';
    case 'boolean':
      return 'BOOLEAN';
    case 'date':
      return 'DATE';
    case 'timestamp':
      return 'DATETIME';
    default:
      return 'STRING';
  }
}

/** Re-checks every computed column: newly broken ones are marked, mended ones cleared. */
async function recheckComputed(store: ControlStore, workspace: WorkspaceRecord, model: SchemaModel): Promise<BrokenColumn[]> {
  const broken: BrokenColumn[] = [];
  const views = new Map((await store.listViews(workspace.id)).map((v) => [v.uuid, v]));
  const entities = new Map((await store.listEntities(workspace.id)).map((e) => [e.name, e]));
  for (const column of await store.listWorkspaceColumns(workspace.id)) {
    if (column.kind !== 'COMPUTED' || column.formula === null) continue;
    const entity = model.entities.get(views.get(column.viewUuid)?.entity ?? '');
    if (!entity) continue;
    const reason = brokenReason(column.formula, entity, model, entities.get(entity.name)?.options.maxExpandDepth ?? 3);
    if (reason !== column.broken) await store.updateColumn(column.uuid, { broken: reason });
    if (reason) broken.push({ uuid: column.uuid, viewUuid: column.viewUuid, fieldName: column.fieldName, reason });
  }
  return broken;
}

async function reconcileEntities(store: ControlStore, workspace: WorkspaceRecord, model: SchemaModel): Promise<void> {
  const known = await store.listEntities(workspace.id);
  for (const entity of known) {
    if (!model.entities.has(entity.name)) {
      await store.removeEntity(workspace.id, entity.name);
      await store.deleteViewsOfEntity(workspace.id, entity.name);
    }
  }
  const views = await store.listViews(workspace.id);
  for (const entity of model.entities.values()) {
    await store.addEntity(workspace.id, entity.name, entity.table);
    const view = await ensureDefaultView(store, workspace, entity, views);
    for (const other of views.filter((v) => v.entity === entity.name)) {
      await reconcileFieldColumns(store, other.uuid === view.uuid ? view : other, entity);
    }
    if (!views.some((v) => v.uuid === view.uuid)) await reconcileFieldColumns(store, view, entity);
  }
}

export async function syncWorkspace(cache: WorkspaceCache, workspace: WorkspaceRecord, dialect: Dialect, driver: Driver): Promise<SyncResult> {
  const schema = await dialect.bind(workspace.database).introspect(driver);
  const hash = schemaHash(schema);
  const drift = diffSchemas(workspace.introspection, schema);
  const model = buildModel(schema);
  const brokenColumns = await cache.change(workspace.id, async (tx) => {
    await tx.saveIntrospection(workspace.id, schema, hash);
    await reconcileEntities(tx, workspace, model);
    return recheckComputed(tx, workspace, model);
  });
  return { hash, drift, skippedTables: [...model.skipped], brokenColumns };
}
