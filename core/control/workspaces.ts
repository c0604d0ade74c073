/** Creating and syncing workspaces (DESIGN §10: creating one syncs it). */
import { ApiError, serviceUnavailable } from '../errors.ts';
import type { DialectRegistry } from '../../dialects/registry.ts';
import { PayloadReader, SLUG } from './payload.ts';
import type { WorkspaceCache } from './runtime.ts';
import type { ControlStore } from './store.ts';
import { syncWorkspace, type SyncResult } from './sync.ts';
import type { OrgRecord, WorkspaceRecord } from './types.ts';

const SCHEMA_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

function readDatabase(reader: PayloadReader, dialects: DialectRegistry): WorkspaceRecord['database'] | undefined {
  const value = reader.body.database;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return reader.fail('database', 'required', 'must be an object {vendor, url?, schema?, poolSize?}');
  }
  const db = value as Record<string, unknown>;
  if (typeof db.vendor !== 'string' || !dialects.vendors.includes(db.vendor)) {
    return reader.fail('database.vendor', 'enum', `must be one of ${dialects.vendors.join(', ')}`);
  }
  if (db.url !== undefined && typeof db.url !== 'string') return reader.fail('database.url', 'type', 'must be a string');
  if (db.vendor !== 'embedded' && typeof db.url !== 'string') return reader.fail('database.url', 'required', 'is required for this vendor');
  if (db.schema !== undefined && (typeof db.schema !== 'string' || !SCHEMA_NAME.test(db.schema))) {
    return reader.fail('database.schema', 'pattern', 'must be a plain identifier');
  }
  if (db.poolSize !== undefined && (typeof db.poolSize !== 'number' || !Number.isInteger(db.poolSize) || db.poolSize < 1 || db.poolSize > 100)) {
    return reader.fail('database.poolSize', 'type', 'must be an integer from 1 to 100');
  }
  return {
    vendor: db.vendor,
    ...(typeof db.url === 'string' ? { url: db.url } : {}),
    ...(typeof db.schema === 'string' ? { schema: db.schema } : {}),
    ...(typeof db.poolSize === 'number' ? { poolSize: db.poolSize } : {}),
  };
}

export async function syncById(store: ControlStore, cache: WorkspaceCache, workspace: WorkspaceRecord): Promise<SyncResult> {
  const { dialect, driver } = await cache.driverFor(workspace);
  try {
    return await syncWorkspace(store, workspace, dialect, driver);
  } catch (error) {
    if (error instanceof ApiError) throw error;
    if (dialect.mapError(error)?.kind === 'connection_lost') {
      throw serviceUnavailable(`the database of workspace '${workspace.slug}' cannot be reached`, error);
    }
    throw error;
  } finally {
    cache.invalidate(workspace.id);
  }
}

export async function createWorkspace(store: ControlStore, cache: WorkspaceCache, dialects: DialectRegistry, org: OrgRecord, body: unknown): Promise<{ workspace: WorkspaceRecord; sync: SyncResult }> {
  const reader = new PayloadReader(body, ['slug', 'name', 'database']);
  const slug = reader.string('slug', { required: true, pattern: SLUG, patternText: 'lower-case letters, digits and dashes' });
  const name = reader.string('name') ?? slug;
  const database = readDatabase(reader, dialects);
  reader.done();
  if (!slug || !database || !name) throw new Error('unreachable: payload checked');
  const workspace = await store.createWorkspace(org, slug, name, database);
  try {
    return { workspace, sync: await syncById(store, cache, workspace) };
  } catch (error) {
    await cache.forget(workspace.id);
    await store.deleteWorkspace(workspace.id);
    // A database that cannot be reached at creation is the payload's problem (400), not an outage.
    if (error instanceof ApiError && error.code !== 'SERVICE_UNAVAILABLE') throw error;
    throw new ApiError('VALIDATION_FAILED', 'the workspace database could not be read; check database.url and database.schema', [
      { field: 'database', rule: 'connect', message: 'could not connect to or introspect the database' },
    ]);
  }
}
