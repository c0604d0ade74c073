/** Values through the driver and back to wire JSON, sessions, transactions and pool behaviour. */
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ident, sql } from '../../../core/sql.ts';
import type { ColumnType } from '../../../core/schema/introspection.ts';
import { toWireValue } from '../../../core/schema/values.ts';
import { dialect, mysqlAvailable, openTestDatabase, type TestDatabase } from './mysql-setup.ts';

const available = await mysqlAvailable();

const COLUMNS: [string, ColumnType][] = [
  ['id', 'integer'],
  ['dec', 'decimal'],
  ['big', 'bigint'],
  ['flag', 'boolean'],
  ['day', 'date'],
  ['at', 'timestamp'],
  ['ts', 'timestamp'],
  ['txt', 'text'],
  ['ratio', 'float'],
  ['doc', 'json'],
  ['clock', 'time'],
  ['raw', 'binary'],
];

describe.skipIf(!available)('mysql driver values', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await openTestDatabase(false);
    await db.query(`CREATE TABLE vals (id int NOT NULL AUTO_INCREMENT PRIMARY KEY, \`dec\` decimal(30,4) NULL, big bigint NULL,
      flag tinyint(1) NULL, day date NULL, at datetime(3) NULL, ts timestamp(3) NULL, txt varchar(50) NULL, ratio double NULL,
      doc json NULL, clock time NULL, raw varbinary(8) NULL) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4`);
  });
  afterAll(async () => db?.close());

  async function roundTrip(values: Record<string, unknown>): Promise<Record<string, unknown>> {
    const columns = COLUMNS.filter(([name]) => name in values);
    const row = columns.map(([name, type]) => dialect.sql.encodeValue(type, values[name]));
    const [id] = await dialect.bind({ vendor: 'mysql' }).insert(db.driver, { table: 'vals', columns: columns.map(([c]) => c), rows: [row], returning: 'id' });
    const select = sql`SELECT * FROM ${ident('vals')} WHERE ${ident('id')} = ${id}`;
    const read = (await db.run(select)).rows[0] ?? {};
    return Object.fromEntries(COLUMNS.filter(([name]) => name in values || name === 'id').map(([name, type]) => [name, toWireValue(type, read[name], dialect.capabilities.jsonArrivesAsText)]));
  }

  it('round-trips exact decimals, bigints beyond 2^53, booleans and dates', async () => {
    const wire = await roundTrip({ dec: '12345678901234567890.1234', big: '9223372036854775807', flag: true, day: '2026-02-28' });
    expect(wire).toMatchObject({ dec: 12345678901234567890.1234, big: '9223372036854775807', flag: true, day: '2026-02-28' });
    const read = (await db.query('SELECT CAST(`dec` AS CHAR) AS d, CAST(big AS CHAR) AS b FROM vals WHERE id = ?', [wire.id]))[0];
    expect(read).toEqual({ d: '12345678901234567890.1234', b: '9223372036854775807' });
    expect(await roundTrip({ big: '-9007199254740993', flag: false })).toMatchObject({ big: '-9007199254740993', flag: false });
    expect(await roundTrip({ big: 42 })).toMatchObject({ big: 42 });
  });

  it('hands decimals and bigints to core as strings, never as lossy numbers', async () => {
    const rows = (await db.run(sql`SELECT CAST('0.1000' AS DECIMAL(10,4)) AS d, CAST(9007199254740993 AS SIGNED) AS b, 7 AS i`)).rows;
    expect(rows[0]).toEqual({ d: '0.1000', b: '9007199254740993', i: 7 });
  });

  it('stores and reads timestamps with milliseconds in UTC', async () => {
    const wire = await roundTrip({ at: '2026-11-22T10:00:00.123Z', ts: '2026-11-22T12:30:45.678+02:00' });
    expect(wire).toMatchObject({ at: '2026-11-22T10:00:00.123Z', ts: '2026-11-22T10:30:45.678Z' });
    const text = (await db.query('SELECT CAST(at AS CHAR) AS at FROM vals WHERE id = ?', [wire.id]))[0];
    expect(text?.at).toBe('2026-11-22 10:00:00.123');
  });

  it('round-trips dates and timestamps of years before 100 and after 9000', async () => {
    const early = await roundTrip({ day: '0001-01-01', at: '0001-01-01T00:00:00.000Z' });
    expect(early).toMatchObject({ day: '0001-01-01', at: '0001-01-01T00:00:00.000Z' });
    const late = await roundTrip({ day: '9999-12-31', at: '9999-12-31T23:59:59.999Z' });
    expect(late).toMatchObject({ day: '9999-12-31', at: '9999-12-31T23:59:59.999Z' });
    expect(await roundTrip({ at: '0099-06-15T12:00:00.000Z' })).toMatchObject({ at: '0099-06-15T12:00:00.000Z' });
  });

  it('reads TIMESTAMP columns in UTC whatever the session default of the server', async () => {
    const wire = await roundTrip({ ts: '2026-01-01T00:00:00.500Z' });
    // A client whose session runs at +05:00 sees the same instant as local text.
    const other = await mysql.createConnection({ uri: db.url, dateStrings: true });
    await other.query("SET time_zone = '+05:00'");
    const [rows] = await other.query('SELECT ts FROM vals WHERE id = ?', [wire.id]);
    await other.end();
    expect((rows as { ts: string }[])[0]?.ts).toBe('2026-01-01 05:00:00.500');
    expect((await db.run(sql`SELECT @@session.time_zone AS tz`)).rows[0]?.tz).toBe('+00:00');
  });

  it('round-trips unicode text, emoji included', async () => {
    const text = 'Zoë Ωmega 東京 🚀👩‍💻';
    expect(await roundTrip({ txt: text })).toMatchObject({ txt: text });
  });

  it('round-trips json values, floats, times and binary', async () => {
    const doc = { a: [1, 'two', null], b: { c: true }, s: '123' };
    const wire = await roundTrip({ doc, ratio: 0.1, clock: '13:45:10', raw: Buffer.from([0, 1, 255]) });
    expect(wire).toMatchObject({ doc, ratio: 0.1, clock: '13:45:10', raw: 'AAH/' });
    expect(await roundTrip({ doc: '123' })).toMatchObject({ doc: '123' });
  });

  it('reads NULLs as null', async () => {
    const wire = await roundTrip({ dec: null, big: null, flag: null, day: null, at: null, txt: null, doc: null });
    expect(Object.values(wire).filter((v) => v !== null)).toHaveLength(1);
  });

  it('counts matched rows for an UPDATE that changes nothing', async () => {
    const wire = await roundTrip({ txt: 'same' });
    const update = dialect.sql.updateStatement(dialect.bind({ vendor: 'mysql' }).tableRef('vals'), 't0', sql`${ident('txt')} = ${'same'}`, sql`${ident('t0', 'id')} = ${wire.id}`);
    expect((await db.run(update)).affectedRows).toBe(1);
    const none = dialect.sql.updateStatement(dialect.bind({ vendor: 'mysql' }).tableRef('vals'), 't0', sql`${ident('txt')} = ${'x'}`, sql`${ident('t0', 'id')} = ${-1}`);
    expect((await db.run(none)).affectedRows).toBe(0);
  });

  it('deletes through the alias and counts the rows', async () => {
    const wire = await roundTrip({ txt: 'gone' });
    const del = dialect.sql.deleteStatement(dialect.bind({ vendor: 'mysql' }).tableRef('vals'), 't0', sql`${ident('t0', 'id')} = ${wire.id}`);
    expect((await db.run(del)).affectedRows).toBe(1);
    expect((await db.run(del)).affectedRows).toBe(0);
  });

  it('runs a transaction on one connection: commits on success, rolls back on throw', async () => {
    const connectionIds = await db.driver.transaction(async (tx) => {
      const a = await tx.query({ text: 'SELECT CONNECTION_ID() AS c', params: [] });
      await tx.query({ text: "INSERT INTO vals (txt) VALUES ('committed')", params: [] });
      const b = await tx.query({ text: 'SELECT CONNECTION_ID() AS c', params: [] });
      return [a.rows[0]?.c, b.rows[0]?.c];
    });
    expect(connectionIds[0]).toBe(connectionIds[1]);
    await expect(
      db.driver.transaction(async (tx) => {
        await tx.query({ text: "INSERT INTO vals (txt) VALUES ('rolled back')", params: [] });
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    const rows = await db.query("SELECT txt FROM vals WHERE txt IN ('committed', 'rolled back')");
    expect(rows).toEqual([{ txt: 'committed' }]);
  });

  it('pings, runs statements the prepared protocol refuses, and runs many statements on a small pool', async () => {
    await db.driver.ping();
    expect((await db.driver.query({ text: 'SHOW TABLES', params: [] })).rows.length).toBeGreaterThan(0);
    const results = await Promise.all(Array.from({ length: 30 }, (_, i) => db.run(sql`SELECT ${i} + 1 AS n`)));
    expect(results.map((r) => Number(r.rows[0]?.n))).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
  });

  it('keeps backslash escapes and strict mode in every session', async () => {
    const mode = String((await db.run(sql`SELECT @@session.sql_mode AS m`)).rows[0]?.m);
    expect(mode).toMatch(/STRICT_/);
    expect(mode).not.toMatch(/NO_BACKSLASH_ESCAPES/);
  });
});
