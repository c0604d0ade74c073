/**
 * The Dialect interface: everything vendor-specific, and nothing else.
 *
 * A vendor is one folder under dialects/ whose `defineDialect(...)` result is registered with one
 * line in server/dialect-registry.ts. Shared code (core/, plugins/, server/) never asks which vendor it
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
  /**
   * The time limit of one statement in ms (STATEMENT_TIMEOUT_MS); past it the driver throws
   * core's `queryTimeout` (503 QUERY_TIMEOUT). Absent: no limit.
   */
  readonly statementTimeoutMs?: number;
  /** The time limit of a streamed export's statement (`stream`, `csvCopy`) in ms (EXPORT_STATEMENT_TIMEOUT_MS). Absent: `statementTimeoutMs`. */
  readonly exportStatementTimeoutMs?: number;
}

/** What one statement runs with. */
export interface QueryOptions {
  /**
   * Aborted when nobody wants the answer any more (the HTTP client went away): a statement
   * still waiting for a connection gives up the wait and never runs, a running one is cancelled
   * on the database. The promise then rejects. Absent: the statement runs to its end.
   */
  readonly signal?: AbortSignal | undefined;
}

export interface QueryResult {
  readonly rows: Record<string, unknown>[];
  /** Rows inserted, updated or deleted by a write statement. */
  readonly affectedRows: number;
}

/** Runs rendered statements. A pool, a single connection or a transaction. */
export interface Executor {
  query(statement: CompiledSql, options?: QueryOptions): Promise<QueryResult>;
}

/** A SELECT's rows in batches, read as the consumer pulls (DESIGN §14 "Export"). */
export type RowBatches = AsyncIterable<Record<string, unknown>[]>;

/** One output column of a CSV export that the database writes itself (`Driver.csvCopy`). */
export interface CsvCopyColumn {
  /** The column's alias in the statement's select list. */
  readonly alias: string;
  readonly type: ColumnType;
  /** Aliases in the same select list (an expanded row's key) whose NULL makes this cell empty: the row is missing or hidden. */
  readonly emptyWhenNull: readonly string[];
}

/** A connection pool's state at one moment (for the metrics). */
export interface PoolStats {
  /** Connections open, busy or idle. */
  readonly total: number;
  readonly idle: number;
  /** Requests queued for a connection. */
  readonly waiting: number;
}

export interface Driver extends Executor {
  /**
   * Optional: the rows of one SELECT in batches of at most `batchRows`, through a database cursor
   * or driver stream with backpressure, so memory stays flat whatever the row count. Ending the
   * iteration early (the consumer's `return()`, a client gone) stops the statement on the server
   * and frees its connection. So does `options.signal`, also while the consumer is not pulling
   * (backpressure) and while the stream still waits for a connection. Absent: core reads keyset batches (core/query/export.ts).
   */
  stream?(statement: CompiledSql, batchRows: number, options?: QueryOptions): RowBatches;
  /**
   * Optional: the CSV export's data rows written by the database itself (PostgreSQL's COPY), the
   * exact bytes core would write from `stream`'s rows: each cell the text core/query/export-cells.ts
   * makes of the value, a null an empty unquoted cell, an empty string `""`, a cell holding a
   * comma, a double quote, CR or LF quoted (quotes doubled), nothing else quoted, every record
   * ending CRLF; no header. `statement` is the unpaged SELECT (any columns besides `columns` are
   * not written), read with the same backpressure and early end as `stream`. Null when a column's
   * type has no exact text in the vendor's SQL: core then writes the rows itself. Absent: always so.
   * A chunk's memory may be read into again once the next chunk is asked for: a consumer that keeps
   * a chunk longer (a write the socket has not taken yet) copies it. `options.signal` as for `stream`.
   */
  csvCopy?(statement: CompiledSql, columns: readonly CsvCopyColumn[], options?: QueryOptions): AsyncIterable<Uint8Array> | null;
  /** Runs `work` in one transaction on one connection; commits on success, rolls back on throw. */
  transaction<T>(work: (tx: Executor) => Promise<T>): Promise<T>;
  /** Cheap liveness check for /readyz. */
  ping(): Promise<void>;
  close(): Promise<void>;
  /** Optional: the pool's state, read by GET /metrics. Absent: the driver keeps no pool it can report. */
  poolStats?(): PoolStats;
}

/** Service-level meaning of a database error. Anything unmapped is an internal error. */
export type DbErrorKind =
  | 'unique_violation'
  | 'foreign_key_violation'
  | 'not_null_violation'
  | 'check_violation'
  | 'invalid_value'
  | 'undefined_column'
  /** A table the statement names is gone (dropped or renamed behind the service's back). */
  | 'undefined_table'
  | 'undefined_function'
  | 'division_by_zero'
  | 'deadlock'
  | 'connection_lost'
  /** The statement ran past its time limit (PostgreSQL 57014 from statement_timeout, MariaDB 1969, MySQL 3024, tedious ETIMEOUT). */
  | 'statement_timeout';

/** Why a connection could not be made, as far as the driver tells (`connection_lost` only). */
export type ConnectionCause = 'host_not_found' | 'connection_refused' | 'authentication_failed' | 'database_missing' | 'timeout';

export interface DbError {
  readonly kind: DbErrorKind;
  /** `connection_lost`: the class of cause, when the driver's code tells it. */
  readonly connection?: ConnectionCause;
  /** Constraint or column the database named, when it did. Never shown verbatim to clients. */
  readonly constraint?: string;
  readonly column?: string;
  /** Table the database named (`undefined_table`), possibly schema-qualified. Never shown verbatim. */
  readonly table?: string;
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

/** Why a dialect needs no `if` in core: what it can and cannot do, as flags with defaults. */
export interface DialectCapabilities {
  /**
   * Whether a workspace must give `database.url`. False for a dialect over a database the service
   * holds itself (the embedded PGlite). Default true.
   */
  readonly needsUrl: boolean;
  /** Largest number of bound parameters one statement may carry. Default 65535 (PostgreSQL, MySQL). */
  readonly maxParams: number;
  /**
   * A 64-bit integer column the database numbers itself on insert, in the service's own tables of
   * the workspace database (the change events' arrival order). Default the standard
   * `bigint GENERATED BY DEFAULT AS IDENTITY`.
   */
  readonly identityColumn: string;
  /**
   * True when the vendor's upsert matches on any unique key of the table rather than only the
   * named conflict columns (MySQL `ON DUPLICATE KEY UPDATE`); bulk results then carry a warning.
   * Default false.
   */
  readonly upsertMatchesAnyUniqueKey: boolean;
  /**
   * True when the driver hands json columns over as JSON text (mysql2 with jsonStrings, tedious);
   * false when it hands over the parsed value (pg, PGlite), which must not be parsed again: the
   * JSON string "123" would read back as the number 123. Default true.
   */
  readonly jsonArrivesAsText: boolean;
  /**
   * The longest identifier the vendor keeps whole, and what it counts. Names are checked against
   * it before any DDL: PostgreSQL truncates a longer name silently. PostgreSQL 63 bytes
   * (NAMEDATALEN − 1, manual §4.1.1); MySQL/MariaDB 64 characters (MySQL manual §11.2.1);
   * SQL Server 128 characters (sysname). `characters` are UTF-16 code units. Default 63 bytes,
   * the smallest of the three.
   */
  readonly maxIdentifierLength: { readonly limit: number; readonly unit: 'bytes' | 'characters' };
}

/**
 * How a vendor spells SQL. `quoteIdent`, `placeholder`, `like` and `columnType` are the vendor's
 * own; the rest default to standard SQL (dialects/standard-sql.ts), which PostgreSQL and MySQL
 * mostly reuse.
 */
export interface SqlSpelling extends SqlRenderer {
  /** Quotes one identifier part, doubling the closing quote character. */
  quoteIdent(name: string): string;

  /** Placeholder for the 1-based parameter `index` ($1, ?, @p1). */
  placeholder(index: number): string;

  /** The reference of `table` in `schema` (none: the connection's default), e.g. "public"."orders". */
  tableRef(schema: string | undefined, table: string): Sql;

  /**
   * The tail after ORDER BY that returns `limit` rows from `offset`. The caller always emits
   * an ORDER BY first (SQL Server's OFFSET/FETCH requires one). Default `LIMIT n OFFSET m`.
   */
  paginate(limit: number, offset: number): Sql;

  /**
   * One ORDER BY term. NULLs must sort last ascending and first descending on every vendor.
   * `nullable` false promises that `expr` is never NULL (a root column declared NOT NULL, every
   * primary key): then the term must be the plain `expr ASC` / `expr DESC`, the form every
   * vendor serves from an index. Default for a nullable term `NULLS LAST` /
   * `NULLS FIRST` (SQL:2003).
   */
  orderTerm(expr: Sql, direction: 'asc' | 'desc', nullable: boolean): Sql;

  /**
   * `expr LIKE pattern` with `\` as the escape character; case-insensitive when asked,
   * independent of the column's collation.
   */
  like(expr: Sql, pattern: Sql, caseInsensitive: boolean): Sql;

  /**
   * Converts a coerced JS value into what the driver binds for a column of `type`. Default: json
   * as JSON text, a Date as ISO text, anything else as it is. A timestamp arrives as ISO UTC text
   * (`…T10:00:00.123Z`); a cursor's key may carry up to nine fractional digits
   * (`…T10:00:00.123456Z`, see `exactText`), and every one of them must be bound.
   */
  encodeValue(type: ColumnType, value: unknown): unknown;

  /**
   * A cursor's sort key `expr` of `type` as the page statement reads it: in a form whose driver
   * value keeps every digit the database compares on, so that seeking after it neither repeats nor
   * skips a row (core/query/cursor.ts). Timestamps as text with all their fractional digits (ISO
   * or `YYYY-MM-DD HH:MM:SS.ffffff`, UTC or with an offset); anything the driver hands over
   * whole stays `expr`. Only the select list uses it: the seek compares `expr` itself. The export
   * also reads its output timestamps through it (core/query/export-cells.ts cuts the text to the
   * wire form without a Date). Default `expr` for every type.
   */
  exactText(expr: Sql, type: ColumnType): Sql;

  /** The native type of a column created through the API for the neutral `type`; fixed text, never input. */
  columnType(type: ColumnType): string;

  /**
   * UPDATE of `table` aliased as `alias`, so that `where` can use qualified columns;
   * `assignments` are `"column" = value` pairs with unqualified column names.
   * Default `UPDATE t AS a SET … WHERE …`.
   */
  updateStatement(table: Sql, alias: string, assignments: Sql, where: Sql): Sql;

  /** DELETE from `table` aliased as `alias`, rows chosen by `where`. Default `DELETE FROM t AS a WHERE …`. */
  deleteStatement(table: Sql, alias: string, where: Sql): Sql;

  /** `ALTER TABLE … ADD` of a nullable column of `columnType(type)` (physical view columns). */
  addColumnStatement(table: Sql, column: string, type: ColumnType): Sql;

  /** `ALTER TABLE … DROP COLUMN`. */
  dropColumnStatement(table: Sql, column: string): Sql;

  /**
   * `CREATE TABLE` of `table` with `definition` (columns of standard types and a PRIMARY KEY),
   * doing nothing when the table exists already. The CSV import keeps its per-batch markers in
   * such a table of the workspace database (core/import/markers.ts). Default `CREATE TABLE IF NOT EXISTS`.
   */
  createTableIfMissing(table: Sql, definition: Sql): Sql;

  /**
   * The sum of numeric values of `type` (aggregates, DESIGN §14), the same number on every vendor:
   * integers and decimals exactly (neither overflowing the column's type nor rounding), doubles
   * (`float`, and every computed number) as the exact sum of each value reduced to 15 significant
   * digits, the formulas' exact step, so that the order of summation cannot change the last bits.
   * Default `SUM(expr)`, and `SUM(CAST(expr AS NUMERIC))` for doubles (a vendor whose double →
   * numeric cast keeps 15 significant digits; PostgreSQL and MySQL use their formula's `exact`).
   */
  sum(expr: Sql, type: ColumnType): Sql;

  /** `expr` as an IEEE double (aggregates' `avg`). Default `CAST(expr AS DOUBLE PRECISION)`. */
  toDouble(expr: Sql): Sql;
}

/**
 * The read of a row a create or an update has just written, in the shape of the record endpoints
 * (default view, `fields`, `expand`, computed columns, row policy), built by core
 * (core/query/written-row.ts) for a vendor to put in the same round trip as the write.
 * Its select list also carries the row's key and, when the policy or the request's filters hide
 * rows, a 1/0 visibility column: it has no WHERE of its own, so that a written row the caller cannot
 * read answers 404 naming its key, as a second SELECT would. Vendors pass the rows through as they come.
 */
export interface WrittenRowRead {
  /** `SELECT … FROM relation AS t0 LEFT JOIN …`: `relation` (a CTE's name) holds the written row with every column of the table. */
  over(relation: Sql): Sql;
  /** `SELECT … FROM table AS t0 LEFT JOIN … WHERE t0.key = key`: the table read again, later in the same batch. */
  byKey(key: Sql): Sql;
  /**
   * The select list alone, each column qualified by `table` (for `INSERT … RETURNING`); null when
   * the shape reads another table (a join, a filter through a one-to-many relationship).
   */
  ownColumns(table: Sql): Sql | null;
  /** The key column and its native type as the catalog spells it. */
  readonly key: { readonly column: string; readonly nativeType: string };
  /**
   * True when the shape reads the written table itself (a self-referencing expansion): a
   * statement-level snapshot (PostgreSQL's CTE) would show that row as it was before the write.
   */
  readonly readsWrittenTable: boolean;
}

/** An UPDATE of one row by key, in the parts each vendor arranges (`SqlSpelling.updateStatement`). */
export interface UpdateStatement {
  readonly table: string;
  readonly alias: string;
  /** `"column" = value` pairs with unqualified column names. */
  readonly assignments: Sql;
  /** The row policy and the key, qualified by `alias`. */
  readonly where: Sql;
  /** The row's key, encoded for the driver. */
  readonly key: unknown;
}

/** Statements that must run to count their outcomes; the vendor's own (no standard spelling exists). */
export interface DialectWriter {
  /** Runs an INSERT into `table` and returns the `returning` column's values, in row order. */
  insert(db: Executor, table: Sql, statement: InsertStatement): Promise<unknown[]>;

  /** Runs an upsert on exactly `conflictColumns` and reports what happened to the rows. */
  upsert(db: Executor, table: Sql, statement: UpsertStatement): Promise<UpsertOutcome>;

  /**
   * Optional: inserts the ONE row of `statement` and answers the rows of `read` over it, in one
   * round trip. Null when this server cannot for this read (core then inserts and reads back with a
   * second statement). Absent: always null.
   */
  insertAndRead?(db: Executor, table: Sql, statement: InsertStatement, read: WrittenRowRead): Promise<Record<string, unknown>[] | null>;

  /** Optional: runs `update` and answers the rows of `read` over the row, in one round trip; null as for `insertAndRead`. */
  updateAndRead?(db: Executor, table: Sql, update: UpdateStatement, read: WrittenRowRead): Promise<Record<string, unknown>[] | null>;
}

/** What the database says about itself. */
export interface DialectIntrospector {
  /** Reads tables, columns, keys and foreign keys of `schema` (none: the connection's default). */
  introspect(db: Executor, schema: string | undefined): Promise<DatabaseSchema>;

  /**
   * True when `schema` (PostgreSQL, SQL Server) or the database (MySQL) exists. Default: a look in
   * `information_schema.schemata`, which all three vendors have.
   */
  schemaExists(db: Executor, schema: string | undefined): Promise<boolean>;

  /**
   * The planner's row estimate for `select`, whose driving table is `rootTable`, or null when the
   * vendor cannot tell. Default null (count=estimated then answers an exact count).
   */
  estimateRows(db: Executor, select: CompiledSql, rootTable: Sql): Promise<number | null>;
}

/** Maps a driver error to a service error kind, or null when it means nothing to clients. */
export type ErrorMapper = (error: unknown) => DbError | null;

/**
 * A vendor, in parts (the way Kysely splits driver, compiler, adapter and introspector). Write one
 * with `defineDialect` (dialects/define-dialect.ts), which fills every part that has a default.
 */
export interface Dialect {
  /** Registry name used in workspace configs: 'postgres', 'mysql', 'mssql', 'embedded'. */
  readonly name: string;
  /** The schema used when a workspace names none ('public', 'dbo'); undefined: the connection's database. */
  readonly defaultSchema: string | undefined;
  readonly capabilities: DialectCapabilities;
  readonly sql: SqlSpelling;
  readonly writer: DialectWriter;
  readonly introspector: DialectIntrospector;
  /** Maps a driver error to a service error kind. */
  readonly errors: ErrorMapper;
  /** Function, operator and CAST emission for formulas. */
  readonly formula: FormulaDialect;

  /** Opens a pool (or the embedded database) for `config`. */
  connect(config: DatabaseConfig): Promise<Driver>;

  /** Why `url` cannot be this vendor's connection string, or null; checked before connecting. */
  urlProblem(url: string): string | null;

  /** The dialect with one workspace's schema applied: what query, write and import code hold. */
  bind(config: DatabaseConfig): BoundDialect;
}

/**
 * A dialect bound to one workspace's database settings, so that no statement-building code passes
 * `DatabaseConfig` around: table references, writes and catalog reads already know the schema.
 */
export interface BoundDialect {
  readonly name: string;
  readonly capabilities: DialectCapabilities;
  readonly sql: SqlSpelling;
  readonly formula: FormulaDialect;
  readonly mapError: ErrorMapper;
  tableRef(table: string): Sql;
  insert(db: Executor, statement: InsertStatement): Promise<unknown[]>;
  upsert(db: Executor, statement: UpsertStatement): Promise<UpsertOutcome>;
  /** The writer's `insertAndRead`, null where the vendor has none. */
  insertAndRead(db: Executor, statement: InsertStatement, read: WrittenRowRead): Promise<Record<string, unknown>[] | null>;
  /** The writer's `updateAndRead`, null where the vendor has none. */
  updateAndRead(db: Executor, update: UpdateStatement, read: WrittenRowRead): Promise<Record<string, unknown>[] | null>;
  introspect(db: Executor): Promise<DatabaseSchema>;
  schemaExists(db: Executor): Promise<boolean>;
  estimateRows(db: Executor, select: CompiledSql, rootTable: string): Promise<number | null>;
  createTableIfMissing(table: string, definition: Sql): Sql;
}

/** A workspace database as query and write code use it: the bound dialect and the pool. */
export interface Database {
  readonly dialect: BoundDialect;
  readonly driver: Driver;
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
