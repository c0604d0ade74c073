/**
 * The change events' tables in the WORKSPACE database (docs/change-events.md), created on first
 * use like the import's batch markers: `wdapi_events` holds one row per captured row change,
 * `wdapi_event_positions` one row whose lock serializes the position assigner and which keeps the
 * last position given. Their composite or service-only shape keeps them out of the API only by name
 * today: both start with `wdapi_`.
 */
import type { Database } from '../../dialects/dialect.ts';
import { raw, render, sql, type Sql } from '../sql.ts';

export const EVENTS_TABLE = 'wdapi_events';
export const POSITIONS_TABLE = 'wdapi_event_positions';

/**
 * `seq` is the arrival order the database numbers on insert (an uncommitted row holds one too);
 * `event_position` stays NULL until the assigner gives it after commit. UNIQUE allows many NULLs
 * on PostgreSQL and MySQL (not on SQL Server, where a filtered index would be needed).
 */
function eventsDefinition(database: Database): Sql {
  const { dialect } = database;
  return raw(`seq ${dialect.capabilities.identityColumn} NOT NULL, event_position bigint NULL, entity varchar(128) NOT NULL,
  op varchar(6) NOT NULL, record_id varchar(512) NOT NULL, at varchar(24) NOT NULL, record ${dialect.sql.columnType('text')} NOT NULL,
  PRIMARY KEY (seq), UNIQUE (event_position)`);
}

const POSITIONS_DEFINITION = sql`id integer NOT NULL, last_position bigint NOT NULL, PRIMARY KEY (id)`;

export function eventsTable(database: Database): Sql {
  return database.dialect.tableRef(EVENTS_TABLE);
}

export function positionsTable(database: Database): Sql {
  return database.dialect.tableRef(POSITIONS_TABLE);
}

/** Per pool: the tables are checked once per process, not once per write. */
const ensured = new WeakMap<object, Promise<void>>();

async function runTwice(database: Database, statement: Sql): Promise<void> {
  const compiled = render(statement, database.dialect.sql);
  // Two instances creating at once may race on the DDL or the seed row: one retry settles it.
  try {
    await database.driver.query(compiled);
  } catch {
    await database.driver.query(compiled).catch(() => undefined);
  }
}

async function create(database: Database): Promise<void> {
  const { dialect } = database;
  await runTwice(database, dialect.createTableIfMissing(EVENTS_TABLE, eventsDefinition(database)));
  await runTwice(database, dialect.createTableIfMissing(POSITIONS_TABLE, POSITIONS_DEFINITION));
  const { rows } = await database.driver.query(render(sql`SELECT id FROM ${positionsTable(database)} WHERE id = 1`, dialect.sql));
  if (rows.length === 0) await runTwice(database, sql`INSERT INTO ${positionsTable(database)} (id, last_position) VALUES (1, 0)`);
}

/** Outside any transaction: MySQL commits an open transaction at a CREATE TABLE. */
export function ensureEventTables(database: Database): Promise<void> {
  let done = ensured.get(database.driver);
  if (!done) {
    done = create(database);
    ensured.set(database.driver, done);
    done.catch(() => ensured.delete(database.driver));
  }
  return done;
}
