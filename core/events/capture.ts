/**
 * `api` capture (docs/change-events.md): a write of an entity whose events are on runs in one
 * transaction that also appends one `wdapi_events` row per affected row; positions are given after
 * the commit (positions.ts). Events off never reaches this module: the write path checks one flag.
 */
import type { Database, Driver, Executor } from '../../dialects/dialect.ts';
import { ApiError } from '../errors.ts';
import { join, render, sql, type Sql } from '../sql.ts';
import type { JsonRecord } from '../query/assemble.ts';
import { NO_POLICY, type ReadScope } from '../query/plan.ts';
import { readRecord } from '../query/read.ts';
import type { ReadRequest } from '../query/request.ts';
import type { Entity } from '../schema/model.ts';
import { ensureEventTables, eventsTable } from './tables.ts';
import { assignPositions } from './positions.ts';

export type EventOp = 'insert' | 'update' | 'delete';

/** True when writes to the scope's entity append events in their transaction. */
export function capturesEvents(scope: ReadScope): boolean {
  return scope.root.options.events === 'api';
}

/**
 * Bulk upsert and import batches do not append events yet. Rather than leave committed rows out of
 * a feed that promises every change, they are refused while the entity's events are on.
 */
export function refuseUncapturedBulk(scope: ReadScope): void {
  if (!capturesEvents(scope)) return;
  throw new ApiError('CONFLICT', `bulk and import writes of '${scope.root.entity.name}' are not captured as change events yet; they are refused while its events are 'api' (turn events off to use them)`);
}

/** The event's record: every stored field under its API name, no computed column, no expansion. */
function recordRequest(entity: Entity): ReadRequest {
  return { page: 0, size: 1, sort: [], expand: [], fields: entity.fields.map((f) => [f.name]), filters: [], count: 'none' };
}

/** The full row whatever the writer may read: the event is the entity's, not the writer's. */
function eventScope(scope: ReadScope): ReadScope {
  return { ...scope, policy: NO_POLICY, reads: undefined };
}

interface PendingEvent {
  readonly op: EventOp;
  readonly id: unknown;
  readonly record: JsonRecord;
}

/** Collects the rows one write changed, inside its transaction; `flush` appends their events. */
export class EventRecorder {
  private readonly events: PendingEvent[] = [];
  private readonly deleting = new Map<string, JsonRecord>();

  constructor(private readonly database: Database, private readonly tx: Executor, private readonly scope: ReadScope) {}

  private read(id: unknown): Promise<JsonRecord | undefined> {
    const entity = this.scope.root.entity;
    return readRecord(this.database, eventScope(this.scope), recordRequest(entity), id, this.tx);
  }

  /** After an insert or update of the row with key `id`: reads the row as the write left it. */
  async written(op: 'insert' | 'update', id: unknown): Promise<void> {
    const record = await this.read(id);
    if (record) this.events.push({ op, id, record });
  }

  /** Before a delete: the row as it is, kept for the event (a delete leaves nothing to read). */
  async beforeDelete(id: unknown): Promise<void> {
    const record = await this.read(id);
    if (record) this.deleting.set(String(id), record);
  }

  /** After the delete removed the row. */
  deleted(id: unknown): void {
    const record = this.deleting.get(String(id));
    if (record) this.events.push({ op: 'delete', id, record });
  }

  async flush(): Promise<void> {
    if (this.events.length === 0) return;
    const { dialect } = this.database;
    const entity = this.scope.root.entity;
    const at = new Date().toISOString();
    const perStatement = Math.max(1, Math.floor(dialect.capabilities.maxParams / 5));
    for (let start = 0; start < this.events.length; start += perStatement) {
      const rows: Sql[] = this.events.slice(start, start + perStatement).map((e) =>
        sql`(${entity.name}, ${e.op}, ${String(e.record[entity.idField.name] ?? e.id)}, ${at}, ${JSON.stringify(e.record)})`);
      await this.tx.query(render(sql`INSERT INTO ${eventsTable(this.database)} (entity, op, record_id, at, record) VALUES ${join(rows)}`, dialect.sql));
    }
  }
}

/** The pool seen through one open transaction, so that the write's own code runs inside it unchanged. */
function throughTransaction(database: Database, tx: Executor): Database {
  const outer = database.driver;
  const driver: Driver = {
    query: (statement) => tx.query(statement),
    transaction: (work) => work(tx),
    ping: () => outer.ping(),
    close: () => outer.close(),
  };
  return { dialect: database.dialect, driver };
}

/**
 * Runs `work` (the write) and its events in one transaction; after the commit, gives the new events
 * their positions. A failed assignment loses nothing: the next one (or the next changes read) does it.
 */
export async function withEvents<T>(database: Database, scope: ReadScope, work: (db: Database, recorder: EventRecorder) => Promise<T>): Promise<T> {
  await ensureEventTables(database);
  const result = await database.driver.transaction(async (tx) => {
    const db = throughTransaction(database, tx);
    const recorder = new EventRecorder(db, tx, scope);
    const answer = await work(db, recorder);
    await recorder.flush();
    return answer;
  });
  await assignPositions(database).catch(() => undefined);
  return result;
}
