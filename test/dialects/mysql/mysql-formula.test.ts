/**
 * The formula examples of test/formula/examples.ts (agreed values, DESIGN §7) emitted by the
 * MySQL formula dialect and run on MariaDB, on columns of the native MySQL types.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkFormula, emitFormula, parseFormula, type CheckedFormula } from '../../../core/formula/index.ts';
import type { SchemaModel } from '../../../core/schema/model.ts';
import { ident, render, sql, type Sql } from '../../../core/sql.ts';
import { mysqlFormula } from '../../../dialects/mysql/index.ts';
import { entity, field } from '../../support/formula-fixtures.ts';
import { exampleRow, examples } from '../../formula/examples.ts';
import { dialect, mysqlAvailable, openTestDatabase, type TestDatabase } from './mysql-setup.ts';

const available = await mysqlAvailable();

const regions = entity('regions', 'regions', [field('id', 'id', 'integer', 'int'), field('name', 'name', 'text', 'varchar(100)')]);
const customers = entity(
  'customers',
  'customers',
  [field('id', 'id', 'integer', 'int'), field('name', 'name', 'text', 'varchar(100)'), field('regionId', 'region_id', 'integer', 'int'), field('vip', 'vip', 'boolean', 'tinyint(1)')],
  [{ name: 'region', kind: 'manyToOne', field: 'regionId', target: 'regions', targetField: 'id' }],
);
const orders = entity(
  'orders',
  'orders',
  [
    field('id', 'id', 'integer', 'int'),
    field('amount', 'amount', 'float', 'double'),
    field('qty', 'qty', 'integer', 'int'),
    field('price', 'price', 'decimal', 'decimal(12,4)'),
    field('note', 'note', 'text', 'text'),
    field('code', 'code', 'text', 'varchar(20)'),
    field('paid', 'paid', 'boolean', 'tinyint(1)'),
    field('orderDate', 'order_date', 'date', 'date'),
    field('createdAt', 'created_at', 'timestamp', 'datetime(3)'),
    field('shippedAt', 'shipped_at', 'timestamp', 'timestamp(3)'),
    field('customerId', 'customer_id', 'integer', 'int'),
    field('token', 'token', 'text', 'char(36)'),
    field('blob', 'blob', 'binary', 'blob'),
  ],
  [{ name: 'customer', kind: 'manyToOne', field: 'customerId', target: 'customers', targetField: 'id' }],
);
const model: SchemaModel = { entities: new Map([['orders', orders], ['customers', customers], ['regions', regions]]), skipped: [] };
const context = { entity: orders, model };

const aliases = ['o', 'c', 'r'];
const byDepth = [orders, customers, regions];
function columnRef(path: readonly string[]): Sql {
  const depth = path.length - 1;
  const f = byDepth[depth]?.fields.find((x) => x.name === path[path.length - 1]);
  if (!f) throw new Error(`no column for ${path.join('.')}`);
  return ident(aliases[depth] ?? 'o', f.column);
}

/** A driver value as the evaluator gives it: booleans from 0/1, timestamps ISO with ms and Z. */
function normalise(value: unknown, type: string): unknown {
  if (value === null || value === undefined) return null;
  if (type === 'boolean') return Number(value) !== 0;
  if (type === 'number') return Number(value) === 0 ? 0 : Number(value);
  if (type === 'timestamp' && typeof value === 'string') {
    const m = /^(\d{4}-\d\d-\d\d)[ T](\d\d:\d\d:\d\d)(?:\.(\d+))?/.exec(value);
    return m ? `${m[1]}T${m[2]}.${(m[3] ?? '').padEnd(3, '0').slice(0, 3)}Z` : value;
  }
  if (type === 'date' && typeof value === 'string') return value.slice(0, 10);
  return Buffer.isBuffer(value) ? value.toString('utf8') : value;
}

describe('MySQL formula SQL for text', () => {
  const emitted = (text: string) => render(emitFormula(checkFormula(parseFormula(text), context), { dialect: mysqlFormula, columnRef }), dialect.sql).text;

  it('reads text columns and literals as utf8mb4_bin, whatever the column collation', () => {
    expect(emitted('code')).toBe('(CONVERT(`o`.`code` USING utf8mb4) COLLATE utf8mb4_bin)');
    expect(emitted("'x'")).toBe('(CONVERT(? USING utf8mb4) COLLATE utf8mb4_bin)');
  });

  it('compares text as bytes, so trailing spaces count (utf8mb4_bin is PAD SPACE)', () => {
    expect(emitted("code = 'x'")).toBe(
      '(CAST((CONVERT(`o`.`code` USING utf8mb4) COLLATE utf8mb4_bin) AS BINARY) = CAST((CONVERT(? USING utf8mb4) COLLATE utf8mb4_bin) AS BINARY))',
    );
    expect(emitted("NULLIF(code, 'x')")).toContain('CAST(');
    expect(emitted("GREATEST(code, 'x')")).toMatch(/^\(CONVERT\(GREATEST\(CAST\(COALESCE/);
  });
});

describe.skipIf(!available)('MySQL formulas on MariaDB', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await openTestDatabase(false);
    await db.query('CREATE TABLE regions (id int PRIMARY KEY, name varchar(100)) DEFAULT CHARSET=utf8mb4');
    await db.query('CREATE TABLE customers (id int PRIMARY KEY, name varchar(100), region_id int, vip tinyint(1)) DEFAULT CHARSET=utf8mb4');
    await db.query(`CREATE TABLE orders (id int PRIMARY KEY, amount double, qty int, price decimal(12,4), note text, code varchar(20),
      paid tinyint(1), order_date date, created_at datetime(3), shipped_at timestamp(3) NULL, customer_id int, token char(36), \`blob\` blob)
      DEFAULT CHARSET=utf8mb4`);
    const r = exampleRow;
    await db.query('INSERT INTO regions VALUES (1, ?)', [r['customer.region.name'] ?? null]);
    await db.query('INSERT INTO customers VALUES (1, ?, 1, ?)', [r['customer.name'] ?? null, r['customer.vip'] ?? null]);
    const ts = (v: unknown) => (typeof v === 'string' ? v.replace('T', ' ').replace('Z', '') : null);
    await db.query('INSERT INTO orders (id, amount, qty, price, note, code, paid, order_date, created_at, shipped_at, customer_id, token) VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?)', [
      r.amount, r.qty, r.price, r.note, r.code, r.paid, r.orderDate, ts(r.createdAt), ts(r.shippedAt), r.token,
    ]);
  });
  afterAll(async () => db?.close());

  async function run(checked: CheckedFormula): Promise<unknown[]> {
    const expr = emitFormula(checked, { dialect: mysqlFormula, columnRef });
    const query = sql`SELECT ${expr} AS v FROM orders o LEFT JOIN customers c ON c.id = o.customer_id LEFT JOIN regions r ON r.id = c.region_id ORDER BY o.id`;
    const rows = (await db.driver.query(render(query, dialect.sql))).rows;
    return rows.map((row) => normalise(row.v, checked.type));
  }

  it.each(examples)('%s = %j', async (text, expected) => {
    const checked = checkFormula(parseFormula(text), context);
    expect(await run(checked), text).toEqual([expected]);
  });

  it('agrees on NOW(), CURRENT_TIMESTAMP and CURRENT_DATE', async () => {
    const [now, date] = await Promise.all(['NOW()', 'CURRENT_DATE'].map((f) => run(checkFormula(parseFormula(f), context))));
    expect(Math.abs(Date.parse(String(now?.[0])) - Date.now())).toBeLessThan(5_000);
    expect(date?.[0]).toBe(new Date().toISOString().slice(0, 10));
  });
});
