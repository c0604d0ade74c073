/**
 * The CSV export through COPY on PostgreSQL (Driver.csvCopy, dialects/postgres/postgres-copy.ts):
 * bound values reach the COPY query still bound (typed, null, with quotes and line breaks), the
 * records end CRLF with csv-stringify's quoting, an error after some rows is thrown from the
 * iteration, leaving early ends the COPY on the server, and what has no exact text is refused
 * before any connection is taken. The records go out in a few reused buffers, read off our
 * socket's one buffer, and also come whole over a plain socket of pg's own (what TLS uses). The
 * placeholder scanner on its own comes first.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CsvCopyColumn, Driver } from '../../../dialects/dialect.ts';
import { copyCsv } from '../../../dialects/postgres/postgres-copy.ts';
import { pgStream, setReadSink } from '../../../dialects/postgres/read-sink-socket.ts';
import { replacePlaceholders } from '../../../dialects/postgres/postgres-copy-sql.ts';
import { createPgDriver } from '../../../dialects/postgres/postgres-driver.ts';
import { pollUntil } from '../../support/poll.ts';
import { postgresTarget } from '../../support/vendors.ts';

const PG_URL = process.env.PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const MARKER = `copy_test_${process.pid}`;
const available = await postgresTarget.available();

describe('placeholders in the COPY query', () => {
  const marked = (text: string) => replacePlaceholders(text, (n) => `<${n}>`);

  it('replaces $n outside quoted literals and identifiers, any number of digits', () => {
    expect(marked(`SELECT "a$1", 'x $2 ''$3''' FROM t WHERE a = $1 AND b IN ($2, $12) AND "c""$4" = $13`)).toBe(
      `SELECT "a$1", 'x $2 ''$3''' FROM t WHERE a = <1> AND b IN (<2>, <12>) AND "c""$4" = <13>`,
    );
  });

  it('leaves $ inside an unquoted identifier, and refuses what it does not read exactly', () => {
    expect(marked('SELECT a$1 FROM t')).toBe('SELECT a$1 FROM t');
    for (const text of ['SELECT 1 -- $1', 'SELECT /* $1 */ 1', `SELECT E'\\' $1'`, 'SELECT $$ $1 $$', `SELECT 'open`]) expect(marked(text), text).toBeNull();
  });
});

describe('pg sockets', () => {
  it('are ours, whose reads a sink can take, except under TLS, which reads the handle itself', () => {
    const sink = { read: () => true };
    expect(setReadSink(pgStream({ ssl: false }), sink)).toBe(true);
    expect(setReadSink(pgStream(), sink)).toBe(true);
    expect(setReadSink(pgStream({ ssl: { rejectUnauthorized: false } }), sink)).toBe(false);
  });
});

describe.skipIf(!available)('PostgreSQL csvCopy', () => {
  let driver: Driver;
  beforeAll(() => {
    driver = createPgDriver({ vendor: 'postgres', url: PG_URL, poolSize: 3 });
  });
  afterAll(async () => driver?.close());

  const column = (alias: string, type: CsvCopyColumn['type']): CsvCopyColumn => ({ alias, type, emptyWhenNull: [] });

  function copy(text: string, params: unknown[], columns: CsvCopyColumn[]): AsyncIterable<Uint8Array> {
    const chunks = driver.csvCopy?.({ text, params }, columns);
    if (!chunks) throw new Error('no COPY for this statement');
    return chunks;
  }

  async function text(chunks: AsyncIterable<Uint8Array>): Promise<string> {
    const parts: Buffer[] = [];
    for await (const chunk of chunks) parts.push(Buffer.from(chunk));
    return Buffer.concat(parts).toString('utf8');
  }

  it('binds values by type, nulls included, and writes CRLF records quoted as csv-stringify quotes them', async () => {
    const statement = `SELECT g AS "c0", $1 AS "c1", $2::numeric * g AS "c2", $3::boolean AS "c3", $5::timestamptz + g * interval '1 ms' AS "c4", 'x' AS "c5"
      FROM generate_series(1, 3) AS g WHERE g >= $4 AND $6::text IS NULL ORDER BY g DESC`;
    const params = [`it's, "quoted"\r\nand \\. too`, '2.50', true, 2, '2026-11-22T10:00:00.123Z', null];
    const columns = [column('c0', 'integer'), column('c1', 'text'), column('c2', 'decimal'), column('c3', 'boolean'), column('c4', 'timestamp')];
    const quoted = `"it's, ""quoted""\r\nand \\. too"`;
    expect(await text(copy(statement, params, columns))).toBe(`3,${quoted},7.5,true,2026-11-22T10:00:00.126Z\r\n2,${quoted},5,true,2026-11-22T10:00:00.125Z\r\n`);
  });

  it('rows cut across socket chunks arrive whole and in order', async () => {
    const statement = `SELECT g AS "c0", repeat('y', g % 97) || CASE WHEN g % 5 = 0 THEN ',' || chr(10) || chr(34) ELSE '' END AS "c1" FROM generate_series(1, 200000) g ORDER BY g`;
    const expected: string[] = [];
    for (let g = 1; g <= 200_000; g++) {
      const cell = `${'y'.repeat(g % 97)}${g % 5 === 0 ? ',\n"' : ''}`;
      expected.push(`${g},${cell === '' ? '""' : g % 5 === 0 ? `"${cell.replace(/"/g, '""')}"` : cell}\r\n`);
    }
    expect(await text(copy(statement, [], [column('c0', 'integer'), column('c1', 'text')]))).toBe(expected.join(''));
  });

  it('timestamps, written longer than they came, and records longer than a read arrive whole and in order', async () => {
    // `…:30+00` (22 bytes) becomes `…:30.000Z` (24); every 10,000th record is 100 KB, more than a socket read.
    const statement = `SELECT g AS "c0", timestamptz '2021-01-01 00:00:00+00' + g * interval '30 seconds' AS "c1",
      CASE WHEN g % 10000 = 0 THEN repeat('z', 100000) ELSE 'n' END AS "c2", timestamp '2021-01-01 00:00:00' + g * interval '1.5 seconds' AS "c3"
      FROM generate_series(1, 100000) g ORDER BY g`;
    const columns = [column('c0', 'integer'), column('c1', 'timestamp'), column('c2', 'text'), column('c3', 'timestamp')];
    const start = Date.parse('2021-01-01T00:00:00Z');
    const expected = Array.from({ length: 100_000 }, (_, i) => {
      const g = i + 1;
      const c2 = g % 10_000 === 0 ? 'z'.repeat(100_000) : 'n';
      return `${g},${new Date(start + g * 30_000).toISOString()},${c2},${new Date(start + g * 1_500).toISOString()}\r\n`;
    });
    expect((await text(copy(statement, [], columns))) === expected.join('')).toBe(true);
  });

  it('goes out in a few buffers, each again once the consumer has asked for the next chunk, rows cut in their header included', async () => {
    // Short rows (5–18 bytes with the header): about one chunk in four ends inside a message header.
    const statement = `SELECT g AS "c0", repeat(chr(97 + g % 26), g % 7) AS "c1" FROM generate_series(1, 300000) g ORDER BY g`;
    const memories = new Set<ArrayBufferLike>();
    const parts: string[] = [];
    for await (const chunk of copy(statement, [], [column('c0', 'integer'), column('c1', 'text')])) {
      memories.add(chunk.buffer);
      parts.push(Buffer.from(chunk).toString('utf8'));
    }
    expect(parts.length).toBeGreaterThan(50);
    expect(memories.size).toBeLessThanOrEqual(8);
    const expected = Array.from({ length: 300_000 }, (_, i) => `${i + 1},${String.fromCharCode(97 + ((i + 1) % 26)).repeat((i + 1) % 7) || '""'}\r\n`);
    expect(parts.join('') === expected.join('')).toBe(true);
  });

  it("over a plain socket of pg's own (as under TLS) the rows come whole too", async () => {
    const pool = new pg.Pool({ connectionString: PG_URL, max: 1 });
    try {
      const statement = `SELECT g AS "c0", repeat('y', g % 97) AS "c1" FROM generate_series(1, 50000) g WHERE g > $1 ORDER BY g`;
      const chunks = copyCsv(pool, { text: statement, params: [0] }, [column('c0', 'integer'), column('c1', 'text')]);
      const expected = Array.from({ length: 50_000 }, (_, i) => `${i + 1},${'y'.repeat((i + 1) % 97) || '""'}\r\n`);
      expect(chunks && (await text(chunks)) === expected.join('')).toBe(true);
      expect((await pool.query('SELECT 3 AS three')).rows).toEqual([{ three: 3 }]);
    } finally {
      await pool.end();
    }
  });

  it('an empty result is no bytes; an empty string is "" and a null nothing', async () => {
    expect(await text(copy(`SELECT g AS "c0" FROM generate_series(1, 0) g`, [], [column('c0', 'integer')]))).toBe('');
    expect(await text(copy(`SELECT '' AS "c0", NULL::text AS "c1"`, [], [column('c0', 'text'), column('c1', 'text')]))).toBe('"",\r\n');
  });

  it('a cell whose expanded row is missing is empty', async () => {
    const columns = [column('c0', 'integer'), { alias: 'c1', type: 'text' as const, emptyWhenNull: ['k'] }];
    const statement = `SELECT g AS "c0", 'shown' AS "c1", CASE WHEN g = 2 THEN NULL ELSE g END AS "k" FROM generate_series(1, 3) g ORDER BY g`;
    expect(await text(copy(statement, [], columns))).toBe('1,shown\r\n2,\r\n3,shown\r\n');
  });

  it('an error after some rows is thrown from the iteration, and the pool goes on', async () => {
    let bytes = 0;
    const reading = (async () => {
      const chunks = copy(`SELECT g AS "c0", (10 / (g - 30000))::text AS "c1" FROM generate_series(1, 40000) g WHERE g > $1`, [0], [column('c0', 'integer'), column('c1', 'text')]);
      for await (const chunk of chunks) bytes += chunk.length;
    })();
    await expect(reading).rejects.toThrow(/division by zero/);
    expect(bytes).toBeGreaterThan(0);
    expect((await driver.query({ text: 'SELECT 1 AS one', params: [] })).rows).toEqual([{ one: 1 }]);
  });

  it('leaving early ends the COPY on the server and frees the connection', async () => {
    const statement = `SELECT g AS "c0", repeat('x', 200) AS "c1", '${MARKER}' AS "c2" FROM generate_series(1, 5000000) g WHERE g > $1`;
    const running = async (): Promise<number> =>
      Number((await driver.query({ text: `SELECT COUNT(*) AS n FROM pg_stat_activity WHERE query LIKE $1 AND query NOT LIKE '%pg_stat_activity%' AND state <> 'idle'`, params: [`%${MARKER}%`] })).rows[0]?.n);
    for (let round = 0; round < 4; round++) {
      const iterator = copy(statement, [0], [column('c0', 'integer'), column('c1', 'text'), column('c2', 'text')])[Symbol.asyncIterator]();
      expect((await iterator.next()).done).toBe(false);
      expect(await running()).toBe(1);
      await iterator.return?.();
      expect(await pollUntil(async () => (await running()) === 0, 5000)).toBe(true);
    }
    expect(driver.poolStats?.().waiting ?? 0).toBe(0);
    expect((await driver.query({ text: 'SELECT 2 AS two', params: [] })).rows).toEqual([{ two: 2 }]);
  });

  it('is null, before taking a connection, for a type without an exact text or a bytes value', async () => {
    const fresh = createPgDriver({ vendor: 'postgres', url: PG_URL, poolSize: 1 });
    try {
      expect(fresh.csvCopy?.({ text: 'SELECT 1.5::float8 AS "c0"', params: [] }, [column('c0', 'float')])).toBeNull();
      expect(fresh.csvCopy?.({ text: 'SELECT \'{}\'::jsonb AS "c0"', params: [] }, [column('c0', 'json')])).toBeNull();
      expect(fresh.csvCopy?.({ text: 'SELECT $1::bytea AS "c0"', params: [Buffer.from('x')] }, [column('c0', 'binary')])).toBeNull();
      expect(fresh.csvCopy?.({ text: 'SELECT 1 AS "c0" -- $1', params: [1] }, [column('c0', 'integer')])).toBeNull();
      expect(fresh.poolStats?.().total).toBe(0);
    } finally {
      await fresh.close();
    }
  });
});
