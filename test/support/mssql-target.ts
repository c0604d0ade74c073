/**
 * SQL Server as a test vendor: a fresh database per provision on the server at MSSQL_URL
 * (`mssql://sa:pass@127.0.0.1:1433/master?trustServerCertificate=true`), dropped again by `drop`.
 * Without MSSQL_URL the vendor is unavailable and its suites are skipped. The fixture gets the
 * same tables, columns and constraint names as test/support/postgres-fixture.ts through
 * SQL Server DDL: bit booleans, datetime2(3) timestamps in UTC, identity keys.
 */
import { uniqueName } from './names.ts';
import sql from 'mssql';
import { mssqlConfig, parameterType } from '../../dialects/mssql/mssql-driver.ts';
import { TABLE_ROWS, type FixtureRow } from './fixture.ts';
import type { ProvisionedDatabase, Rows, TestSqlDialect, VendorTarget } from './vendors.ts';

export const MSSQL_URL = process.env.MSSQL_URL;

/**
 * SQL Server spellings for tests that create their own tables. An explicit id above the current
 * identity value moves the identity past it by itself (IDENTITY_INSERT must be on to write one).
 */
export const MSSQL_TEST_SQL: TestSqlDialect = {
  autoId: 'int IDENTITY(1,1) PRIMARY KEY',
  param: (i) => `@p${i}`,
  resetIdentity: () => null,
};

/** The fixture's DDL in schema `schema` (dbo by default). */
export function mssqlFixtureDdl(schema = 'dbo'): string[] {
  const s = `[${schema}]`;
  return [
    `CREATE TABLE ${s}.[regions] ([id] int IDENTITY(1,1) NOT NULL CONSTRAINT [regions_pkey] PRIMARY KEY,
       [name] nvarchar(50) NOT NULL CONSTRAINT [regions_name_key] UNIQUE)`,
    `CREATE TABLE ${s}.[customers] ([id] int IDENTITY(1,1) NOT NULL CONSTRAINT [customers_pkey] PRIMARY KEY,
       [name] nvarchar(100) NOT NULL, [email] nvarchar(200) NOT NULL CONSTRAINT [customers_email_key] UNIQUE,
       [region_id] int NULL CONSTRAINT [customers_region_id_fkey] REFERENCES ${s}.[regions] ([id]),
       [vip] bit NOT NULL CONSTRAINT [customers_vip_default] DEFAULT 0, [birth_date] date NULL,
       [created_at] datetime2(3) NOT NULL CONSTRAINT [customers_created_at_default] DEFAULT SYSUTCDATETIME())`,
    `CREATE TABLE ${s}.[products] ([id] int IDENTITY(1,1) NOT NULL CONSTRAINT [products_pkey] PRIMARY KEY,
       [sku] nvarchar(20) NOT NULL CONSTRAINT [products_sku_key] UNIQUE, [name] nvarchar(100) NOT NULL,
       [price] decimal(10,2) NOT NULL)`,
    `CREATE TABLE ${s}.[orders] ([id] int IDENTITY(1,1) NOT NULL CONSTRAINT [orders_pkey] PRIMARY KEY,
       [customer_id] int NOT NULL CONSTRAINT [orders_customer_id_fkey] REFERENCES ${s}.[customers] ([id]),
       [product_id] int NULL CONSTRAINT [orders_product_id_fkey] REFERENCES ${s}.[products] ([id]),
       [quantity] int NOT NULL CONSTRAINT [orders_quantity_default] DEFAULT 1, [amount] decimal(12,2) NOT NULL,
       [status] nvarchar(20) NOT NULL CONSTRAINT [orders_status_default] DEFAULT 'new', [note] nvarchar(max) NULL,
       [ordered_at] datetime2(3) NOT NULL,
       [created_at] datetime2(3) NOT NULL CONSTRAINT [orders_created_at_default] DEFAULT SYSUTCDATETIME(),
       [updated_at] datetime2(3) NOT NULL CONSTRAINT [orders_updated_at_default] DEFAULT SYSUTCDATETIME())`,
  ];
}

/** Fixture values as bound parameters: booleans 1/0, ISO timestamps as Dates (datetime2, UTC). */
export function mssqlValue(value: FixtureRow[string]): string | number | Date | null {
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/.test(value)) return new Date(value);
  return value;
}

/** One INSERT per table with explicit ids (IDENTITY_INSERT on around it). */
export function mssqlFixtureInserts(schema = 'dbo'): { text: string; params: unknown[] }[] {
  return TABLE_ROWS.map(([table, rows]) => {
    const columns = Object.keys(rows[0] ?? {});
    const params: unknown[] = [];
    const tuples = rows.map((row) => `(${columns.map((c) => { params.push(mssqlValue(row[c] ?? null)); return `@p${params.length}`; }).join(', ')})`);
    const target = `[${schema}].[${table}]`;
    return {
      text: `SET IDENTITY_INSERT ${target} ON;
INSERT INTO ${target} (${columns.map((c) => `[${c}]`).join(', ')}) VALUES ${tuples.join(', ')};
SET IDENTITY_INSERT ${target} OFF;`,
      params,
    };
  });
}

async function openPool(url: string, database?: string): Promise<sql.ConnectionPool> {
  const config = mssqlConfig({ vendor: 'mssql', url, poolSize: 2 });
  const pool = new sql.ConnectionPool({ ...config, ...(database ? { database } : {}) });
  pool.on('error', () => undefined);
  return pool.connect();
}

async function run(pool: sql.ConnectionPool, text: string, params: readonly unknown[] = []): Promise<Rows> {
  const request = pool.request();
  params.forEach((value, i) => request.input(`p${i + 1}`, parameterType(value), value));
  const result = await request.query<Record<string, unknown>>(text);
  return result.recordset ? [...result.recordset] : [];
}

/** The MSSQL_URL with its database replaced (the workspace's database URL). */
export function mssqlUrlFor(database: string): string {
  const url = new URL(MSSQL_URL ?? 'mssql://localhost/master');
  url.pathname = `/${database}`;
  return url.toString();
}

export async function mssqlReachable(): Promise<boolean> {
  if (!MSSQL_URL) return false;
  try {
    await (await openPool(MSSQL_URL)).close();
    return true;
  } catch {
    return false;
  }
}

/** Creates an empty database; with `withFixture`, loads the shared fixture into its dbo schema. */
export async function provisionMssqlDatabase(withFixture: boolean): Promise<ProvisionedDatabase & { readonly name: string; readonly url: string }> {
  if (!MSSQL_URL) throw new Error('MSSQL_URL is not set');
  const name = uniqueName('wdapi_test');
  const admin = await openPool(MSSQL_URL);
  try {
    await run(admin, `CREATE DATABASE [${name}]`);
  } finally {
    await admin.close();
  }
  const pool = await openPool(MSSQL_URL, name);
  const query = (text: string, params?: unknown[]): Promise<Rows> => run(pool, text, params ?? []);
  if (withFixture) {
    for (const statement of mssqlFixtureDdl()) await query(statement);
    for (const { text, params } of mssqlFixtureInserts()) await query(text, params);
  }
  const url = mssqlUrlFor(name);
  return {
    name,
    url,
    sql: MSSQL_TEST_SQL,
    database: { vendor: 'mssql', url, schema: 'dbo' },
    query,
    table: (table) => `[dbo].[${table}]`,
    async drop() {
      await pool.close();
      const cleaner = await openPool(MSSQL_URL);
      try {
        await run(cleaner, `IF DB_ID(N'${name}') IS NOT NULL BEGIN ALTER DATABASE [${name}] SET SINGLE_USER WITH ROLLBACK IMMEDIATE; DROP DATABASE [${name}]; END`);
      } finally {
        await cleaner.close();
      }
    },
  };
}

export const mssqlTarget: VendorTarget = {
  name: 'mssql',
  optionalInCi: true,
  available: mssqlReachable,
  provision: (_service, withFixture) => provisionMssqlDatabase(withFixture),
};
