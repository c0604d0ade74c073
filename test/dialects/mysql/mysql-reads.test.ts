/** LIKE escaping and case sensitivity, NULL ordering and paging, rendered by the dialect. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ident, join, render, sql, type Sql } from '../../../core/sql.ts';
import { escapeLike } from '../../../core/query/filter-values.ts';
import { dialect, mysqlAvailable, openTestDatabase, type TestDatabase } from './mysql-setup.ts';

const available = await mysqlAvailable();
const config = { vendor: 'mysql' };

describe('mysql rendering (no database)', () => {
  it('quotes identifiers with backticks, doubling embedded ones, and binds with ?', () => {
    expect(dialect.sql.quoteIdent('we`ird')).toBe('`we``ird`');
    expect(render(sql`SELECT ${ident('t0', 'a b')} FROM ${dialect.bind(config).tableRef('orders')} WHERE x = ${1} AND y = ${2}`, dialect.sql)).toEqual({
      text: 'SELECT `t0`.`a b` FROM `orders` WHERE x = ? AND y = ?',
      params: [1, 2],
    });
    expect(render(dialect.bind({ vendor: 'mysql', schema: 'shop' }).tableRef('orders'), dialect.sql).text).toBe('`shop`.`orders`');
  });

  it('emits ESCAPE with one backslash in SQL text and NULL ordering explicitly', () => {
    expect(render(dialect.sql.like(ident('c'), sql`${'a%'}`, false), dialect.sql).text).toBe("CAST(`c` AS CHAR CHARACTER SET utf8mb4) COLLATE utf8mb4_bin LIKE ? ESCAPE '\\\\'");
    expect(render(dialect.sql.orderTerm(sql`(${ident('c')} + ${1})`, 'desc', true), dialect.sql)).toEqual({ text: '(`c` + ?) IS NOT NULL, (`c` + ?) DESC', params: [1, 1] });
    // NOT NULL: no leading "is null" term, which would make every sort a filesort.
    expect(render(dialect.sql.orderTerm(ident('t0', 'id'), 'asc', false), dialect.sql).text).toBe('`t0`.`id` ASC');
    expect(render(dialect.sql.orderTerm(ident('t0', 'id'), 'desc', false), dialect.sql).text).toBe('`t0`.`id` DESC');
  });

  it('encodes values for binding', () => {
    expect(dialect.sql.encodeValue('timestamp', '2026-11-22T10:00:00.000Z')).toBe('2026-11-22 10:00:00.000');
    expect(dialect.sql.encodeValue('timestamp', '2026-11-22T12:00:00.5+02:00')).toBe('2026-11-22 10:00:00.500');
    expect(dialect.sql.encodeValue('timestamp', new Date(Date.UTC(2026, 0, 2, 3, 4, 5, 6)))).toBe('2026-01-02 03:04:05.006');
    expect(dialect.sql.encodeValue('boolean', true)).toBe(1);
    expect(dialect.sql.encodeValue('boolean', false)).toBe(0);
    expect(dialect.sql.encodeValue('json', { a: [1] })).toBe('{"a":[1]}');
    expect(dialect.sql.encodeValue('json', 'text')).toBe('"text"');
    expect(dialect.sql.encodeValue('date', '2026-02-03')).toBe('2026-02-03');
    expect(dialect.sql.encodeValue('bigint', '9007199254740993')).toBe('9007199254740993');
    expect(dialect.sql.encodeValue('text', null)).toBeNull();
  });
});

describe.skipIf(!available)('mysql reads', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await openTestDatabase();
  });
  afterAll(async () => db?.close());

  async function customerIds(where: Sql, order: Sql = sql`${ident('t0', 'id')} ASC`): Promise<unknown[]> {
    const select = sql`SELECT ${ident('t0', 'id')} AS ${ident('id')} FROM ${dialect.bind(config).tableRef('customers')} ${ident('t0')} WHERE ${where} ORDER BY ${order}`;
    return (await db.run(select)).rows.map((r) => r.id);
  }
  const like = (column: string, pattern: string, ci = false) => dialect.sql.like(ident('t0', column), sql`${pattern}`, ci);

  it('escapes % and _ with a backslash', async () => {
    expect(await customerIds(like('name', `%${escapeLike('%_')}%`))).toEqual([12]);
    expect(await customerIds(like('name', `${escapeLike('100%')}%`))).toEqual([12]);
    expect(await customerIds(like('name', '%\\_%'))).toEqual([12]);
    expect(await customerIds(like('name', '___'))).toEqual([1, 7, 8]);
    await db.query("INSERT INTO regions (id, name) VALUES (10, 'back\\\\slash')");
    const regions = await db.run(sql`SELECT ${ident('id')} FROM ${ident('regions')} ${ident('t0')} WHERE ${like('name', `%${escapeLike('\\')}%`)}`);
    expect(regions.rows.map((r) => r.id)).toEqual([10]);
  });

  it('is case-sensitive under a case-insensitive collation, and case-insensitive when asked', async () => {
    const collation = await db.query("SELECT COLLATION_NAME AS c FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'customers' AND COLUMN_NAME = 'name'");
    expect(String(collation[0]?.c)).toMatch(/_ci$/);
    expect(await customerIds(like('name', 'ada'))).toEqual([]);
    expect(await customerIds(like('name', 'Ada'))).toEqual([1]);
    expect(await customerIds(like('name', 'ADA', true))).toEqual([1]);
    expect(await customerIds(like('name', '%ZOË%', true))).toEqual([7]);
  });

  it('does not fold accents the way a _ci collation would', async () => {
    expect(await customerIds(like('name', 'Zoe'))).toEqual([]);
    expect(await customerIds(like('name', 'zoe', true))).toEqual([]);
    expect(await customerIds(sql`${ident('t0', 'name')} = ${'Zoe'}`)).toEqual([7]);
  });

  it('matches non-text columns through their text form', async () => {
    expect(await customerIds(like('id', '1%'))).toEqual([1, 10, 11, 12]);
    expect(await customerIds(like('birth_date', '1971-%'))).toEqual([2]);
    const regions = await db.run(sql`SELECT ${ident('id')} FROM ${ident('regions')} ${ident('t0')} WHERE ${like('name', '%ωmega%', true)}`);
    expect(regions.rows.map((r) => r.id)).toEqual([3]);
  });

  it('sorts NULLs last ascending and first descending, and pages after ORDER BY', async () => {
    const birth = ident('t0', 'birth_date');
    const asc = await customerIds(sql`1 = 1`, join([dialect.sql.orderTerm(birth, 'asc', true), dialect.sql.orderTerm(ident('t0', 'id'), 'asc', false)]));
    const desc = await customerIds(sql`1 = 1`, join([dialect.sql.orderTerm(birth, 'desc', true), dialect.sql.orderTerm(ident('t0', 'id'), 'asc', false)]));
    const nulls = [1, 6, 11];
    expect(asc.slice(-3)).toEqual(nulls);
    expect(desc.slice(0, 3)).toEqual(nulls);
    expect(desc.slice(3)).toEqual([...asc.slice(0, 9)].reverse());
    const page = sql`SELECT ${ident('t0', 'id')} AS ${ident('id')} FROM ${ident('customers')} ${ident('t0')} ORDER BY ${dialect.sql.orderTerm(birth, 'desc', true)}, ${ident('t0', 'id')}${dialect.sql.paginate(2, 2)}`;
    expect((await db.run(page)).rows.map((r) => r.id)).toEqual(desc.slice(2, 4));
  });
});
