/** Executes reads: the page and the count run concurrently, one statement each (DESIGN §6). */
import { render, type CompiledSql } from '../sql.ts';
import type { BoundDialect, Database, Executor } from '../../dialects/dialect.ts';
import type { WorkspaceRuntime } from '../workspace/runtime.ts';
import type { CountMode } from '../schema/entity-options.ts';
import { notFound } from '../errors.ts';
import type { Entity } from '../schema/model.ts';
import { translateDbError } from '../workspace/db-errors.ts';
import type { JsonRecord } from './assemble.ts';
import type { CompiledRead } from './compile-read.ts';
import { NO_POLICY, type ReadPlan, type ReadPolicy, type ReadScope } from './plan.ts';
import { idPredicate, planRead } from './plan-read.ts';
import type { ReadRequest } from './request.ts';
import { parseScalar } from '../schema/coerce.ts';
import { viewShape } from './shape.ts';
import { cursorAfter, planCursor, queryIdentity } from './cursor.ts';
import { prepareAfterCursor } from './cursor-reads.ts';
import { prepare, type PreparedRead } from './prepared-read.ts';
import { readArrays } from './items.ts';
import { migrationBlocksReads } from './expand.ts';
import { ReadCache } from './read-cache.ts';
import { checkResponseItems, DEFAULT_MAX_RESPONSE_ITEMS } from './response-bound.ts';

export interface ListMeta {
  /** Null in cursor paging. */
  page: number | null;
  size: number;
  totalElements: number | null;
  totalPages: number | null;
  countMode: CountMode;
  /** Cursor paging only: `after` for the next page, null on the page holding the last row. */
  nextCursor?: string | null;
  /** The item limit of each expanded one-to-many path (DESIGN §13); absent without one. */
  expandSizes?: Record<string, number>;
}

export interface ReadOptions {
  /** Row count above which `count=estimated` trusts the planner (DESIGN §6). */
  readonly estimateThreshold: number;
  /** The deployment's key for signing cursors (the control store's `cursorSecret`). */
  readonly cursorSecret: string;
  /** Most items (rows and array items) a page may hold (MAX_RESPONSE_ITEMS); default DEFAULT_MAX_RESPONSE_ITEMS. */
  readonly maxResponseItems?: number;
}

function buildScope(runtime: WorkspaceRuntime, entityName: string, policy: ReadPolicy, viewUuid?: string): ReadScope {
  const root = viewShape(runtime, entityName, viewUuid);
  return {
    workspaceId: runtime.workspace.id,
    model: runtime.model,
    root,
    defaultView: (name) => viewShape(runtime, name),
    policy,
    ...(viewUuid ? { viewUuid } : {}),
    ...(policy === NO_POLICY ? { reads: new ReadCache() } : {}),
  };
}

/**
 * The scope of a read through `entityName` (or its view `viewUuid`) under `policy`. Without a row
 * policy (owners) nothing in it depends on the caller, so the runtime keeps one per view with its
 * cache of compiled reads; a policy binds the caller's claims, so its scope is built per request.
 */
export function readScope(runtime: WorkspaceRuntime, entityName: string, policy: ReadPolicy, viewUuid?: string): ReadScope {
  if (policy !== NO_POLICY) return buildScope(runtime, entityName, policy, viewUuid);
  return runtime.memo(`scope:${entityName}:${viewUuid ?? ''}`, () => buildScope(runtime, entityName, policy, viewUuid));
}

function prepareListAnew(database: Database, scope: ReadScope, request: ReadRequest, identity: string, secret: string): PreparedRead {
  return prepare(planCursor(planRead(scope, request), request, identity, secret), database.dialect);
}

/**
 * A page's read, from the scope's cache when it has one: an offset page or a first cursor page by
 * its request, a later cursor page by its shape (prepareAfterCursor). The maker is written inline:
 * `npm start` runs under tsx, whose esbuild keeps function names, and a closure held in a const
 * gets its name by an Object.defineProperty each time it is made (a few µs a request in perf
 * profiles); an inline argument gets none.
 */
function prepareList(database: Database, scope: ReadScope, request: ReadRequest, identity: string, secret: string): PreparedRead {
  const reads = scope.reads;
  if (!reads) return prepareListAnew(database, scope, request, identity, secret);
  const after = request.paging?.after;
  if (after !== undefined && after !== null) return prepareAfterCursor(database.dialect, { scope, reads, request }, { after, identity, secret });
  return reads.forRequest('list', request, () => prepareListAnew(database, scope, request, identity, secret));
}

/**
 * Planner estimates are approximate by nature, so one is reused for a few seconds per statement and
 * parameters: asking the planner costs about as much as reading the page itself. Kept per bound
 * dialect, which lives as long as the workspace's runtime.
 */
const ESTIMATE_TTL_MS = 5000;
const ESTIMATE_LIMIT = 1000;
const estimates = new WeakMap<BoundDialect, Map<string, { rows: number | null; at: number }>>();

async function estimatedRows(database: Database, statement: CompiledSql, rootTable: string): Promise<number | null> {
  const cache = estimates.get(database.dialect) ?? new Map<string, { rows: number | null; at: number }>();
  estimates.set(database.dialect, cache);
  const key = JSON.stringify([statement.text, statement.params]);
  const hit = cache.get(key);
  if (hit && Date.now() - hit.at < ESTIMATE_TTL_MS) return hit.rows;
  const rows = await database.dialect.estimateRows(database.driver, statement, rootTable);
  if (cache.size >= ESTIMATE_LIMIT) cache.clear();
  cache.set(key, { rows, at: Date.now() });
  return rows;
}

interface Count {
  readonly total: number | null;
  readonly mode: CountMode;
}

const NO_COUNT: Count = { total: null, mode: 'none' };

async function countRows(database: Database, plan: ReadPlan, compiled: CompiledRead, options: ReadOptions, signal: AbortSignal | undefined): Promise<Count> {
  const { driver, dialect } = database;
  const mode = plan.countMode;
  if (mode === 'none') return NO_COUNT;
  if (mode === 'estimated') {
    const estimate = await estimatedRows(database, render(compiled.estimate, dialect.sql), plan.root.entity.table);
    if (estimate !== null && estimate > options.estimateThreshold) return { total: Math.round(estimate), mode: 'estimated' };
  }
  const rows = (await driver.query(render(compiled.count, dialect.sql), { signal })).rows;
  return { total: Number(rows[0]?.total ?? 0), mode: 'exact' };
}

/**
 * The page's records with their one-to-many arrays, read by one statement per array path. Most
 * reads expand no one-to-many array: they get their records at once, without a promise.
 */
export function assembleWithArrays(db: Executor, dialect: BoundDialect, compiled: Pick<CompiledRead, 'assemble' | 'arrays'>, rows: Record<string, unknown>[]): JsonRecord[] | Promise<JsonRecord[]> {
  const records = compiled.assemble(rows);
  if (compiled.arrays.length === 0) return records;
  return readArrays(db, dialect, compiled.arrays, rows, records).then(() => records);
}

/** The rows of a cursor page (the one extra row dropped) and the cursor after its last row. */
function cursorPage(plan: ReadPlan, rows: Record<string, unknown>[], identity: string, secret: string): { rows: Record<string, unknown>[]; nextCursor: string | null } {
  if (rows.length <= plan.size) return { rows, nextCursor: null };
  const kept = rows.slice(0, plan.size);
  const last = kept[kept.length - 1];
  return { rows: kept, nextCursor: last ? cursorAfter(plan, last, identity, secret) : null };
}

/** `signal`: aborted when the client goes away; the page's statement is then cancelled (QueryOptions). */
export async function listRecords(database: Database, scope: ReadScope, request: ReadRequest, options: ReadOptions, signal?: AbortSignal): Promise<{ data: JsonRecord[]; meta: ListMeta }> {
  // Only a cursor needs the query's identity; offset pages skip its serialisation.
  const identity = request.paging ? queryIdentity(scope, request) : '';
  migrationBlocksReads(scope.root);
  const { plan, compiled, page: statement } = prepareList(database, scope, request, identity, options.cursorSecret);
  checkResponseItems(plan, plan.size, options.maxResponseItems ?? DEFAULT_MAX_RESPONSE_ITEMS);
  try {
    const read = signal ? database.driver.query(statement, { signal }) : database.driver.query(statement);
    // count=none (what a client paging a big table asks) runs nothing beside the page.
    const [{ rows }, count] = plan.countMode === 'none' ? [await read, NO_COUNT] : await Promise.all([read, countRows(database, plan, compiled, options, signal)]);
    const totalPages = count.total === null ? null : Math.ceil(count.total / plan.size);
    const counts = { size: plan.size, totalElements: count.total, totalPages, countMode: count.mode };
    const sizes = plan.expandSizes ? { expandSizes: { ...plan.expandSizes } } : {};
    if (!plan.keyset) return { data: await assembleWithArrays(database.driver, database.dialect, compiled, rows), meta: { page: plan.page, ...counts, ...sizes } };
    const page = cursorPage(plan, rows, identity, options.cursorSecret);
    const data = await assembleWithArrays(database.driver, database.dialect, compiled, page.rows);
    return { data, meta: { page: null, ...counts, nextCursor: page.nextCursor, ...sizes } };
  } catch (error) {
    throw translateDbError(database.dialect, scope.root.entity, error);
  }
}

/** Parses a path id; an id that cannot exist for the key's type is simply not found (DESIGN §12). */
export function parseId(entity: Entity, text: string): unknown {
  const parsed = parseScalar(entity.idField.type, text, { fromText: true });
  if (!parsed.ok) throw notFound(`${entity.name} '${text}' does not exist`);
  return parsed.value;
}

/** Stands for the id while a get-by-id read is compiled for the cache; never bound. */
const ID_SLOT = Object.freeze({ idSlot: true });

/** A get-by-id read compiled once for every id: `slot` is the id's index among the page's parameters. */
interface PreparedById extends PreparedRead {
  readonly slot: number;
}

function planById(scope: ReadScope, request: ReadRequest, id: unknown): ReadPlan {
  return planRead(scope, { ...request, page: 0, size: 1, sort: [], count: 'none' }, { where: [idPredicate(scope.root.entity.idField, id)] });
}

/** Null when the id does not stand alone among the parameters (a dialect that re-encodes it): then every read compiles. */
function prepareById(scope: ReadScope, request: ReadRequest, dialect: BoundDialect): PreparedById | null {
  const prepared = prepare(planById(scope, request, ID_SLOT), dialect);
  const slots = prepared.page.params.flatMap((value, i) => (value === ID_SLOT ? [i] : []));
  return slots.length === 1 ? { ...prepared, slot: slots[0] ?? -1 } : null;
}

function readById(database: Database, scope: ReadScope, request: ReadRequest, id: unknown): PreparedRead {
  const cached = scope.reads?.forRequest('id', request, () => prepareById(scope, request, database.dialect));
  if (!cached) return prepare(planById(scope, request, id), database.dialect);
  const params = [...cached.page.params];
  params[cached.slot] = database.dialect.sql.encodeValue(scope.root.entity.idField.type, id);
  return { ...cached, page: { text: cached.page.text, params } };
}

/** One record by id through the scope, or undefined; `db` is a transaction when the caller is in one. */
export async function readRecord(database: Database, scope: ReadScope, request: ReadRequest, id: unknown, db: Executor = database.driver): Promise<JsonRecord | undefined> {
  const entity = scope.root.entity;
  migrationBlocksReads(scope.root);
  const { compiled, page } = readById(database, scope, request, id);
  try {
    return (await assembleWithArrays(db, database.dialect, compiled, (await db.query(page)).rows))[0];
  } catch (error) {
    throw translateDbError(database.dialect, entity, error);
  }
}

export async function getRecord(database: Database, scope: ReadScope, request: ReadRequest, idText: string): Promise<JsonRecord> {
  const entity = scope.root.entity;
  const record = await readRecord(database, scope, request, parseId(entity, idText));
  if (!record) throw notFound(`${entity.name} '${idText}' does not exist`);
  return record;
}
