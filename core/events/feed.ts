/** The changes page (DESIGN §17 "Reading the feed"): events after `since`, oldest first. */
import type { Database } from '../../dialects/dialect.ts';
import { ApiError } from '../errors.ts';
import type { EntityOptions } from '../schema/entity-options.ts';
import { render, sql, empty } from '../sql.ts';
import { ensureEventTables, eventsTable } from './tables.ts';
import { assignPositions } from './positions.ts';

export const DEFAULT_CHANGES_SIZE = 100;
export const MAX_CHANGES_SIZE = 1000;

export interface ChangesRequest {
  /** The last position the reader processed; 0 reads from the oldest kept event. */
  readonly since: number;
  readonly size: number;
}

export interface ChangeEvent {
  readonly eventId: string;
  readonly position: string;
  readonly entity: string;
  readonly op: string;
  readonly id: string | number;
  readonly at: string;
  readonly record: Record<string, unknown>;
}

export interface ChangesPage {
  readonly data: ChangeEvent[];
  readonly meta: { readonly size: number; readonly nextSince: string };
}

function badRequest(name: string, message: string): ApiError {
  return new ApiError('BAD_REQUEST', `${name} ${message}`, [{ field: name, rule: 'format', message }]);
}

/** `since` and `size` from a query string; anything else is 400 naming the parameter. */
/** An entity's changes page exists only while its events are on: 409 EVENTS_OFF otherwise. */
export function requireEventsOn(entity: string, options: Pick<EntityOptions, 'events'>): void {
  if (options.events === 'off') {
    throw new ApiError('EVENTS_OFF', `events are off for '${entity}'; an owner turns them on with {"events": "api"} in the entity options`);
  }
}

export function readChangesRequest(query: Record<string, unknown>): ChangesRequest {
  const since = query.since;
  const size = query.size;
  let sinceValue = 0;
  if (since !== undefined) {
    if (typeof since !== 'string' || !/^(0|[1-9][0-9]{0,14})$/.test(since)) throw badRequest('since', 'must be a position (a decimal integer of at most 15 digits)');
    sinceValue = Number(since);
  }
  let sizeValue = DEFAULT_CHANGES_SIZE;
  if (size !== undefined) {
    if (typeof size !== 'string' || !/^[1-9][0-9]{0,3}$/.test(size) || Number(size) > MAX_CHANGES_SIZE) throw badRequest('size', `must be an integer from 1 to ${MAX_CHANGES_SIZE}`);
    sizeValue = Number(size);
  }
  return { since: sinceValue, size: sizeValue };
}

/**
 * Events after `request.since`, of `entity` or (null) of every entity. Positions are assigned
 * first, so a write committed before this read is on the page even if its own assignment failed.
 */
export async function readChanges(
  database: Database, workspaceId: string, entity: string | null, request: ChangesRequest, idField: (entity: string) => string | undefined,
): Promise<ChangesPage> {
  await ensureEventTables(database);
  await assignPositions(database);
  const { dialect } = database;
  const only = entity === null ? empty : sql` AND entity = ${entity}`;
  const statement = sql`SELECT event_position, entity, op, record_id, at, record FROM ${eventsTable(database)}
    WHERE event_position > ${request.since}${only} ORDER BY event_position ${dialect.sql.paginate(request.size, 0)}`;
  const { rows } = await database.driver.query(render(statement, dialect.sql));
  const data = rows.map((row): ChangeEvent => {
    const record = JSON.parse(String(row.record)) as Record<string, unknown>;
    const position = String(row.event_position);
    const name = String(row.entity);
    const key = record[idField(name) ?? ''];
    const id = typeof key === 'string' || typeof key === 'number' ? key : String(row.record_id);
    return { eventId: `${workspaceId}.${position}`, position, entity: name, op: String(row.op), id, at: String(row.at), record };
  });
  const last = data[data.length - 1];
  return { data, meta: { size: request.size, nextSince: last ? last.position : String(request.since) } };
}
