import { ident, raw, render, sql, type CompiledSql, type Sql } from '../../core/sql.ts';
import type { ColumnType } from '../../core/schema/introspection.ts';
import type { DatabaseConfig, Dialect, Driver, Executor, InsertStatement, UpsertStatement } from '../dialect.ts';
import { createPgDriver } from './postgres-driver.ts';
import { mapPostgresError } from './postgres-errors.ts';
import { postgresFormula } from './postgres-formula.ts';
import { introspectPostgres, postgresSchemaExists } from './postgres-introspector.ts';
import { urlProblem } from '../connection-url.ts';
import { insertHead, runUpsert } from './postgres-upsert.ts';

function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

function placeholder(index: number): string {
  return `$${index}`;
}

const renderer = { quoteIdent, placeholder };

function schemaOf(config: DatabaseConfig): string {
  return config.schema ?? 'public';
}

/** Native types for columns created through the API; fixed strings, never user input. */
const COLUMN_TYPES: Partial<Record<ColumnType, string>> = {
  integer: 'integer', bigint: 'bigint', decimal: 'numeric(18,6)', float: 'double precision', boolean: 'boolean',
  date: 'date', timestamp: 'timestamptz', time: 'time', uuid: 'uuid', text: 'text', json: 'jsonb', binary: 'bytea',
};

function encodeValue(type: ColumnType, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  // pg would send JS arrays as Postgres arrays; json columns want JSON text.
  if (type === 'json') return JSON.stringify(value);
  if (value instanceof Date) return value.toISOString();
  return value;
}

/**
 * Builds a Postgres dialect. `connect` opens a `pg` Pool by default; the embedded vendor
 * passes a connector over the shared PGlite instead.
 */
export function createPostgresDialect(
  name = 'postgres',
  connector: (config: DatabaseConfig) => Promise<Driver> = async (config) => createPgDriver(config),
): Dialect {
  const tableRef = (table: string, config: DatabaseConfig): Sql => ident(schemaOf(config), table);
  const renderSql = (fragment: Sql): CompiledSql => render(fragment, renderer);
  return {
    name,
    needsUrl: true,
    quoteIdent,
    placeholder,
    maxParams: 65535,
    upsertMatchesAnyUniqueKey: false,
    jsonArrivesAsText: false,
    formula: postgresFormula,
    connect: connector,
    introspect: (db: Executor, config: DatabaseConfig) => introspectPostgres(db, schemaOf(config)),
    tableRef,
    paginate: (limit: number, offset: number) => sql` LIMIT ${limit} OFFSET ${offset}`,
    orderTerm: (expr: Sql, direction: 'asc' | 'desc') =>
      direction === 'asc' ? sql`${expr} ASC NULLS LAST` : sql`${expr} DESC NULLS FIRST`,
    like: (expr: Sql, pattern: Sql, caseInsensitive: boolean) =>
      caseInsensitive ? sql`${expr}::text ILIKE ${pattern} ESCAPE '\\'` : sql`${expr}::text LIKE ${pattern} ESCAPE '\\'`,
    predicateAsValue: (predicate: Sql) => sql`(${predicate})`,
    encodeValue,
    addColumnStatement: (table: Sql, column: string, type: ColumnType) =>
      sql`ALTER TABLE ${table} ADD COLUMN ${ident(column)} ${raw(COLUMN_TYPES[type] ?? 'text')} NULL`,
    dropColumnStatement: (table: Sql, column: string) => sql`ALTER TABLE ${table} DROP COLUMN ${ident(column)}`,
    updateStatement: (table: Sql, alias: string, assignments: Sql, where: Sql) =>
      sql`UPDATE ${table} AS ${ident(alias)} SET ${assignments} WHERE ${where}`,
    deleteStatement: (table: Sql, alias: string, where: Sql) => sql`DELETE FROM ${table} AS ${ident(alias)} WHERE ${where}`,
    async insert(db: Executor, statement: InsertStatement, config: DatabaseConfig): Promise<unknown[]> {
      const head = insertHead(tableRef(statement.table, config), statement);
      const result = await db.query(renderSql(sql`${head} RETURNING ${ident(statement.returning)} AS ${raw('"returned"')}`));
      return result.rows.map((row) => row.returned);
    },
    upsert: (db: Executor, statement: UpsertStatement, config: DatabaseConfig) =>
      runUpsert(db, renderSql, tableRef(statement.table, config), statement),
    async estimateRows(db: Executor, select: CompiledSql): Promise<number | null> {
      const result = await db.query({ text: `EXPLAIN (FORMAT JSON) ${select.text}`, params: select.params });
      const plan = result.rows[0]?.['QUERY PLAN'];
      const parsed = (typeof plan === 'string' ? JSON.parse(plan) : plan) as { Plan?: { 'Plan Rows'?: number } }[] | undefined;
      const rows = parsed?.[0]?.Plan?.['Plan Rows'];
      return typeof rows === 'number' ? rows : null;
    },
    mapError: mapPostgresError,
    createTableIfMissing: (table: string, definition: Sql, config: DatabaseConfig) =>
      sql`CREATE TABLE IF NOT EXISTS ${tableRef(table, config)} (${definition})`,
    // Longer names are truncated silently (manual §4.1.1, "Identifiers and Key Words").
    maxIdentifierLength: { limit: 63, unit: 'bytes' },
    schemaExists: (db: Executor, config: DatabaseConfig) => postgresSchemaExists(db, schemaOf(config)),
    urlProblem: (url: string) => urlProblem(url, ['postgres:', 'postgresql:'], 'postgres://user:password@host:5432/database'),
  };
}

export const postgresDialect = createPostgresDialect();
