/**
 * A table of 40,000 rows of 300 characters each on the workspace's own database, synced into the
 * service: large enough that an export or a heavy `where` runs for seconds, and the statements
 * still reading it on the server, for tests that check a statement was stopped.
 */
import { expect } from 'vitest';
import { ADMIN_TOKEN, type TestWorkspace } from './harness.ts';

export const BIG_TABLE_ROWS = 40_000;

export async function fillBigTable(ws: TestWorkspace, name: string): Promise<void> {
  const table = ws.db.table(name);
  await ws.db.query(`CREATE TABLE ${table} (id integer PRIMARY KEY, pad varchar(400) NOT NULL)`);
  const source = ws.vendor === 'mariadb'
    ? `SELECT seq, REPEAT('x', 300) FROM seq_1_to_${BIG_TABLE_ROWS}`
    : `SELECT g, repeat('x', 300) FROM generate_series(1, ${BIG_TABLE_ROWS}) g`;
  await ws.db.query(`INSERT INTO ${table} (id, pad) ${source}`);
  const sync = await ws.call('POST', ws.admin('/sync'), { token: ADMIN_TOKEN });
  expect(sync.status, JSON.stringify(sync.body)).toBe(200);
}

/** Statements on the server (PostgreSQL or MariaDB) that read `name`, other than this look itself. */
export async function statementsReading(ws: TestWorkspace, name: string): Promise<number> {
  const rows = ws.vendor === 'mariadb'
    ? await ws.db.query(`SELECT COUNT(*) AS n FROM information_schema.PROCESSLIST WHERE INFO LIKE '%${name}%' AND INFO NOT LIKE '%PROCESSLIST%'`)
    : await ws.db.query(`SELECT COUNT(*) AS n FROM pg_stat_activity WHERE query LIKE '%${name}%' AND query NOT LIKE '%pg_stat_activity%' AND state <> 'idle'`);
  return Number(rows[0]?.n ?? 0);
}
