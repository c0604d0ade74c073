/**
 * Physical view columns (DESIGN §10): DDL on the workspace database through the dialect, with the
 * entity marked writes-blocked for the duration and re-synced afterwards. A failed DDL leaves the
 * flag as it was and the schema unchanged.
 */
import { render } from '../sql.ts';
import { ApiError, badRequest, serviceUnavailable, validationFailed } from '../errors.ts';
import type { BoundDialect } from '../../dialects/dialect.ts';
import type { ColumnType } from '../schema/introspection.ts';
import { camelCase, snakeCase } from '../schema/names.ts';
import { checkFormula, parseFormula } from '../formula/index.ts';
import { syncById } from './workspaces.ts';
import type { WorkspaceCache } from '../workspace/cache.ts';
import type { WorkspaceRuntime } from '../workspace/runtime.ts';
import type { ColumnRecord, MigrationFlag, ViewRecord } from '../workspace/types.ts';

const TYPE_OF_WIDGET: Record<string, ColumnType> = {
  STRING: 'text', TEXT: 'text', EMAIL: 'text', URL: 'text', INTEGER: 'integer', DECIMAL: 'decimal', NUMBER: 'decimal',
  BOOLEAN: 'boolean', DATE: 'date', DATETIME: 'timestamp', TIMESTAMP: 'timestamp', UUID: 'uuid', JSON: 'json',
};

const MIGRATING: MigrationFlag = { blocksReads: false, blocksWrites: true, retryAfterSeconds: 30 };

export function columnTypeOfWidget(widgetType: string): ColumnType {
  const type = TYPE_OF_WIDGET[widgetType];
  if (!type) throw badRequest(`widgetType '${widgetType}' cannot make a physical column; use one of ${Object.keys(TYPE_OF_WIDGET).join(', ')}`);
  return type;
}

/**
 * Refuses a column name longer than the vendor keeps, before any DDL: PostgreSQL would truncate it
 * silently and the re-sync would then not find the column.
 */
function checkIdentifierLength(dialect: BoundDialect, column: string, field: string): void {
  const { limit, unit } = dialect.capabilities.maxIdentifierLength;
  const length = unit === 'bytes' ? Buffer.byteLength(column, 'utf8') : column.length;
  if (length <= limit) return;
  throw validationFailed([{ field, rule: 'maxLength', message: `gives a column name of ${length} ${unit}; this database allows at most ${limit}` }]);
}

/** Runs `ddl` with the entity's writes blocked, then re-syncs; the previous flag is restored whatever happens. */
async function migrate(cache: WorkspaceCache, runtime: WorkspaceRuntime, entity: string, ddl: () => Promise<void>): Promise<void> {
  const workspaceId = runtime.workspace.id;
  const previous = runtime.entityRecord(entity).migration;
  await cache.change(workspaceId, (tx) => tx.saveMigration(workspaceId, entity, previous ?? MIGRATING));
  try {
    await ddl();
    const workspace = await cache.store.findWorkspaceById(workspaceId);
    if (workspace) await syncById(cache, workspace);
  } catch (error) {
    const mapped = runtime.dialect.mapError(error);
    if (error instanceof ApiError) throw error;
    if (mapped?.kind === 'connection_lost') throw serviceUnavailable('the workspace database is unavailable; try again shortly', error);
    throw new ApiError('CONFLICT', 'the workspace database refused the schema change');
  } finally {
    await cache.change(workspaceId, (tx) => tx.saveMigration(workspaceId, entity, previous));
  }
}

export async function createPhysicalColumn(
  cache: WorkspaceCache, runtime: WorkspaceRuntime, view: ViewRecord,
  input: { displayName: string; widgetType: string; fieldName: string | undefined },
): Promise<ColumnRecord> {
  const entity = runtime.entity(view.entity);
  const type = columnTypeOfWidget(input.widgetType);
  const column = snakeCase(input.fieldName ?? input.displayName);
  const fieldName = camelCase(column);
  checkIdentifierLength(runtime.dialect, column, input.fieldName === undefined ? 'displayName' : 'fieldName');
  if (entity.fields.some((f) => f.column === column || f.name === fieldName) || entity.relationships.has(fieldName)) {
    throw new ApiError('CONFLICT', `field name '${fieldName}' is already used by ${entity.name}`);
  }
  const { dialect, driver } = runtime.database;
  await migrate(cache, runtime, entity.name, async () => {
    await driver.query(render(dialect.sql.addColumnStatement(dialect.tableRef(entity.table), column, type), dialect.sql));
  });
  const created = (await cache.store.listColumns(view.uuid)).find((c) => c.fieldName === fieldName);
  if (!created) throw new Error(`column ${fieldName} missing after sync`);
  const changes = { displayName: input.displayName, widgetType: input.widgetType };
  await cache.change(view.workspaceId, (tx) => tx.updateColumn(created.uuid, changes));
  return { ...created, ...changes };
}

/** Computed columns of any view of the entity whose formula reads `fieldName`. */
function formulasUsing(runtime: WorkspaceRuntime, entityName: string, fieldName: string): string[] {
  const entity = runtime.entity(entityName);
  const users: string[] = [];
  for (const view of runtime.views.filter((v) => v.entity === entityName)) {
    for (const column of runtime.columnsByView.get(view.uuid) ?? []) {
      if (column.kind !== 'COMPUTED' || !column.formula || column.broken) continue;
      const refs = checkFormula(parseFormula(column.formula), { entity, model: runtime.model }).refs;
      if (refs.some((ref) => ref.length === 1 && ref[0] === fieldName)) users.push(column.fieldName);
    }
  }
  return users;
}

export async function dropPhysicalColumn(cache: WorkspaceCache, runtime: WorkspaceRuntime, view: ViewRecord, column: ColumnRecord): Promise<void> {
  const entity = runtime.entity(view.entity);
  const field = entity.fieldsByName.get(column.fieldName);
  if (!field) throw new ApiError('NOT_FOUND', `field '${column.fieldName}' no longer exists`);
  if (field.primaryKey) throw new ApiError('CONFLICT', 'the primary key cannot be dropped');
  const users = formulasUsing(runtime, entity.name, field.name);
  if (users.length > 0) throw new ApiError('CONFLICT', `computed columns use '${field.name}': ${users.join(', ')}`);
  const { dialect, driver } = runtime.database;
  await migrate(cache, runtime, entity.name, async () => {
    await driver.query(render(dialect.sql.dropColumnStatement(dialect.tableRef(entity.table), field.column), dialect.sql));
  });
}
