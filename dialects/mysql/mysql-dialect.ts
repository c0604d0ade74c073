/**
 * The MySQL / MariaDB dialect (MySQL 8, MariaDB 10.11). One registry name, 'mysql', for both:
 * the few differences (upsert row alias, INSERT … RETURNING, JSON as LONGTEXT) are decided per
 * server from its VERSION(), read once per pool.
 */
import { ident, render, sql, type CompiledSql, type Sql } from '../../core/sql.ts';
import type { ColumnType } from '../../core/schema/introspection.ts';
import type { DatabaseConfig, Dialect, Executor, InsertStatement, UpsertStatement, WrittenRowRead } from '../dialect.ts';
import { defineDialect } from '../define-dialect.ts';
import { plainOrderTerm } from '../standard-sql.ts';
import { mapMysqlError } from './mysql-errors.ts';
import { mysqlFormula, mysqlOwnFormula } from './mysql-formula.ts';
import { introspectMysql, mysqlSchemaExists } from './mysql-introspector.ts';
import { urlProblem } from '../connection-url.ts';
import { runInsert, runInsertAndRead, runUpsert, serverOf } from './mysql-upsert.ts';

function quoteIdent(name: string): string {
  return `\`${name.replace(/`/g, '``')}\``;
}

function placeholder(): string {
  return '?';
}

const renderer = { quoteIdent, placeholder };
const renderSql = (fragment: Sql): CompiledSql => render(fragment, renderer);

/**
 * Native types of added (physical view) columns. uuid is char(36): MariaDB 10.7+ has a UUID
 * type, MySQL does not, and the statement is built without asking the server.
 */
const COLUMN_TYPES: Partial<Record<ColumnType, string>> = {
  integer: 'int', bigint: 'bigint', decimal: 'decimal(18,6)', float: 'double', boolean: 'tinyint(1)',
  date: 'date', timestamp: 'datetime(3)', time: 'time', uuid: 'char(36)', text: 'longtext', json: 'json', binary: 'longblob',
};

function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0');
}

/** 'YYYY-MM-DD HH:MM:SS.fff' in UTC: the literal form DATETIME(3) and TIMESTAMP(3) accept. */
function timestampText(value: Date): string {
  return (
    `${pad(value.getUTCFullYear(), 4)}-${pad(value.getUTCMonth() + 1)}-${pad(value.getUTCDate())} ` +
    `${pad(value.getUTCHours())}:${pad(value.getUTCMinutes())}:${pad(value.getUTCSeconds())}.${pad(value.getUTCMilliseconds(), 3)}`
  );
}

/** ISO UTC text with any number of fractional digits (a cursor's exact key), as DATETIME(6) text. */
const ISO_UTC = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?)Z$/;

function encodeValue(type: ColumnType, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  switch (type) {
    case 'json':
      return JSON.stringify(value);
    case 'boolean':
      return typeof value === 'boolean' ? (value ? 1 : 0) : value;
    case 'timestamp': {
      // Core hands over ISO text with a zone; sessions run in UTC, so UTC text is the instant.
      // Rewritten, not parsed, so that microseconds survive (a Date would stop at milliseconds).
      const iso = typeof value === 'string' ? ISO_UTC.exec(value) : null;
      if (iso) return `${iso[1]} ${iso[2]}`;
      const date = value instanceof Date ? value : typeof value === 'string' ? new Date(value) : null;
      return date && !Number.isNaN(date.getTime()) ? timestampText(date) : value;
    }
    default:
      if (typeof value === 'boolean') return value ? 1 : 0;
      return value instanceof Date ? timestampText(value) : value;
  }
}

/**
 * `CAST(expr AS CHAR CHARACTER SET utf8mb4)` makes any column (numbers, dates, other charsets)
 * text for LIKE. A LIKE under the column's collation would follow it (`_ci` collations ignore
 * case and accents), so the comparison is forced to utf8mb4_bin: code points, as PostgreSQL
 * compares; case-insensitive matching lowers both sides first. The SQL text must read `'\\\\'`
 * (backslash is MySQL's string escape too; sessions never run NO_BACKSLASH_ESCAPES).
 */
function like(expr: Sql, pattern: Sql, caseInsensitive: boolean): Sql {
  const text = sql`CAST(${expr} AS CHAR CHARACTER SET utf8mb4)`;
  // The template's `\\\\` is two backslashes of SQL text: the string literal '\\' holds one.
  return caseInsensitive
    ? sql`LOWER(${text}) COLLATE utf8mb4_bin LIKE LOWER(${pattern}) ESCAPE '\\\\'`
    : sql`${text} COLLATE utf8mb4_bin LIKE ${pattern} ESCAPE '\\\\'`;
}

/**
 * EXPLAIN's `rows` per table of the top-level SELECT, times `filtered`% where reported (MySQL;
 * MariaDB's plain EXPLAIN has no such column), multiplied over the joined tables. The reads
 * core issues join many-to-one (eq_ref: 1 row per row), so the product is the driving table's
 * estimate even when the optimizer reorders the joins.
 */
async function estimateRows(db: Executor, select: CompiledSql): Promise<number | null> {
  const result = await db.query({ text: `EXPLAIN ${select.text}`, params: select.params });
  const top = result.rows.filter((row) => String(row.id ?? '1') === '1');
  if (top.length === 0) return null;
  let estimate = 1;
  for (const row of top) {
    const rows = Number(row.rows);
    if (!Number.isFinite(rows)) return null;
    const filtered = row.filtered == null ? 100 : Number(row.filtered);
    estimate *= rows * (Number.isFinite(filtered) ? filtered / 100 : 1);
  }
  return estimate;
}

/**
 * MySQL sorts NULL first ascending and has no NULLS LAST: a nullable term sorts on "is null"
 * first. That leading expression keeps any index from serving the sort (a filesort of every
 * row), so a term that cannot be NULL is the plain one.
 */
function orderTerm(expr: Sql, direction: 'asc' | 'desc', nullable: boolean): Sql {
  if (!nullable) return plainOrderTerm(expr, direction);
  return direction === 'asc' ? sql`${expr} IS NULL, ${expr} ASC` : sql`${expr} IS NOT NULL, ${expr} DESC`;
}

export function createMysqlDialect(name = 'mysql'): Dialect {
  return defineDialect({
    name,
    capabilities: {
      // ON DUPLICATE KEY UPDATE has no conflict target: any primary or unique key fires it.
      upsertMatchesAnyUniqueKey: true,
      identityColumn: 'bigint AUTO_INCREMENT',
      // Column names up to 64 characters; longer is an error (MySQL manual §11.2.1, MariaDB "Identifier Names").
      maxIdentifierLength: { limit: 64, unit: 'characters' },
    },
    sql: {
      quoteIdent,
      placeholder,
      columnType: (type) => COLUMN_TYPES[type] ?? 'longtext',
      like,
      encodeValue,
      // mysql2 already hands DATETIME over as text; the explicit format also covers computed keys.
      exactText: (expr, type) => (type === 'timestamp' ? sql`DATE_FORMAT(${expr}, '%Y-%m-%d %H:%i:%s.%f')` : expr),
      orderTerm,
      // A single-table DELETE takes no alias; the multi-table form names the alias to delete from.
      deleteStatement: (table, alias, where) => sql`DELETE ${ident(alias)} FROM ${table} AS ${ident(alias)} WHERE ${where}`,
      // Doubles through the formulas' exact decimal of 15 significant digits (DECIMAL(65,30)).
      sum: (expr, type) => (type === 'float' ? sql`SUM(${mysqlOwnFormula.exact(expr)})` : sql`SUM(${expr})`),
      // CAST takes DOUBLE, not DOUBLE PRECISION (MySQL 8.0.17+, MariaDB 10.4.5+).
      toDouble: (expr) => sql`CAST(${expr} AS DOUBLE)`,
    },
    writer: {
      insert: async (db: Executor, table: Sql, statement: InsertStatement) => runInsert(db, renderSql, table, statement, await serverOf(db)),
      upsert: (db: Executor, table: Sql, statement: UpsertStatement) => runUpsert(db, renderSql, table, statement),
      insertAndRead: (db: Executor, table: Sql, statement: InsertStatement, read: WrittenRowRead) => runInsertAndRead(db, renderSql, table, statement, read),
    },
    introspector: { introspect: introspectMysql, schemaExists: mysqlSchemaExists, estimateRows },
    errors: mapMysqlError,
    formula: mysqlFormula,
    // mysql2 loads with the first MySQL workspace, not with the service.
    connect: async (config: DatabaseConfig) => (await import('./mysql-driver.ts')).createMysqlDriver(config),
    urlProblem: (url) => urlProblem(url, ['mysql:', 'mariadb:'], 'mysql://user:password@host:3306/database'),
  });
}

export const mysqlDialect = createMysqlDialect();
