/**
 * The Dialect interface: everything vendor-specific, and nothing else.
 *
 * A vendor is one folder under dialects/ implementing this interface and registered in
 * dialects/registry.ts. Shared code (core/, plugins/, server/) never asks which vendor it
 * runs on; it calls these hooks. See docs/dialects.md for a plugin author's guide.
 */
import type { CompiledSql, Sql, SqlRenderer } from '../core/sql.ts';
import type { ColumnType, DatabaseSchema } from '../core/schema/introspection.ts';
import type { FormulaDialect } from '../core/formula/formula-dialect.ts';

/** Where a workspace's data lives. */
export interface DatabaseConfig {
  readonly vendor: string;
  /** Connection URL; for the embedded vendor, ignored (the shared PGlite is used). */
  readonly url?: string;
  /** Schema (Postgres, SQL Server) that holds the workspace's tables. */
  readonly schema?: string;
  readonly poolSize?: number;
}

export interface QueryResult {
  readonly rows: Record<string, unknown>[];
  /** Rows inserted, updated or deleted by a write statement. */
  readonly affectedRows: number;
}

/** Runs rendered statements. A pool, a single connection or a transaction. */
export interface Executor {
  query(statement: CompiledSql): Promise<QueryResult>;
}

export interface Driver extends Executor {
  /** Runs `work` in one transaction on one connection; commits on success, rolls back on throw. */
  transaction<T>(work: (tx: Executor) => Promise<T>): Promise<T>;
  /** Cheap liveness check for /readyz. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** Service-level meaning of a database error. Anything unmapped is an internal error. */
export type DbErrorKind =
  | 'unique_violation'
  | 'foreign_key_violation'
  | 'not_null_violation'
  | 'check_violation'
  | 'invalid_value'
  | 'undefined_column'
  | 'undefined_function'
  | 'division_by_zero'
  | 'deadlock'
  | 'connection_lost';

export interface DbError {
  readonly kind: DbErrorKind;
  /** Constraint or column the database named, when it did. Never shown verbatim to clients. */
  readonly constraint?: string;
  readonly column?: string;
}

/** A single-table insert of one or more rows; values already coerced to column types. */
export interface InsertStatement {
  readonly table: string;
  readonly columns: readonly string[];
  readonly rows: readonly (readonly unknown[])[];
  /** Column whose generated values are wanted back (the primary key). */
  readonly returning: string;
}

export type ConflictAction = 'ERROR' | 'IGNORE' | 'UPDATE';

export interface UpsertStatement extends InsertStatement {
  readonly conflictColumns: readonly string[];
  readonly action: ConflictAction;
  /** Columns overwritten on UPDATE (never the conflict columns). */
  readonly updateColumns: readonly string[];
  /** The API type of each of `columns`, in the same order (a dialect may encode rows by type). */
  readonly columnTypes: readonly ColumnType[];
}

export interface UpsertOutcome {
  readonly inserted: number;
  readonly updated: number;
  readonly ignored: number;
}

export interface Dialect extends SqlRenderer {
  /** Registry name used in workspace configs: 'postgres', 'mysql', 'mssql', 'embedded'. */
  readonly name: string;

  /**
   * Whether a workspace must give `database.url`. False for a dialect over a database the service
   * holds itself (the embedded PGlite); true for every server vendor.
   */
  readonly needsUrl: boolean;

  /** Quotes one identifier part, doubling the closing quote character. */
  quoteIdent(name: string): string;

  /** Placeholder for the 1-based parameter `index` ($1, ?, @p1). */
  placeholder(index: number): string;

  /** Opens a pool (or the embedded database) for `config`. */
  connect(config: DatabaseConfig): Promise<Driver>;

  /** Reads tables, columns, keys and foreign keys of the configured schema. */
  introspect(db: Executor, config: DatabaseConfig): Promise<DatabaseSchema>;

  /** The table reference for `table` in the configured schema, e.g. "public"."orders". */
  tableRef(table: string, config: DatabaseConfig): Sql;

  /**
   * The tail after ORDER BY that returns `limit` rows from `offset`. The caller always emits
   * an ORDER BY first (SQL Server's OFFSET/FETCH requires one).
   */
  paginate(limit: number, offset: number): Sql;

  /** One ORDER BY term. NULLs must sort last ascending and first descending on every vendor. */
  orderTerm(expr: Sql, direction: 'asc' | 'desc'): Sql;

  /**
   * `expr LIKE pattern` with `\` as the escape character; case-insensitive when asked,
   * independent of the column's collation.
   */
  like(expr: Sql, pattern: Sql, caseInsensitive: boolean): Sql;

  /** A boolean-valued predicate used in value position (SQL Server has no boolean values). */
  predicateAsValue(predicate: Sql): Sql;

  /** Converts a coerced JS value into what the driver binds for a column of `type`. */
  encodeValue(type: ColumnType, value: unknown): unknown;

  /**
   * UPDATE of `table` aliased as `alias`, so that `where` can use qualified columns;
   * `assignments` are `"column" = value` pairs with unqualified column names.
   */
  updateStatement(table: Sql, alias: string, assignments: Sql, where: Sql): Sql;

  /** DELETE from `table` aliased as `alias`, rows chosen by `where` (qualified columns). */
  deleteStatement(table: Sql, alias: string, where: Sql): Sql;

  /** `ALTER TABLE … ADD` of a nullable column of the neutral `type` (physical view columns). */
  addColumnStatement(table: Sql, column: string, type: ColumnType): Sql;

  /** `ALTER TABLE … DROP COLUMN`. */
  dropColumnStatement(table: Sql, column: string): Sql;

  /** Runs an INSERT and returns the `returning` column's values, in row order. */
  insert(db: Executor, statement: InsertStatement, config: DatabaseConfig): Promise<unknown[]>;

  /** Runs an upsert on exactly `conflictColumns` and reports what happened to the rows. */
  upsert(db: Executor, statement: UpsertStatement, config: DatabaseConfig): Promise<UpsertOutcome>;

  /**
   * True when the vendor's upsert matches on any unique key of the table rather than only the
   * named conflict columns (MySQL `ON DUPLICATE KEY UPDATE`); bulk results then carry a warning.
   */
  readonly upsertMatchesAnyUniqueKey: boolean;

  /**
   * True when the driver hands json columns over as JSON text (mysql2 with jsonStrings, tedious);
   * false when it hands over the parsed value (pg, PGlite), which must not be parsed again: the
   * JSON string "123" would read back as the number 123.
   */
  readonly jsonArrivesAsText: boolean;

  /** Largest number of bound parameters one statement may carry. */
  readonly maxParams: number;

  /** The planner's row estimate for a SELECT, or null when the vendor cannot tell. */
  estimateRows(db: Executor, select: CompiledSql): Promise<number | null>;

  /** Maps a driver error to a service error kind, or null when it means nothing to clients. */
  mapError(error: unknown): DbError | null;

  /** Function, operator and CAST emission for formulas. */
  readonly formula: FormulaDialect;

  /**
   * `CREATE TABLE` of `table` in the configured schema with `definition` (columns of standard
   * types and a PRIMARY KEY), doing nothing when the table exists already. The CSV import keeps
   * its per-batch markers in such a table of the workspace database (core/import/markers.ts).
   */
  createTableIfMissing(table: string, definition: Sql, config: DatabaseConfig): Sql;

  // ── Checks before DDL and before a workspace is saved (admin API) ──────────────────────

  /**
   * The longest identifier the vendor keeps whole, and what it counts. Names are checked against
   * it before any DDL: PostgreSQL truncates a longer name silently. PostgreSQL 63 bytes
   * (NAMEDATALEN − 1, manual §4.1.1); MySQL/MariaDB 64 characters (MySQL manual §11.2.1);
   * SQL Server 128 characters (sysname). `characters` are UTF-16 code units.
   */
  readonly maxIdentifierLength: { readonly limit: number; readonly unit: 'bytes' | 'characters' };

  /** True when the configured schema (PostgreSQL, SQL Server) or database (MySQL) exists. */
  schemaExists(db: Executor, config: DatabaseConfig): Promise<boolean>;

  /** Why `url` cannot be this vendor's connection string, or null; checked before connecting. */
  urlProblem(url: string): string | null;
}

/**
 * The dialects a service knows, by vendor name (`database.vendor`). Built once at start-up by the
 * server; core only looks dialects up.
 */
export interface DialectRegistry {
  /** The dialect of `vendor`; an unknown vendor is a 400 naming `database.vendor`. */
  get(vendor: string): Dialect;
  readonly vendors: readonly string[];
}
