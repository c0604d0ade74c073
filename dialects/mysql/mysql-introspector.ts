/**
 * Reads one database of a MySQL 8 / MariaDB server into the vendor-neutral DatabaseSchema.
 * Five information_schema queries (six on MariaDB), run together, whatever the table count.
 *
 * The database is `config.schema` when set, else the connection's (DATABASE()). Every column is
 * aliased in lower case: MySQL 8 returns information_schema column names in upper case.
 */
import type { Executor } from '../dialect.ts';
import type {
  ColumnInfo,
  ColumnType,
  DatabaseSchema,
} from '../../core/schema/introspection.ts';
import { assembleSchema, cellNumber, cellText, estimateOf } from '../../core/schema/catalog-rows.ts';

type Row = Record<string, unknown>;

const DB = 'COALESCE(?, DATABASE())';

/** TABLE_ROWS is InnoDB's estimate (MySQL 8 caches it, information_schema_stats_expiry). */
const TABLES = `
  SELECT TABLE_NAME AS table_name, TABLE_ROWS AS table_rows
  FROM information_schema.TABLES
  WHERE TABLE_SCHEMA = ${DB} AND TABLE_TYPE IN ('BASE TABLE', 'SYSTEM VERSIONED')
  ORDER BY TABLE_NAME`;

const COLUMNS = `
  SELECT TABLE_NAME AS table_name, COLUMN_NAME AS column_name, ORDINAL_POSITION AS ordinal,
         DATA_TYPE AS data_type, COLUMN_TYPE AS column_type, IS_NULLABLE AS is_nullable,
         CHARACTER_MAXIMUM_LENGTH AS max_length, NUMERIC_PRECISION AS numeric_precision,
         NUMERIC_SCALE AS numeric_scale, COLUMN_DEFAULT AS default_value, EXTRA AS extra
  FROM information_schema.COLUMNS
  WHERE TABLE_SCHEMA = ${DB}
  ORDER BY TABLE_NAME, ORDINAL_POSITION`;

/**
 * Unique indexes (the primary key is the index named PRIMARY), one row per key column.
 * Indexes with a prefix part (SUB_PART) or a functional part (no COLUMN_NAME, MySQL 8.0.13+)
 * are left out: they do not make the whole column list unique. The primary key comes first.
 */
const UNIQUE_KEYS = `
  SELECT s.TABLE_NAME AS table_name, s.INDEX_NAME AS key_name, s.SEQ_IN_INDEX AS ord, s.COLUMN_NAME AS column_name
  FROM information_schema.STATISTICS s
  WHERE s.TABLE_SCHEMA = ${DB} AND s.NON_UNIQUE = 0
    AND NOT EXISTS (
      SELECT 1 FROM information_schema.STATISTICS p
      WHERE p.TABLE_SCHEMA = s.TABLE_SCHEMA AND p.TABLE_NAME = s.TABLE_NAME AND p.INDEX_NAME = s.INDEX_NAME
        AND (p.SUB_PART IS NOT NULL OR p.COLUMN_NAME IS NULL))
  ORDER BY s.TABLE_NAME, s.INDEX_NAME <> 'PRIMARY', s.INDEX_NAME, s.SEQ_IN_INDEX`;

/** Foreign keys to tables of the same database, one row per column pair in key order. */
const FOREIGN_KEYS = `
  SELECT k.TABLE_NAME AS table_name, k.CONSTRAINT_NAME AS fk_name, k.ORDINAL_POSITION AS ord,
         k.COLUMN_NAME AS column_name, k.REFERENCED_TABLE_NAME AS ref_table, k.REFERENCED_COLUMN_NAME AS ref_column
  FROM information_schema.KEY_COLUMN_USAGE k
  JOIN information_schema.REFERENTIAL_CONSTRAINTS r
    ON r.CONSTRAINT_SCHEMA = k.CONSTRAINT_SCHEMA AND r.CONSTRAINT_NAME = k.CONSTRAINT_NAME AND r.TABLE_NAME = k.TABLE_NAME
  WHERE k.TABLE_SCHEMA = ${DB} AND k.REFERENCED_TABLE_SCHEMA = k.TABLE_SCHEMA
  ORDER BY k.TABLE_NAME, k.CONSTRAINT_NAME, k.ORDINAL_POSITION`;

/**
 * MariaDB's JSON is an alias of LONGTEXT with a `json_valid(col)` CHECK constraint
 * ("JSON Data Type" in the MariaDB docs); the constraint is what tells it from plain text.
 */
const JSON_CHECKS = `
  SELECT TABLE_NAME AS table_name, CHECK_CLAUSE AS check_clause
  FROM information_schema.CHECK_CONSTRAINTS
  WHERE CONSTRAINT_SCHEMA = ${DB} AND CHECK_CLAUSE LIKE 'json\\_valid(%'`;

const TYPE_MAP: Record<string, ColumnType> = {
  tinyint: 'integer',
  smallint: 'integer',
  mediumint: 'integer',
  int: 'integer',
  integer: 'integer',
  year: 'integer',
  bigint: 'bigint',
  decimal: 'decimal',
  numeric: 'decimal',
  float: 'float',
  double: 'float',
  real: 'float',
  date: 'date',
  datetime: 'timestamp',
  timestamp: 'timestamp',
  time: 'time',
  char: 'text',
  varchar: 'text',
  tinytext: 'text',
  text: 'text',
  mediumtext: 'text',
  longtext: 'text',
  enum: 'text',
  set: 'text',
  inet4: 'text',
  inet6: 'text',
  json: 'json',
  uuid: 'uuid',
  binary: 'binary',
  varbinary: 'binary',
  tinyblob: 'binary',
  blob: 'binary',
  mediumblob: 'binary',
  longblob: 'binary',
};

/** True when the database `schema` (undefined: the connection's) exists; MySQL's schema is a database. */
export async function mysqlSchemaExists(db: Executor, schema: string | undefined): Promise<boolean> {
  const text = `SELECT 1 AS found FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = ${DB}`;
  return (await db.query({ text, params: [schema ?? null] })).rows.length > 0;
}

/** Reads tables, columns, keys and foreign keys of `schema` (undefined: the connection's database). */
export async function introspectMysql(db: Executor, schema: string | undefined): Promise<DatabaseSchema> {
  const run = async (text: string): Promise<Row[]> => (await db.query({ text, params: [schema ?? null] })).rows;
  const version = String((await db.query({ text: 'SELECT VERSION() AS version', params: [] })).rows[0]?.version ?? '');
  const mariadb = /mariadb/i.test(version);
  const [tables, columns, uniqueKeys, foreignKeys, jsonChecks] = await Promise.all([
    run(TABLES),
    run(COLUMNS),
    run(UNIQUE_KEYS),
    run(FOREIGN_KEYS),
    mariadb ? run(JSON_CHECKS) : Promise.resolve([]),
  ]);
  const jsonColumns = new Set(
    jsonChecks.map((r) => `${cellText(r.table_name)}.${/^json_valid\(`((?:[^`]|``)*)`\)$/.exec(cellText(r.check_clause))?.[1]?.replace(/``/g, '`') ?? ''}`),
  );
  return assembleSchema({ tables, columns, uniqueKeys, foreignKeys }, {
    toColumn: (r) => toColumn(r, mariadb, jsonColumns),
    isPrimary: (keyName) => keyName === 'PRIMARY',
    estimatedRows: (table) => estimateOf(table.table_rows),
  });
}

/** tinyint(1) and bit(1) are booleans by convention (MySQL's BOOLEAN is tinyint(1)). */
function columnType(dataType: string, columnTypeText: string, isJson: boolean): ColumnType {
  if (isJson) return 'json';
  if (/^(tinyint\(1\)|bit\(1\))(\s|$)/.test(columnTypeText)) return 'boolean';
  // int unsigned reaches 4294967295, beyond the integer type's 32-bit range.
  if (dataType === 'int' && /unsigned/.test(columnTypeText)) return 'bigint';
  return TYPE_MAP[dataType] ?? 'unknown';
}

/** enum('a','b''c') → ['a', "b'c"]. */
function enumValues(columnTypeText: string): string[] {
  const body = /^enum\((.*)\)$/s.exec(columnTypeText)?.[1] ?? '';
  return [...body.matchAll(/'((?:[^']|'')*)'/g)].map((m) => (m[1] ?? '').replace(/''/g, "'"));
}

/**
 * MariaDB (10.2.7+) reports defaults as SQL expressions: literals quoted, and `NULL` (unquoted)
 * for a nullable column without a default; MySQL reports SQL NULL there.
 */
function defaultOf(value: unknown, mariadb: boolean): string | null {
  if (value == null) return null;
  const text = cellText(value);
  return mariadb && text === 'NULL' ? null : text;
}

function toColumn(row: Row, mariadb: boolean, jsonColumns: ReadonlySet<string>): ColumnInfo {
  const name = cellText(row.column_name);
  const dataType = cellText(row.data_type).toLowerCase();
  const nativeType = cellText(row.column_type);
  const type = columnType(dataType, nativeType.toLowerCase(), jsonColumns.has(`${cellText(row.table_name)}.${name}`));
  const extra = cellText(row.extra).toLowerCase();
  const hasLength = dataType === 'varchar' || dataType === 'char';
  const isDecimal = type === 'decimal';
  return {
    name,
    type,
    nativeType,
    nullable: cellText(row.is_nullable) === 'YES',
    maxLength: hasLength && row.max_length != null ? cellNumber(row.max_length) : null,
    numericPrecision: isDecimal && row.numeric_precision != null ? cellNumber(row.numeric_precision) : null,
    numericScale: isDecimal && row.numeric_scale != null ? cellNumber(row.numeric_scale) : null,
    defaultValue: defaultOf(row.default_value, mariadb),
    autoIncrement: extra.includes('auto_increment'),
    // MySQL 8 marks expression defaults DEFAULT_GENERATED: that is a default, not a generated column.
    generated: /\b(virtual|stored) generated\b|\bpersistent\b|\brow (start|end)\b/.test(extra),
    enumValues: dataType === 'enum' ? enumValues(nativeType) : null,
  };
}
