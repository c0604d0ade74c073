/** Inserts returning ids and upserts with their counts, on a real server. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ident, render, sql } from '../../../core/sql.ts';
import type { UpsertStatement } from '../../../dialects/dialect.ts';
import type { MysqlServerInfo } from '../../../dialects/mysql/index.ts';
import { renderMysqlUpsert, runInsert, upsertOutcome } from '../../../dialects/mysql/mysql-upsert.ts';
import { dialect, mysqlAvailable, openTestDatabase, type TestDatabase } from './mysql-setup.ts';

const available = await mysqlAvailable();
const config = { vendor: 'mysql' };

describe('mysql upsert rendering and counting (no database)', () => {
  const statement: UpsertStatement = {
    table: 'items', columns: ['code', 'v'], rows: [['a', 1], ['b', 2]], returning: 'id',
    conflictColumns: ['code'], action: 'UPDATE', updateColumns: ['v'], columnTypes: ['text', 'integer'],
  };
  const text = (s: UpsertStatement, alias: boolean) => render(renderMysqlUpsert(ident('items'), s, alias), dialect.sql).text;

  it('uses VALUES(col) on MariaDB and the row alias on MySQL 8.0.19+', () => {
    expect(text(statement, false)).toBe('INSERT INTO `items` (`code`, `v`) VALUES (?, ?), (?, ?) ON DUPLICATE KEY UPDATE `v` = VALUES(`v`)');
    expect(text(statement, true)).toBe('INSERT INTO `items` (`code`, `v`) VALUES (?, ?), (?, ?) AS `new_row` ON DUPLICATE KEY UPDATE `v` = `new_row`.`v`');
  });

  it('never emits INSERT IGNORE: IGNORE sets the first conflict column to itself', () => {
    expect(text({ ...statement, action: 'IGNORE' }, false)).toBe('INSERT INTO `items` (`code`, `v`) VALUES (?, ?), (?, ?) ON DUPLICATE KEY UPDATE `code` = `code`');
    expect(text({ ...statement, action: 'ERROR' }, false)).toBe('INSERT INTO `items` (`code`, `v`) VALUES (?, ?), (?, ?)');
    expect(text({ ...statement, updateColumns: [] }, false)).toMatch(/UPDATE `code` = VALUES\(`code`\)$/);
  });

  it('derives inserted, updated and ignored from affected rows and the info text', () => {
    // 2 inserted (1 each), 1 changed (2), 1 unchanged (0): Duplicates counts changed rows.
    expect(upsertOutcome('UPDATE', 4, 4, 'Records: 4  Duplicates: 1  Warnings: 0')).toEqual({ inserted: 2, updated: 2, ignored: 0 });
    expect(upsertOutcome('IGNORE', 3, 1, 'Records: 3  Duplicates: 0  Warnings: 0')).toEqual({ inserted: 1, updated: 0, ignored: 2 });
    expect(upsertOutcome('UPDATE', 1, 2, '')).toEqual({ inserted: 0, updated: 1, ignored: 0 });
    expect(upsertOutcome('UPDATE', 1, 1, '')).toEqual({ inserted: 1, updated: 0, ignored: 0 });
    expect(upsertOutcome('UPDATE', 1, 0, '')).toEqual({ inserted: 0, updated: 1, ignored: 0 });
    expect(upsertOutcome('ERROR', 3, 3, 'Records: 3  Duplicates: 0  Warnings: 0')).toEqual({ inserted: 3, updated: 0, ignored: 0 });
  });
});

describe.skipIf(!available)('mysql inserts and upserts', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await openTestDatabase(false);
    await db.query(`CREATE TABLE items (id int NOT NULL AUTO_INCREMENT PRIMARY KEY, code varchar(10) NOT NULL, alt varchar(10) NULL,
      v int NULL, UNIQUE KEY items_code_key (code), UNIQUE KEY items_alt_key (alt)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4`);
    await db.query(`CREATE TABLE natural_keys (code varchar(10) NOT NULL PRIMARY KEY, v int NULL) ENGINE=InnoDB`);
    await db.query(`CREATE TABLE uuid_keys (id uuid NOT NULL DEFAULT UUID() PRIMARY KEY, v int NULL) ENGINE=InnoDB`);
    await db.query(`CREATE TABLE big_keys (id bigint NOT NULL AUTO_INCREMENT PRIMARY KEY, v int NULL) ENGINE=InnoDB AUTO_INCREMENT=9007199254740990`);
  });
  beforeEach(async () => {
    await db.query('DELETE FROM items');
    await db.query("INSERT INTO items (id, code, alt, v) VALUES (1, 'a', 'x', 1), (2, 'b', 'y', 2), (3, 'c', NULL, 3)");
  });
  afterAll(async () => db?.close());

  const items = async () => db.query('SELECT id, code, alt, v FROM items ORDER BY id');
  const upsert = (rows: unknown[][], action: UpsertStatement['action'], updateColumns = ['v'], columns = ['code', 'v']) =>
    dialect.bind(config).upsert(db.driver, { table: 'items', columns, rows, returning: 'id', conflictColumns: ['code'], action, updateColumns, columnTypes: columns.map(() => 'text') });

  it('returns consecutive AUTO_INCREMENT ids of a multi-row insert, in row order', async () => {
    const ids = await dialect.bind(config).insert(db.driver, { table: 'items', columns: ['code', 'v'], rows: [['n1', 1], ['n2', 2], ['n3', 3]], returning: 'id' });
    const rows = await db.query("SELECT id, code FROM items WHERE code LIKE 'n%' ORDER BY id");
    expect(ids).toEqual(rows.map((r) => r.id));
    expect(rows.map((r) => r.code)).toEqual(['n1', 'n2', 'n3']);
  });

  it('returns the insertId-derived ids on servers without RETURNING (MySQL)', async () => {
    const mysql8: MysqlServerInfo = { version: '8.0.36', mariadb: false, versionNumbers: [8, 0, 36], autoIncrementIncrement: 1 };
    const renderSql = (fragment: Parameters<typeof render>[0]) => render(fragment, dialect.sql);
    const ids = await runInsert(db.driver, renderSql, ident('items'), { table: 'items', columns: ['code'], rows: [['m1'], ['m2']], returning: 'id' }, mysql8);
    const rows = await db.query("SELECT id FROM items WHERE code IN ('m1', 'm2') ORDER BY code");
    expect(ids).toEqual(rows.map((r) => r.id));
    const big = await runInsert(db.driver, renderSql, ident('big_keys'), { table: 'big_keys', columns: ['v'], rows: [[1], [2], [3], [4]], returning: 'id' }, mysql8);
    expect(big).toEqual([9007199254740990, 9007199254740991, '9007199254740992', '9007199254740993']);
  });

  it('returns the provided key values, and handles rows mixing given and generated keys', async () => {
    expect(await dialect.bind(config).insert(db.driver, { table: 'natural_keys', columns: ['code', 'v'], rows: [['k1', 1], ['k2', 2]], returning: 'code' })).toEqual(['k1', 'k2']);
    const ids = await dialect.bind(config).insert(db.driver, { table: 'items', columns: ['id', 'code'], rows: [[100, 'p1'], [null, 'p2'], [200, 'p3']], returning: 'id' });
    const rows = await db.query("SELECT id FROM items WHERE code IN ('p1', 'p2', 'p3') ORDER BY code");
    expect(ids).toEqual(rows.map((r) => r.id));
    expect(ids[0]).toBe(100);
    expect(ids[2]).toBe(200);
  });

  it('reads back keys filled by a non-AUTO_INCREMENT default (MariaDB RETURNING)', async () => {
    const ids = await dialect.bind(config).insert(db.driver, { table: 'uuid_keys', columns: ['v'], rows: [[1], [2]], returning: 'id' });
    const rows = await db.query('SELECT id, v FROM uuid_keys ORDER BY v');
    expect(ids).toEqual(rows.map((r) => r.id));
    expect(String(ids[0])).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('ERROR inserts every row, and a collision fails the whole statement as a unique violation', async () => {
    expect(await upsert([['d', 4], ['e', 5]], 'ERROR')).toEqual({ inserted: 2, updated: 0, ignored: 0 });
    const failure = await upsert([['f', 6], ['a', 9]], 'ERROR').catch((e: unknown) => e);
    expect(dialect.errors(failure)).toEqual({ kind: 'unique_violation', constraint: 'items_code_key' });
    expect((await items()).map((r) => r.code)).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it('IGNORE inserts new rows and leaves existing ones untouched', async () => {
    expect(await upsert([['a', 10], ['d', 4], ['b', 20], ['e', 5]], 'IGNORE')).toEqual({ inserted: 2, updated: 0, ignored: 2 });
    expect((await items()).map((r) => [r.code, r.v])).toEqual([['a', 1], ['b', 2], ['c', 3], ['d', 4], ['e', 5]]);
    expect(await upsert([['a', 10]], 'IGNORE')).toEqual({ inserted: 0, updated: 0, ignored: 1 });
    expect(await upsert([['z', 10]], 'IGNORE')).toEqual({ inserted: 1, updated: 0, ignored: 0 });
  });

  it('IGNORE still fails on errors other than a duplicate (no INSERT IGNORE)', async () => {
    const failure = await upsert([['a', 1], ['way-too-long-code', 2]], 'IGNORE').catch((e: unknown) => e);
    expect(dialect.errors(failure)).toMatchObject({ kind: 'invalid_value', column: 'code' });
    expect(await items()).toHaveLength(3);
  });

  it('UPDATE counts inserted, changed and unchanged rows (unchanged count as updated)', async () => {
    expect(await upsert([['a', 10], ['b', 2], ['d', 4], ['e', 5]], 'UPDATE')).toEqual({ inserted: 2, updated: 2, ignored: 0 });
    expect((await items()).map((r) => [r.code, r.v])).toEqual([['a', 10], ['b', 2], ['c', 3], ['d', 4], ['e', 5]]);
    expect(await upsert([['a', 11]], 'UPDATE')).toEqual({ inserted: 0, updated: 1, ignored: 0 });
    expect(await upsert([['a', 11]], 'UPDATE')).toEqual({ inserted: 0, updated: 1, ignored: 0 });
    expect(await upsert([['f', 6]], 'UPDATE')).toEqual({ inserted: 1, updated: 0, ignored: 0 });
    expect(await upsert([['a', 12], ['b', 22], ['c', 33]], 'UPDATE')).toEqual({ inserted: 0, updated: 3, ignored: 0 });
  });

  it('UPDATE with nothing to overwrite still counts matched rows as updated', async () => {
    expect(await upsert([['a', 99], ['g', 7]], 'UPDATE', [])).toEqual({ inserted: 1, updated: 1, ignored: 0 });
    expect((await items()).find((r) => r.code === 'a')?.v).toBe(1);
  });

  it('matches through a second unique key too (the vendor rule core warns about)', async () => {
    // 'q' is new on code, but alt 'x' belongs to row a: the row updates a instead of inserting.
    const outcome = await upsert([['q', 50, 'x']], 'UPDATE', ['v'], ['code', 'v', 'alt']);
    expect(outcome).toEqual({ inserted: 0, updated: 1, ignored: 0 });
    expect((await items()).map((r) => [r.code, r.alt, r.v])).toEqual([['a', 'x', 50], ['b', 'y', 2], ['c', null, 3]]);
    expect(dialect.capabilities.upsertMatchesAnyUniqueKey).toBe(true);
  });

  it('runs upserts inside a transaction and rolls them back with it', async () => {
    await expect(
      db.driver.transaction(async (tx) => {
        const outcome = await dialect.bind(config).upsert(tx, { table: 'items', columns: ['code', 'v'], rows: [['t1', 1], ['a', 5]], returning: 'id', conflictColumns: ['code'], action: 'UPDATE', updateColumns: ['v'], columnTypes: ['text', 'integer'] });
        expect(outcome).toEqual({ inserted: 1, updated: 1, ignored: 0 });
        throw new Error('undo');
      }),
    ).rejects.toThrow('undo');
    expect((await items()).map((r) => [r.code, r.v])).toEqual([['a', 1], ['b', 2], ['c', 3]]);
  });

  it('estimates rows with EXPLAIN', async () => {
    await db.query("INSERT INTO items (code) WITH RECURSIVE s (n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < 500) SELECT CONCAT('e', n) FROM s");
    await db.query('ANALYZE TABLE items');
    const select = render(sql`SELECT 1 FROM ${ident('items')} ${ident('t0')}`, dialect.sql);
    const estimate = await dialect.bind(config).estimateRows(db.driver, select, 'items');
    expect(estimate).toBeGreaterThan(300);
    expect(estimate).toBeLessThan(1000);
  });
});
