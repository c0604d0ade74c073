/**
 * Creating, changing, syncing and deleting workspaces (DESIGN §10: creating one syncs it). A
 * workspace is saved only once its database has been reached and its schema found, so a typo
 * costs a 400, not a workspace without entities that holds its slug.
 */
import { ApiError, serviceUnavailable } from '../errors.ts';
import type { DialectRegistry } from '../../dialects/dialect.ts';
import { PayloadReader, SLUG } from '../payload.ts';
import type { WorkspaceCache } from '../workspace/cache.ts';
import type { WorkspaceSummary } from '../workspace/store.ts';
import { syncWorkspace, type SyncResult } from './sync.ts';
import type { OrgRecord, WorkspaceRecord } from '../workspace/types.ts';
import { describeDatabase, probeDatabase, readDatabase } from './workspace-database.ts';
import { connectionCauseText } from '../workspace/connection-cause.ts';

/** The workspace record of the admin API: no introspection, the database URL without its password. */
export function describeWorkspace(workspace: WorkspaceSummary): Record<string, unknown> {
  return {
    id: workspace.id,
    org: workspace.orgSlug,
    slug: workspace.slug,
    name: workspace.name,
    database: describeDatabase(workspace.database),
    schemaHash: workspace.schemaHash,
    syncedAt: workspace.syncedAt,
  };
}

export async function syncById(cache: WorkspaceCache, workspace: WorkspaceRecord): Promise<SyncResult> {
  const { dialect, driver } = await cache.driverFor(workspace);
  try {
    return await syncWorkspace(cache, workspace, dialect, driver);
  } catch (error) {
    if (error instanceof ApiError) throw error;
    const mapped = dialect.errors(error);
    if (mapped?.kind === 'connection_lost') {
      throw serviceUnavailable(`the database of workspace '${workspace.slug}' cannot be reached: ${connectionCauseText(mapped.connection, 'the connection failed')}`, error);
    }
    throw error;
  }
}

/** A database that cannot be read while creating or moving a workspace is the payload's problem (400), not an outage. */
function unreadable(error: unknown): ApiError {
  if (error instanceof ApiError && error.code !== 'SERVICE_UNAVAILABLE') return error;
  const problem = { field: 'database', rule: 'connect', message: 'could not connect to or introspect the database' };
  return new ApiError('VALIDATION_FAILED', 'the workspace database could not be read; check database.url and database.schema', [problem], undefined, error);
}

export async function createWorkspace(cache: WorkspaceCache, dialects: DialectRegistry, org: OrgRecord, body: unknown): Promise<{ workspace: WorkspaceRecord; sync: SyncResult }> {
  const reader = new PayloadReader(body, ['slug', 'name', 'database']);
  const slug = reader.string('slug', { required: true, pattern: SLUG, patternText: 'lower-case letters, digits and dashes' });
  const name = reader.string('name') ?? slug;
  const database = readDatabase(reader, dialects);
  reader.done();
  if (!slug || !database || !name) throw new Error('unreachable: payload checked');
  await probeDatabase(dialects.get(database.vendor), database);
  const workspace = await cache.store.createWorkspace(org, slug, name, database);
  try {
    return { workspace, sync: await syncById(cache, workspace) };
  } catch (error) {
    await cache.forget(workspace.id);
    await cache.store.deleteWorkspace(workspace.id);
    throw unreadable(error);
  }
}

/**
 * PATCH `{name?, database?}`. New database settings are probed first and the workspace re-synced
 * from them; when that fails, the stored record is put back as it was. Entities the new database
 * lacks are removed by the sync, with their views, columns and rules (as a sync always does).
 */
export async function updateWorkspace(cache: WorkspaceCache, dialects: DialectRegistry, current: WorkspaceRecord, body: unknown): Promise<{ sync: SyncResult | null }> {
  const reader = new PayloadReader(body, ['name', 'database']);
  const name = reader.string('name') ?? current.name;
  const database = readDatabase(reader, dialects, current.database);
  reader.done();
  if (!database) throw new Error('unreachable: payload checked');
  const moved = JSON.stringify(database) !== JSON.stringify(current.database);
  if (moved) await probeDatabase(dialects.get(database.vendor), database);
  await cache.change(current.id, (tx) => tx.updateWorkspace(current.id, name, database));
  if (!moved) return { sync: null };
  try {
    return { sync: await syncById(cache, { ...current, name, database }) };
  } catch (error) {
    await cache.change(current.id, (tx) => tx.updateWorkspace(current.id, current.name, current.database));
    throw unreadable(error);
  }
}

/** Deletes the workspace with everything the control store holds for it, and closes its pool here. */
export async function deleteWorkspace(cache: WorkspaceCache, workspaceId: string): Promise<void> {
  await cache.store.deleteWorkspace(workspaceId);
  await cache.forget(workspaceId);
}
