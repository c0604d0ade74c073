/**
 * The embedded PGlite in its worker thread (dialects/postgres/pglite-worker.ts), what `npm start`
 * runs: errors keep their SQLSTATE and the fields the dialect maps, a transaction has the one
 * session to itself and gives it back however it ends, values cross the thread as the in-process
 * driver returns them, and close ends the thread.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Driver } from '../../../dialects/dialect.ts';
import { createEmbeddedDriver, EmbeddedDatabase } from '../../../dialects/postgres/index.ts';
import { mapPostgresError } from '../../../dialects/postgres/postgres-errors.ts';
import { startWorkspace, type TestWorkspace } from '../../support/harness.ts';
import { expectError } from '../../support/http-expect.ts';
import { pgliteTarget } from '../../support/vendors.ts';

const sql = (text: string, params: unknown[] = []) => ({ text, params });

async function failure(run: Promise<unknown>): Promise<unknown> {
  try {
    await run;
  } catch (error) {
    return error;
  }
  throw new Error('expected a failure');
}

describe('the embedded database in a worker thread', () => {
  const embedded = new EmbeddedDatabase(undefined, 'worker');
  const db: Driver = createEmbeddedDriver(embedded);
  const count = async (): Promise<number> => Number((await db.query(sql('SELECT count(*)::int AS n FROM item'))).rows[0]?.n);

  beforeAll(async () => {
    await embedded.exec(`CREATE TABLE item (id int PRIMARY KEY, code text UNIQUE, n int NOT NULL DEFAULT 0)`);
  });
  afterAll(() => embedded.close());

  it('keeps the SQLSTATE, constraint and message of an error raised in the thread', async () => {
    await db.query(sql(`INSERT INTO item (id, code) VALUES (1, 'a')`));
    const error = await failure(db.query(sql(`INSERT INTO item (id, code) VALUES ($1, $2)`, [2, 'a'])));
    expect(error).toMatchObject({ code: '23505', constraint: 'item_code_key', message: 'duplicate key value violates unique constraint "item_code_key"' });
    expect(mapPostgresError(error)).toEqual({ kind: 'unique_violation', constraint: 'item_code_key' });
    expect(mapPostgresError(await failure(db.query(sql(`INSERT INTO item (id, n) VALUES (3, NULL)`))))).toEqual({ kind: 'not_null_violation', column: 'n' });
    await db.query(sql('DELETE FROM item'));
  });

  it('rolls back a transaction whose work throws, and gives the session back', async () => {
    const thrown = await failure(
      db.transaction(async (tx) => {
        await tx.query(sql(`INSERT INTO item (id, code) VALUES (10, 'x')`));
        throw new Error('the work failed');
      }),
    );
    expect(thrown).toMatchObject({ message: 'the work failed' });
    expect(await count()).toBe(0);
    // A statement that fails inside the transaction: rolled back too, and the session is usable
    // (not left in an aborted transaction, SQLSTATE 25P02).
    const violation = await failure(
      db.transaction(async (tx) => {
        await tx.query(sql(`INSERT INTO item (id, code) VALUES (11, 'y')`));
        await tx.query(sql(`INSERT INTO item (id, code) VALUES (12, 'y')`));
      }),
    );
    expect(mapPostgresError(violation)?.kind).toBe('unique_violation');
    expect(await count()).toBe(0);
    await db.transaction(async (tx) => void (await tx.query(sql(`INSERT INTO item (id, code) VALUES (13, 'z')`))));
    expect(await count()).toBe(1);
    await db.query(sql('DELETE FROM item'));
  });

  it('runs a statement asked for during a transaction after it, not inside it', async () => {
    let outside: Promise<number> | undefined;
    await failure(
      db.transaction(async (tx) => {
        await tx.query(sql(`INSERT INTO item (id, code) VALUES (20, 'inside')`));
        outside = count();
        // Give the outside statement every chance to reach the thread before the rollback.
        await new Promise((resolve) => setTimeout(resolve, 50));
        throw new Error('roll back');
      }),
    );
    // Inside the transaction it would have counted the uncommitted row.
    expect(await outside).toBe(0);
  });

  it('fails a statement whose parameter cannot cross the thread, and goes on serving', async () => {
    expect(await failure(db.query(sql('SELECT $1::text AS v', [() => 'a function'])))).toMatchObject({ name: 'DataCloneError' });
    expect((await db.query(sql('SELECT $1::text AS v', ['next']))).rows).toEqual([{ v: 'next' }]);
  });

  it('returns values as the in-process driver does', async () => {
    const text = `SELECT 1::int AS i, 9007199254740993::int8 AS big, 1.50::numeric AS num, true AS b,
      '2024-05-06 07:08:09.123456+00'::timestamptz AS at, '2024-05-06'::date AS d, '{"a":[1,null]}'::jsonb AS j,
      '\\x0102ff'::bytea AS bytes, ARRAY['2024-05-06 07:08:09+00'::timestamptz] AS ats, NULL::text AS nothing, $1::text AS param`;
    const inProcess = new EmbeddedDatabase(undefined, 'in-process');
    try {
      const expected = await createEmbeddedDriver(inProcess).query(sql(text, ['bound']));
      const got = await db.query(sql(text, ['bound']));
      expect(got).toEqual(expected);
      expect(got.rows[0]).toMatchObject({ big: '9007199254740993', at: '2024-05-06T07:08:09.123Z', bytes: new Uint8Array([1, 2, 255]), param: 'bound' });
    } finally {
      await inProcess.close();
    }
  });
});

describe('closing the embedded database in a worker thread', () => {
  it('ends the thread; a later statement fails as a lost connection', async () => {
    const embedded = new EmbeddedDatabase(undefined, 'worker');
    const db = createEmbeddedDriver(embedded);
    await db.ping();
    await Promise.all([embedded.close(), embedded.close()]);
    expect(mapPostgresError(await failure(db.query(sql('SELECT 1'))))?.kind).toBe('connection_lost');
  });
});

describe('a service whose embedded database runs in a worker thread', () => {
  let ws: TestWorkspace;
  beforeAll(async () => {
    ws = await startWorkspace(pgliteTarget, { embeddedThread: 'worker' });
  });
  afterAll(async () => ws?.close());

  it('answers a unique violation with 409 CONFLICT naming the field', async () => {
    const duplicate = await ws.call('POST', ws.records('/customers'), { body: { name: 'Dup', email: 'user1@example.com' } });
    expectError(duplicate, 409, 'CONFLICT', 'email');
  });
});
