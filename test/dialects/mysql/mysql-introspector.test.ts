/** Introspection of the shared fixture and of the MySQL-specific column kinds. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseSchema, TableInfo } from '../../../core/schema/introspection.ts';
import { dialect, mysqlAvailable, openTestDatabase, type TestDatabase } from './mysql-setup.ts';

const available = await mysqlAvailable();

function table(schema: DatabaseSchema, name: string): TableInfo {
  const found = schema.tables.find((t) => t.name === name);
  if (!found) throw new Error(`table ${name} not introspected`);
  return found;
}

function column(info: TableInfo, name: string) {
  const found = info.columns.find((c) => c.name === name);
  if (!found) throw new Error(`column ${info.name}.${name} not introspected`);
  return found;
}

describe.skipIf(!available)('mysql introspection', () => {
  let db: TestDatabase;
  let schema: DatabaseSchema;
  beforeAll(async () => {
    db = await openTestDatabase();
    await db.query(`CREATE TABLE kinds (
      id bigint unsigned NOT NULL AUTO_INCREMENT PRIMARY KEY,
      big bigint NULL, small smallint NULL, medium mediumint unsigned NULL, uint int unsigned NULL,
      flag bool NOT NULL DEFAULT 1, tiny tinyint NULL, bits bit(1) NULL,
      ratio float NULL, precise double NULL, money decimal(18,4) NULL,
      day date NULL, at timestamp(3) NULL, clock time NULL, yr year NULL,
      code char(36) NULL, label varchar(30) NOT NULL DEFAULT 'it''s', body longtext NULL,
      mood enum('happy','it''s ok','sad') NOT NULL DEFAULT 'happy', tags set('a','b') NULL,
      doc json NULL, raw varbinary(16) NULL, blobby blob NULL, uid uuid NULL,
      doubled int AS (small * 2) VIRTUAL, stored_sum int AS (small + 1) STORED,
      a int NULL, b int NULL,
      UNIQUE KEY kinds_pair (a, b), UNIQUE KEY kinds_label_prefix (label(5)), KEY kinds_plain (small)
    ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4`);
    schema = await dialect.bind({ vendor: 'mysql', url: db.url }).introspect(db.driver);
  });
  afterAll(async () => db?.close());

  it('lists the base tables of the connection database in name order', () => {
    expect(schema.tables.map((t) => t.name)).toEqual(['customers', 'kinds', 'orders', 'products', 'regions']);
  });

  it('reports the fixture columns in order with their neutral types', () => {
    const customers = table(schema, 'customers');
    expect(customers.columns.map((c) => [c.name, c.type])).toEqual([
      ['id', 'integer'],
      ['name', 'text'],
      ['email', 'text'],
      ['region_id', 'integer'],
      ['vip', 'boolean'],
      ['birth_date', 'date'],
      ['created_at', 'timestamp'],
    ]);
    expect(column(customers, 'id')).toMatchObject({ autoIncrement: true, nullable: false, generated: false, defaultValue: null });
    expect(column(customers, 'name')).toMatchObject({ nativeType: 'varchar(100)', maxLength: 100, nullable: false });
    expect(column(customers, 'region_id')).toMatchObject({ nullable: true, defaultValue: null, autoIncrement: false });
    expect(column(customers, 'vip')).toMatchObject({ nativeType: 'tinyint(1)', defaultValue: '0' });
    expect(column(customers, 'created_at').defaultValue?.toLowerCase()).toMatch(/^current_timestamp\(3\)$/);
    const orders = table(schema, 'orders');
    expect(column(orders, 'amount')).toMatchObject({ type: 'decimal', numericPrecision: 12, numericScale: 2, maxLength: null });
    expect(column(orders, 'note')).toMatchObject({ type: 'text', nullable: true, maxLength: null });
    expect(column(orders, 'status').defaultValue).toMatch(/^'?new'?$/);
    expect(column(orders, 'ordered_at')).toMatchObject({ type: 'timestamp', nativeType: 'datetime(3)' });
  });

  it('reports primary keys, unique keys and foreign keys with their names', () => {
    const customers = table(schema, 'customers');
    expect(customers.primaryKey).toEqual(['id']);
    expect(customers.uniqueKeys).toEqual([
      { name: 'PRIMARY', columns: ['id'], primary: true },
      { name: 'customers_email_key', columns: ['email'], primary: false },
    ]);
    expect(customers.foreignKeys).toEqual([{ name: 'customers_region_id_fkey', columns: ['region_id'], refTable: 'regions', refColumns: ['id'] }]);
    expect(table(schema, 'orders').foreignKeys).toEqual([
      { name: 'orders_customer_id_fkey', columns: ['customer_id'], refTable: 'customers', refColumns: ['id'] },
      { name: 'orders_product_id_fkey', columns: ['product_id'], refTable: 'products', refColumns: ['id'] },
    ]);
  });

  it('estimates row counts from TABLE_ROWS', () => {
    expect(table(schema, 'orders').estimatedRows).toBeGreaterThan(20);
    expect(table(schema, 'regions').estimatedRows).toBeGreaterThanOrEqual(0);
  });

  it('maps MySQL column kinds', () => {
    const kinds = table(schema, 'kinds');
    const types = Object.fromEntries(kinds.columns.map((c) => [c.name, c.type]));
    expect(types).toEqual({
      id: 'bigint', big: 'bigint', small: 'integer', medium: 'integer', uint: 'bigint',
      flag: 'boolean', tiny: 'integer', bits: 'boolean',
      ratio: 'float', precise: 'float', money: 'decimal',
      day: 'date', at: 'timestamp', clock: 'time', yr: 'integer',
      code: 'text', label: 'text', body: 'text', mood: 'text', tags: 'text',
      doc: 'json', raw: 'binary', blobby: 'binary', uid: 'uuid',
      doubled: 'integer', stored_sum: 'integer', a: 'integer', b: 'integer',
    });
    expect(column(kinds, 'mood').enumValues).toEqual(['happy', "it's ok", 'sad']);
    expect(column(kinds, 'tags').enumValues).toBeNull();
    expect(column(kinds, 'code').maxLength).toBe(36);
    expect(column(kinds, 'money')).toMatchObject({ numericPrecision: 18, numericScale: 4 });
    expect(column(kinds, 'doubled')).toMatchObject({ generated: true, defaultValue: null });
    expect(column(kinds, 'stored_sum').generated).toBe(true);
    expect(column(kinds, 'at').generated).toBe(false);
    expect(column(kinds, 'id').autoIncrement).toBe(true);
    expect(column(kinds, 'label').defaultValue).toMatch(/^'?it('|'')s'?$/);
  });

  it('keeps multi-column unique keys and leaves prefix indexes and plain indexes out', () => {
    expect(table(schema, 'kinds').uniqueKeys).toEqual([
      { name: 'PRIMARY', columns: ['id'], primary: true },
      { name: 'kinds_pair', columns: ['a', 'b'], primary: false },
    ]);
  });

  it('reads another database when config.schema names it', async () => {
    const other = await dialect.bind({ vendor: 'mysql', url: db.url, schema: 'information_schema' }).introspect(db.driver);
    expect(other.tables).toEqual([]);
    const same = await dialect.bind({ vendor: 'mysql', url: db.url, schema: db.name }).introspect(db.driver);
    expect(same.tables.map((t) => t.name)).toContain('orders');
  });
});
