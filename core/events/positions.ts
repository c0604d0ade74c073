/**
 * Positions in commit order (docs/change-events.md, "Positions"). An event is inserted with no
 * position inside its write's transaction; after commits, one assigner at a time (the lock on the
 * single `wdapi_event_positions` row) numbers the committed events that have none, all above the
 * last position it gave. Every position therefore appears after every smaller one: a reader that
 * has seen position p and asks for `> p` never misses an event committed later. Rows still
 * uncommitted are invisible to it (PostgreSQL) or waited for (InnoDB's locking UPDATE); either way
 * they get their numbers in a later round, above everything given before.
 */
import type { Database, Executor } from '../../dialects/dialect.ts';
import { render, sql, type Sql } from '../sql.ts';
import { eventsTable, positionsTable } from './tables.ts';

function run(database: Database, tx: Executor, statement: Sql) {
  return tx.query(render(statement, database.dialect.sql));
}

async function assignIn(database: Database, tx: Executor): Promise<void> {
  const events = eventsTable(database);
  const positions = positionsTable(database);
  // The lock first: every read below then sees what committed before this assigner got its turn.
  await run(database, tx, sql`UPDATE ${positions} SET last_position = last_position WHERE id = 1`);
  const { rows } = await run(database, tx, sql`SELECT p.last_position AS last_position,
    (SELECT MIN(e.seq) FROM ${events} e WHERE e.event_position IS NULL) AS lo,
    (SELECT MAX(e.seq) FROM ${events} e WHERE e.event_position IS NULL) AS hi
    FROM ${positions} p WHERE p.id = 1`);
  const row = rows[0];
  if (!row || row.lo === null || row.lo === undefined) return;
  const last = Number(row.last_position);
  const lo = Number(row.lo);
  const hi = Number(row.hi);
  // seq - lo + last + 1: distinct per event, all above `last`, in arrival order within the round
  // (so one record's events keep their commit order: a second writer of a row waits for the first's commit).
  const offset = last + 1 - lo;
  await run(database, tx, sql`UPDATE ${events} SET event_position = seq + ${offset}
    WHERE event_position IS NULL AND seq >= ${lo} AND seq <= ${hi}`);
  await run(database, tx, sql`UPDATE ${positions} SET last_position = ${hi + offset} WHERE id = 1`);
}

/** Gives every committed event without a position its position. Safe to run from anywhere at any time. */
export function assignPositions(database: Database): Promise<void> {
  return database.driver.transaction((tx) => assignIn(database, tx));
}
