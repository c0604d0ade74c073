/**
 * Standard SQL spellings: the defaults of every `SqlSpelling` member a vendor may leave out.
 * PostgreSQL takes all of them; MySQL and SQL Server override the few they spell differently.
 */
import { ident, raw, render, sql, type Sql, type SqlRenderer } from '../core/sql.ts';
import type { ColumnType } from '../core/schema/introspection.ts';
import type { Executor, SqlSpelling } from './dialect.ts';

/** The members a vendor always writes: nothing standard exists for them. */
export type OwnSpelling = Pick<SqlSpelling, 'quoteIdent' | 'placeholder' | 'like' | 'columnType'>;

/** json as JSON text (a driver would send a JS array as an SQL array), a Date as ISO text. */
function standardEncodeValue(type: ColumnType, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (type === 'json') return JSON.stringify(value);
  if (value instanceof Date) return value.toISOString();
  return value;
}

/** `expr ASC` / `expr DESC`: the whole term when `expr` is never NULL, whatever the vendor. */
export function plainOrderTerm(expr: Sql, direction: 'asc' | 'desc'): Sql {
  return direction === 'asc' ? sql`${expr} ASC` : sql`${expr} DESC`;
}

/** NULLS LAST ascending, NULLS FIRST descending (SQL:2003); nothing to add for a NOT NULL term. */
function standardOrderTerm(expr: Sql, direction: 'asc' | 'desc', nullable: boolean): Sql {
  if (!nullable) return plainOrderTerm(expr, direction);
  return direction === 'asc' ? sql`${expr} ASC NULLS LAST` : sql`${expr} DESC NULLS FIRST`;
}

/** Every member of `SqlSpelling`: the vendor's own where given, standard SQL otherwise. */
export function standardSpelling(own: OwnSpelling & Partial<SqlSpelling>): SqlSpelling {
  const spelling: SqlSpelling = {
    tableRef: (schema, table) => (schema ? ident(schema, table) : ident(table)),
    paginate: (limit, offset) => sql` LIMIT ${limit} OFFSET ${offset}`,
    orderTerm: standardOrderTerm,
    encodeValue: standardEncodeValue,
    exactText: (expr) => expr,
    updateStatement: (table, alias, assignments, where) => sql`UPDATE ${table} AS ${ident(alias)} SET ${assignments} WHERE ${where}`,
    deleteStatement: (table, alias, where) => sql`DELETE FROM ${table} AS ${ident(alias)} WHERE ${where}`,
    addColumnStatement: (table, column, type) =>
      sql`ALTER TABLE ${table} ADD COLUMN ${ident(column)} ${raw(spelling.columnType(type))} NULL`,
    dropColumnStatement: (table, column) => sql`ALTER TABLE ${table} DROP COLUMN ${ident(column)}`,
    createTableIfMissing: (table, definition) => sql`CREATE TABLE IF NOT EXISTS ${table} (${definition})`,
    sum: (expr, type) => (type === 'float' ? sql`SUM(CAST(${expr} AS NUMERIC))` : sql`SUM(${expr})`),
    toDouble: (expr) => sql`CAST(${expr} AS DOUBLE PRECISION)`,
    ...own,
  };
  return spelling;
}

/** `information_schema.schemata`, which PostgreSQL, MySQL and SQL Server all have; no schema: the connection's own. */
export async function standardSchemaExists(db: Executor, schema: string | undefined, renderer: SqlRenderer): Promise<boolean> {
  if (schema === undefined) return true;
  const statement = render(sql`SELECT 1 AS found FROM information_schema.schemata WHERE schema_name = ${schema}`, renderer);
  return (await db.query(statement)).rows.length > 0;
}

/** The estimate when a vendor offers none: unknown, so count=estimated answers an exact count. */
export async function noEstimate(): Promise<null> {
  return null;
}
