/**
 * The SQL Server dialect (2016+), registry name 'mssql', over the `mssql` package (tedious).
 * Identifiers are [bracketed], parameters @p1…, paging is OFFSET/FETCH after the ORDER BY core
 * always writes, and SQL Server's missing boolean values are bit 1/0 (DESIGN §7).
 */
import { ident, raw, render, sql, type CompiledSql, type Sql } from '../../core/sql.ts';
import type { ColumnType } from '../../core/schema/introspection.ts';
import type { DatabaseConfig, Dialect, Executor, InsertStatement, UpdateStatement, UpsertStatement, WrittenRowRead } from '../dialect.ts';
import { defineDialect } from '../define-dialect.ts';
import { plainOrderTerm } from '../standard-sql.ts';
import { mapMssqlError } from './mssql-errors.ts';
import { BINARY_COLLATION, likePattern, mssqlFormula, mssqlOwnFormula } from './mssql-formula.ts';
import { introspectMssql, mssqlSchemaExists } from './mssql-introspector.ts';
import { urlProblem } from '../connection-url.ts';
import { MSSQL_MAX_PARAMS, runInsert, runUpsert } from './mssql-upsert.ts';
import { runInsertAndRead, runUpdateAndRead } from './mssql-written.ts';

export function quoteIdent(name: string): string {
  return `[${name.replace(/]/g, ']]')}]`;
}

export function placeholder(index: number): string {
  return `@p${index}`;
}

const renderer = { quoteIdent, placeholder };
const renderSql = (fragment: Sql): CompiledSql => render(fragment, renderer);

/** Native types for columns created through the API; fixed strings, never user input. */
const COLUMN_TYPES: Readonly<Record<ColumnType, string>> = {
  integer: 'int',
  bigint: 'bigint',
  decimal: 'decimal(18,6)',
  float: 'float',
  boolean: 'bit',
  date: 'date',
  timestamp: 'datetime2(3)',
  time: 'time(3)',
  uuid: 'uniqueidentifier',
  text: 'nvarchar(max)',
  json: 'nvarchar(max)',
  binary: 'varbinary(max)',
  unknown: 'nvarchar(max)',
};

/** ISO UTC text whose fraction goes beyond milliseconds (a cursor's exact key of a datetime2 column). */
const FINER_THAN_MS = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2}\.\d{3}\d*[1-9])Z$/;

/**
 * A timestamp as what binds it exactly: a Date (bound as datetime2(3)) up to milliseconds; finer
 * text as `YYYY-MM-DD HH:MM:SS.fffffff`, which SQL Server converts to the compared column's
 * datetime2 or datetimeoffset (UTC) without losing digits. Such text only comes from a column
 * that holds them, so a `datetime` column (three digits at most) never meets it.
 */
function timestampParameter(value: unknown): unknown {
  const finer = typeof value === 'string' ? FINER_THAN_MS.exec(value) : null;
  return finer ? `${finer[1]} ${finer[2]}` : (toDate(value) ?? value);
}

/**
 * A cursor's timestamp key as ISO 8601 text: style 126 keeps datetime2's seven digits, where
 * tedious' Dates stop at milliseconds. Decimals are left alone: tedious reads them into doubles,
 * but CONVERT to text would print a money column with two digits of its four.
 */
export function exactText(expr: Sql, type: ColumnType): Sql {
  return type === 'timestamp' ? sql`CONVERT(varchar(40), ${expr}, 126)` : expr;
}

function toDate(value: unknown): Date | null {
  const date = value instanceof Date ? value : typeof value === 'string' ? new Date(value) : null;
  return date && !Number.isNaN(date.getTime()) ? date : null;
}

/**
 * Booleans bind as 1/0; timestamps as Dates (bound as datetime2, in UTC); bigint and decimal
 * values as text, so that one column of a multi-row VALUES list never mixes int, float and
 * nvarchar parameters (SQL Server would convert them all to the highest-precedence type, float,
 * and lose digits); the column's own type converts the text exactly.
 */
export function encodeValue(type: ColumnType, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  switch (type) {
    case 'json':
      return JSON.stringify(value);
    case 'boolean':
      return typeof value === 'boolean' ? (value ? 1 : 0) : value;
    case 'timestamp':
      return timestampParameter(value);
    case 'bigint':
    case 'decimal':
      return typeof value === 'number' || typeof value === 'bigint' ? String(value) : value;
    default:
      return typeof value === 'boolean' ? (value ? 1 : 0) : value;
  }
}

/**
 * LIKE on any column made nvarchar, compared in code units (BIN2) so the column's collation
 * (often case- and accent-insensitive) does not decide; case-insensitive matching lowers both
 * sides first. `[` in the pattern is made literal (SQL Server reads `[…]` as a character class).
 */
export function like(expr: Sql, pattern: Sql, caseInsensitive: boolean): Sql {
  const text = sql`CAST(${expr} AS nvarchar(max))`;
  const escaped = likePattern(pattern);
  const collate = raw(` COLLATE ${BINARY_COLLATION}`);
  return caseInsensitive
    ? sql`LOWER(${text})${collate} LIKE LOWER(${escaped})${collate} ESCAPE '\\'`
    : sql`${text}${collate} LIKE ${escaped}${collate} ESCAPE '\\'`;
}

/**
 * SQL Server sorts NULL first ascending and last descending; for a nullable term both are turned
 * around. The CASE keeps an index from serving the sort, so a term that cannot be NULL is plain.
 */
export function orderTerm(expr: Sql, direction: 'asc' | 'desc', nullable: boolean): Sql {
  if (!nullable) return plainOrderTerm(expr, direction);
  return direction === 'asc'
    ? sql`CASE WHEN ${expr} IS NULL THEN 1 ELSE 0 END, ${expr} ASC`
    : sql`CASE WHEN ${expr} IS NULL THEN 0 ELSE 1 END, ${expr} DESC`;
}

/**
 * SQL Server has no EXPLAIN that runs on a pooled connection (SHOWPLAN is a session setting
 * that needs its own batches), so the estimate is the root table's row count from
 * sys.partitions: exact for an unfiltered read, an upper bound when the read has a WHERE
 * (joins are many-to-one and never add rows).
 */
export async function estimateRows(db: Executor, _select: CompiledSql, rootTable: Sql): Promise<number | null> {
  const result = await db.query({
    text: 'SELECT SUM([p].[rows]) AS [n] FROM sys.partitions AS [p] WHERE [p].[object_id] = OBJECT_ID(@p1) AND [p].[index_id] IN (0, 1)',
    params: [renderSql(rootTable).text],
  });
  const n = result.rows[0]?.n;
  return n === null || n === undefined ? null : Number(n);
}

/**
 * A JSON column is nvarchar(max) with an ISJSON check (what the introspector reads as json).
 * Dropping a column first drops the CHECK and DEFAULT constraints on it alone: SQL Server
 * refuses to drop a column a constraint depends on (error 5074).
 */
export function addColumnStatement(table: Sql, column: string, type: ColumnType): Sql {
  const check = type === 'json' ? sql` CHECK (ISJSON(${ident(column)}) = 1)` : raw('');
  return sql`ALTER TABLE ${table} ADD ${ident(column)} ${raw(COLUMN_TYPES[type])} NULL${check}`;
}

/**
 * SUM keeps the argument's type in T-SQL: an int column's sum overflows at 2^31 and a bigint's at
 * 2^63. Widen first (decimal(38,0) holds any sum of bigints a table can have).
 */
function sum(expr: Sql, type: ColumnType): Sql {
  if (type === 'integer') return sql`SUM(CAST(${expr} AS bigint))`;
  if (type === 'bigint') return sql`SUM(CAST(${expr} AS decimal(38,0)))`;
  // Doubles through the formulas' exact step, so that summation order cannot change the last bits.
  if (type === 'float') return sql`SUM(${mssqlOwnFormula.exact(expr)})`;
  return sql`SUM(${expr})`;
}

export function dropColumnStatement(table: Sql, column: string): Sql {
  const tableText = renderSql(table).text;
  return sql`DECLARE @drop nvarchar(max) = N'';
SELECT @drop = @drop + N'ALTER TABLE ' + ${tableText} + N' DROP CONSTRAINT ' + QUOTENAME([c].[name]) + N';'
FROM (SELECT [name] FROM sys.check_constraints WHERE [parent_object_id] = OBJECT_ID(${tableText}) AND [parent_column_id] = COLUMNPROPERTY(OBJECT_ID(${tableText}), ${column}, 'ColumnId')
      UNION ALL
      SELECT [name] FROM sys.default_constraints WHERE [parent_object_id] = OBJECT_ID(${tableText}) AND [parent_column_id] = COLUMNPROPERTY(OBJECT_ID(${tableText}), ${column}, 'ColumnId')) AS [c];
EXEC sp_executesql @drop;
ALTER TABLE ${table} DROP COLUMN ${ident(column)};`;
}

/** A `mssql://` URL, or an ADO.NET connection string (`Server=…;Database=…`), as mssql-driver.ts reads them. */
function mssqlUrlProblem(url: string): string | null {
  if (/^(mssql|sqlserver):\/\//i.test(url)) return urlProblem(url, ['mssql:', 'sqlserver:'], 'mssql://user:password@host:1433/database');
  return /^\s*[A-Za-z ]+=/.test(url) ? null : 'is neither an mssql:// URL nor an ADO.NET connection string (Server=…;Database=…)';
}

export function createMssqlDialect(name = 'mssql'): Dialect {
  return defineDialect({
    name,
    defaultSchema: 'dbo',
    capabilities: {
      // TDS allows 2100 parameters per request; 100 are kept for what a statement adds around the rows.
      maxParams: MSSQL_MAX_PARAMS,
      identityColumn: 'bigint IDENTITY(1,1)',
      // Regular identifiers hold 1 to 128 characters (sysname is nvarchar(128); "Database Identifiers").
      maxIdentifierLength: { limit: 128, unit: 'characters' },
    },
    sql: {
      quoteIdent,
      placeholder,
      columnType: (type) => COLUMN_TYPES[type],
      like,
      encodeValue,
      exactText,
      orderTerm,
      paginate: (limit, offset) => sql` OFFSET ${offset} ROWS FETCH NEXT ${limit} ROWS ONLY`,
      // T-SQL's UPDATE/DELETE name the alias and take the aliased table from FROM.
      updateStatement: (table, alias, assignments, where) => sql`UPDATE ${ident(alias)} SET ${assignments} FROM ${table} AS ${ident(alias)} WHERE ${where}`,
      deleteStatement: (table, alias, where) => sql`DELETE ${ident(alias)} FROM ${table} AS ${ident(alias)} WHERE ${where}`,
      addColumnStatement,
      dropColumnStatement,
      // T-SQL has no CREATE TABLE IF NOT EXISTS; OBJECT_ID takes the quoted two-part name as text.
      createTableIfMissing: (table, definition) => sql`IF OBJECT_ID(${renderSql(table).text}, 'U') IS NULL CREATE TABLE ${table} (${definition})`,
      sum,
      // float is float(53), the IEEE double.
      toDouble: (expr) => sql`CAST(${expr} AS float)`,
    },
    writer: {
      insert: (db: Executor, table: Sql, statement: InsertStatement) => runInsert(db, renderSql, table, statement),
      // MERGE matches on exactly the ON columns.
      upsert: (db: Executor, table: Sql, statement: UpsertStatement) => runUpsert(db, renderSql, table, statement),
      insertAndRead: (db: Executor, table: Sql, statement: InsertStatement, read: WrittenRowRead) => runInsertAndRead(db, renderSql, table, statement, read),
      updateAndRead: (db: Executor, table: Sql, update: UpdateStatement, read: WrittenRowRead) => runUpdateAndRead(db, renderSql, table, update, read),
    },
    introspector: {
      introspect: (db, schema) => introspectMssql(db, schema ?? 'dbo'),
      schemaExists: (db, schema) => mssqlSchemaExists(db, schema ?? 'dbo'),
      estimateRows,
    },
    errors: mapMssqlError,
    formula: mssqlFormula,
    // The driver (mssql/tedious, ~25 MB) loads only when a SQL Server workspace connects.
    connect: async (config: DatabaseConfig) => (await import('./mssql-driver.ts')).createMssqlDriver(config),
    urlProblem: mssqlUrlProblem,
  });
}

export const mssqlDialect = createMssqlDialect();
