/**
 * The shared fixture (test/support/fixture.ts) and the formula fixture (test/formula) as DDL for
 * any vendor: standard SQL, with the spellings that differ taken from the plugin's
 * `ConformanceSupport`. Constraint names are PostgreSQL's defaults, so errors naming them read
 * the same as on PGlite.
 */
import type { ColumnType } from '../../core/schema/introspection.ts';
import type { ConformanceSupport } from '../../dialects/conformance.ts';

/** One fixture column: its DDL spelling and the neutral type its values are encoded as. */
export interface FixtureColumn {
  readonly name: string;
  readonly type: ColumnType;
  readonly ddl: string;
}

export interface FixtureTable {
  readonly name: string;
  readonly columns: readonly FixtureColumn[];
  readonly unique: readonly string[];
  readonly references: readonly { column: string; table: string }[];
}

const col = (name: string, type: ColumnType, ddl: string): FixtureColumn => ({ name, type, ddl });

/** regions ← customers ← orders → products, as postgres-fixture.ts and mysql-fixture.ts declare them. */
export function httpFixtureTables(s: ConformanceSupport): FixtureTable[] {
  const { types: t, defaults: d } = s;
  const stamp = (name: string) => col(name, 'timestamp', `${t.timestamp} NOT NULL DEFAULT ${d.now}`);
  return [
    { name: 'regions', columns: [col('id', 'integer', s.autoId), col('name', 'text', `${t.varchar(50)} NOT NULL`)], unique: ['name'], references: [] },
    {
      name: 'customers',
      columns: [
        col('id', 'integer', s.autoId),
        col('name', 'text', `${t.varchar(100)} NOT NULL`),
        col('email', 'text', `${t.varchar(200)} NOT NULL`),
        col('region_id', 'integer', 'integer NULL'),
        col('vip', 'boolean', `${t.boolean} NOT NULL DEFAULT ${d.false}`),
        col('birth_date', 'date', 'date NULL'),
        stamp('created_at'),
      ],
      unique: ['email'],
      references: [{ column: 'region_id', table: 'regions' }],
    },
    {
      name: 'products',
      columns: [col('id', 'integer', s.autoId), col('sku', 'text', `${t.varchar(20)} NOT NULL`), col('name', 'text', `${t.varchar(100)} NOT NULL`), col('price', 'decimal', 'decimal(10,2) NOT NULL')],
      unique: ['sku'],
      references: [],
    },
    {
      name: 'orders',
      columns: [
        col('id', 'integer', s.autoId),
        col('customer_id', 'integer', 'integer NOT NULL'),
        col('product_id', 'integer', 'integer NULL'),
        col('quantity', 'integer', 'integer NOT NULL DEFAULT 1'),
        col('amount', 'decimal', 'decimal(12,2) NOT NULL'),
        col('status', 'text', `${t.varchar(20)} NOT NULL DEFAULT 'new'`),
        col('note', 'text', `${t.text} NULL`),
        col('ordered_at', 'timestamp', `${t.timestamp} NOT NULL`),
        stamp('created_at'),
        stamp('updated_at'),
      ],
      unique: [],
      references: [
        { column: 'customer_id', table: 'customers' },
        { column: 'product_id', table: 'products' },
      ],
    },
  ];
}

/** The tables of test/formula/db.ts (without the uuid and binary columns no formula reads). */
export function formulaFixtureTables(s: ConformanceSupport): FixtureTable[] {
  const { types: t } = s;
  const id = col('id', 'integer', 'integer NOT NULL PRIMARY KEY');
  return [
    { name: 'regions', columns: [id, col('name', 'text', `${t.text} NULL`)], unique: [], references: [] },
    {
      name: 'customers',
      columns: [id, col('name', 'text', `${t.text} NULL`), col('region_id', 'integer', 'integer NULL'), col('vip', 'boolean', `${t.boolean} NULL`)],
      unique: [],
      references: [{ column: 'region_id', table: 'regions' }],
    },
    {
      name: 'orders',
      columns: [
        id,
        col('amount', 'float', 'double precision NULL'),
        col('qty', 'integer', 'integer NULL'),
        col('price', 'decimal', 'decimal(38,15) NULL'),
        col('note', 'text', `${t.text} NULL`),
        col('code', 'text', `${t.varchar(20)} NULL`),
        col('paid', 'boolean', `${t.boolean} NULL`),
        col('order_date', 'date', 'date NULL'),
        col('created_at', 'timestamp', `${t.timestamp} NULL`),
        col('shipped_at', 'timestamp', `${t.timestamp} NULL`),
        col('customer_id', 'integer', 'integer NULL'),
      ],
      unique: [],
      references: [{ column: 'customer_id', table: 'customers' }],
    },
  ];
}

/** `CREATE TABLE` of `table`; `ref` quotes and qualifies a table name, `q` quotes a column. */
export function createTable(table: FixtureTable, ref: (name: string) => string, q: (name: string) => string): string {
  const columns = table.columns.map((c) => `${q(c.name)} ${c.ddl}`);
  const unique = table.unique.map((c) => `CONSTRAINT ${q(`${table.name}_${c}_key`)} UNIQUE (${q(c)})`);
  const foreign = table.references.map((r) => `CONSTRAINT ${q(`${table.name}_${r.column}_fkey`)} FOREIGN KEY (${q(r.column)}) REFERENCES ${ref(r.table)} (${q('id')})`);
  return `CREATE TABLE ${ref(table.name)} (${[...columns, ...unique, ...foreign].join(', ')})`;
}
