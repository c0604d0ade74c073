/**
 * The PostgreSQL export stream (dialects/postgres/postgres-stream.ts, docs/dialects.md "Streaming
 * reads"): one execution read off the connection in batches, the socket paused while a batch waits.
 * Batches are whole and in order, values as `query` gives them, an error after some rows is thrown
 * from the iteration, and leaving early ends the statement and gives the pool its slot back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPgDriver } from '../../../dialects/postgres/postgres-driver.ts';
import type { Driver } from '../../../dialects/dialect.ts';
import { pollUntil } from '../../support/poll.ts';

const PG_URL = process.env.PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** A marker in the statement text, so pg_stat_activity finds this test's statement only. */
const MARKER = `stream_test_${process.pid}`;

describe('PostgreSQL export stream', () => {
  let driver: Driver;
  beforeAll(() => {
    driver = createPgDriver({ vendor: 'postgres', url: PG_URL, poolSize: 3 });
  });
  afterAll(async () => driver?.close());

  const stream = (text: string, params: unknown[], batchRows: number) => {
    if (!driver.stream) throw new Error('the pg driver has no stream');
    return driver.stream({ text, params }, batchRows);
  };

  it('gives every row once, in order, in whole batches, with the values query gives', async () => {
    const text = `SELECT g AS n, g::numeric / 4 AS d, timestamptz '2026-11-22 10:00:00.123456+00' + g * interval '1 second' AS t FROM generate_series(1, $1::int) g ORDER BY g`;
    const sizes: number[] = [];
    const rows: Record<string, unknown>[] = [];
    for await (const batch of stream(text, [2_345], 100)) {
      sizes.push(batch.length);
      rows.push(...batch);
    }
    expect(sizes.slice(0, -1).every((size) => size === 100)).toBe(true);
    expect(sizes.at(-1)).toBe(45);
    expect(rows).toEqual((await driver.query({ text, params: [2_345] })).rows);
  });

  it('an error after some rows is thrown from the iteration, after the rows before it', async () => {
    let seen = 0;
    const reading = (async () => {
      for await (const batch of stream(`SELECT 1 / (g - 30000) AS x FROM generate_series(1, 40000) g`, [], 100)) seen += batch.length;
    })();
    await expect(reading).rejects.toThrow(/division by zero/);
    // Rows 1–29,999 arrived before the error: their whole batches were handed over, the partial one dropped.
    expect(seen).toBe(29_900);
    expect((await driver.query({ text: 'SELECT 1 AS one', params: [] })).rows).toEqual([{ one: 1 }]);
  });

  it('leaving early ends the statement on the server and frees the connection', async () => {
    const text = `SELECT g AS n, repeat('x', 200) AS pad, '${MARKER}' AS marker FROM generate_series(1, 2000000) g`;
    const running = async (): Promise<number> =>
      Number((await driver.query({ text: `SELECT COUNT(*) AS n FROM pg_stat_activity WHERE query LIKE $1 AND query NOT LIKE '%pg_stat_activity%' AND state <> 'idle'`, params: [`%${MARKER}%`] })).rows[0]?.n);
    for (let round = 0; round < 4; round++) {
      const iterator = stream(text, [], 250)[Symbol.asyncIterator]();
      const first = await iterator.next();
      expect(first.value).toHaveLength(250);
      // Backpressure holds the statement open on the server while the batch is not taken.
      expect(await running()).toBe(1);
      await iterator.return?.();
      expect(await pollUntil(async () => (await running()) === 0, 5000)).toBe(true);
    }
    // Four abandoned streams on a pool of three: each gave its slot back.
    expect(driver.poolStats?.().waiting ?? 0).toBe(0);
    expect((await driver.query({ text: 'SELECT 2 AS two', params: [] })).rows).toEqual([{ two: 2 }]);
  });
});
