/**
 * SQL Server introspection through the sys catalog views (one query per kind, the schema name
 * bound as @p1). Only user tables of the schema are read; foreign keys to other schemas are left
 * out because DatabaseSchema names tables without a schema.
 */
import type { ColumnInfo, ColumnType, DatabaseSchema } from '../../core/schema/introspection.ts';
import { assembleSchema, cellBool, cellNumber, cellText, estimateOf } from '../../core/schema/catalog-rows.ts';
import type { Executor } from '../dialect.ts';

type Row = Record<string, unknown>;

/**
 * Row counts come from sys.partitions (heap or clustered index, index_id 0/1), which any user
 * with metadata visibility can read; they are the storage engine's counts, not exact under
 * concurrent writes. Temporal history tables (temporal_type 1) are not API tables.
 */
export const TABLES = `
  SELECT t.name AS table_name,
         (SELECT SUM(p.rows) FROM sys.partitions p WHERE p.object_id = t.object_id AND p.index_id IN (0, 1)) AS row_count
  FROM sys.tables t
  JOIN sys.schemas s ON s.schema_id = t.schema_id
  WHERE s.name = @p1 AND t.is_ms_shipped = 0 AND t.temporal_type <> 1
  ORDER BY t.name`;

/**
 * One row per column. `base_type` resolves alias types (CREATE TYPE … FROM nvarchar(20)) to the
 * system type; max_length is in bytes (-1 for max), so n-types hold half as many characters.
 */
export const COLUMNS = `
  SELECT t.name AS table_name, c.name AS column_name, c.column_id,
         ty.name AS type_name, TYPE_NAME(c.system_type_id) AS base_type,
         c.max_length, c.precision, c.scale, c.is_nullable, c.is_identity, c.is_computed,
         c.generated_always_type, dc.definition AS default_value
  FROM sys.columns c
  JOIN sys.tables t ON t.object_id = c.object_id
  JOIN sys.schemas s ON s.schema_id = t.schema_id
  JOIN sys.types ty ON ty.user_type_id = c.user_type_id
  LEFT JOIN sys.default_constraints dc ON dc.object_id = c.default_object_id
  WHERE s.name = @p1 AND t.is_ms_shipped = 0 AND t.temporal_type <> 1
  ORDER BY t.name, c.column_id`;

/**
 * Unique indexes (primary keys and unique constraints are backed by one), one row per key
 * column. Filtered indexes are left out (they cannot serve as an upsert target), as are
 * included (non-key) columns.
 */
export const UNIQUE_KEYS = `
  SELECT t.name AS table_name, i.name AS key_name, i.is_primary_key, ic.key_ordinal, c.name AS column_name
  FROM sys.indexes i
  JOIN sys.tables t ON t.object_id = i.object_id
  JOIN sys.schemas s ON s.schema_id = t.schema_id
  JOIN sys.index_columns ic ON ic.object_id = i.object_id AND ic.index_id = i.index_id
  JOIN sys.columns c ON c.object_id = ic.object_id AND c.column_id = ic.column_id
  WHERE s.name = @p1 AND t.is_ms_shipped = 0 AND i.is_unique = 1 AND i.has_filter = 0
    AND i.is_disabled = 0 AND i.is_hypothetical = 0 AND ic.is_included_column = 0 AND ic.key_ordinal > 0
  ORDER BY t.name, i.name, ic.key_ordinal`;

/** Foreign keys to tables of the same schema, one row per column pair in constraint order. */
export const FOREIGN_KEYS = `
  SELECT t.name AS table_name, fk.name AS fk_name, fkc.constraint_column_id AS ord,
         pc.name AS column_name, rt.name AS ref_table, rc.name AS ref_column
  FROM sys.foreign_keys fk
  JOIN sys.tables t ON t.object_id = fk.parent_object_id
  JOIN sys.schemas s ON s.schema_id = t.schema_id
  JOIN sys.tables rt ON rt.object_id = fk.referenced_object_id
  JOIN sys.foreign_key_columns fkc ON fkc.constraint_object_id = fk.object_id
  JOIN sys.columns pc ON pc.object_id = fkc.parent_object_id AND pc.column_id = fkc.parent_column_id
  JOIN sys.columns rc ON rc.object_id = fkc.referenced_object_id AND rc.column_id = fkc.referenced_column_id
  WHERE s.name = @p1 AND rt.schema_id = t.schema_id
  ORDER BY t.name, fk.name, fkc.constraint_column_id`;

/**
 * SQL Server before 2025 has no json type: JSON lives in nvarchar(max) guarded by a CHECK
 * constraint ISJSON(col), which the catalog normalises to `(isjson([col])>(0))` or `=(1)`.
 */
export const JSON_CHECKS = `
  SELECT t.name AS table_name, cc.definition
  FROM sys.check_constraints cc
  JOIN sys.tables t ON t.object_id = cc.parent_object_id
  JOIN sys.schemas s ON s.schema_id = t.schema_id
  WHERE s.name = @p1 AND cc.is_disabled = 0 AND cc.definition LIKE '%isjson(%'`;

const TYPE_MAP: Readonly<Record<string, ColumnType>> = {
  tinyint: 'integer',
  smallint: 'integer',
  int: 'integer',
  bigint: 'bigint',
  decimal: 'decimal',
  numeric: 'decimal',
  money: 'decimal',
  smallmoney: 'decimal',
  float: 'float',
  real: 'float',
  bit: 'boolean',
  date: 'date',
  datetime2: 'timestamp',
  datetime: 'timestamp',
  smalldatetime: 'timestamp',
  datetimeoffset: 'timestamp',
  time: 'time',
  uniqueidentifier: 'uuid',
  char: 'text',
  varchar: 'text',
  nchar: 'text',
  nvarchar: 'text',
  text: 'text',
  ntext: 'text',
  json: 'json',
  binary: 'binary',
  varbinary: 'binary',
  image: 'binary',
  // `timestamp` is SQL Server's old name of rowversion: an 8-byte counter, not a date.
  timestamp: 'binary',
  rowversion: 'binary',
};

const LENGTH_TYPES = new Set(['char', 'varchar', 'nchar', 'nvarchar', 'binary', 'varbinary']);
const UNICODE_TYPES = new Set(['nchar', 'nvarchar']);
const SCALED_TIME_TYPES = new Set(['datetime2', 'datetimeoffset', 'time']);

/** True when the schema exists in the connection's database. */
export async function mssqlSchemaExists(db: Executor, schema: string): Promise<boolean> {
  return (await db.query({ text: 'SELECT 1 AS found FROM sys.schemas WHERE name = @p1', params: [schema] })).rows.length > 0;
}

/** Reads tables, columns, keys and foreign keys of `schema`. */
export async function introspectMssql(db: Executor, schema: string): Promise<DatabaseSchema> {
  const run = async (text: string): Promise<Row[]> => (await db.query({ text, params: [schema] })).rows;
  // One at a time: inside a transaction the executor queues them anyway.
  const tables = await run(TABLES);
  const columns = await run(COLUMNS);
  const uniqueKeys = await run(UNIQUE_KEYS);
  const foreignKeys = await run(FOREIGN_KEYS);
  const jsonChecks = await run(JSON_CHECKS);
  const jsonColumns = jsonColumnsOf(jsonChecks);
  return assembleSchema({ tables, columns, uniqueKeys, foreignKeys }, {
    toColumn: (r) => toColumn(r, jsonColumns),
    isPrimary: (_name, first) => cellBool(first?.is_primary_key),
    estimatedRows: (table) => estimateOf(table.row_count),
  });
}

/** `table.column` of every column guarded by an ISJSON check. */
export function jsonColumnsOf(rows: readonly Row[]): Set<string> {
  const out = new Set<string>();
  for (const row of rows) {
    for (const match of cellText(row.definition).matchAll(/isjson\(\[((?:[^\]]|\]\])*)\]\)/gi)) {
      out.add(`${cellText(row.table_name)}.${(match[1] ?? '').replace(/\]\]/g, ']')}`);
    }
  }
  return out;
}

/** The type as DDL spells it: nvarchar(50), nvarchar(max), decimal(12,2), datetime2(3). */
export function nativeTypeOf(typeName: string, baseType: string, maxLength: number, precision: number, scale: number): string {
  if (typeName !== baseType) return typeName; // an alias type keeps its own name
  if (LENGTH_TYPES.has(baseType)) {
    if (maxLength === -1) return `${baseType}(max)`;
    return `${baseType}(${UNICODE_TYPES.has(baseType) ? maxLength / 2 : maxLength})`;
  }
  if (baseType === 'decimal' || baseType === 'numeric') return `${baseType}(${precision},${scale})`;
  if (SCALED_TIME_TYPES.has(baseType)) return `${baseType}(${scale})`;
  return baseType;
}

export function toColumn(row: Row, jsonColumns: ReadonlySet<string>): ColumnInfo {
  const name = cellText(row.column_name);
  const baseType = cellText(row.base_type).toLowerCase();
  const typeName = cellText(row.type_name).toLowerCase();
  const maxLength = cellNumber(row.max_length);
  const precision = cellNumber(row.precision);
  const scale = cellNumber(row.scale);
  const isJson = jsonColumns.has(`${cellText(row.table_name)}.${name}`) && UNICODE_TYPES.has(baseType);
  const type: ColumnType = isJson ? 'json' : (TYPE_MAP[typeName] ?? TYPE_MAP[baseType] ?? 'unknown');
  const isDecimal = type === 'decimal';
  const rowversion = typeName === 'timestamp' || typeName === 'rowversion';
  return {
    name,
    type,
    nativeType: nativeTypeOf(typeName, baseType, maxLength, precision, scale),
    nullable: cellBool(row.is_nullable),
    // nvarchar(max) and friends have no limit the API can check.
    maxLength: LENGTH_TYPES.has(baseType) && maxLength !== -1 ? (UNICODE_TYPES.has(baseType) ? maxLength / 2 : maxLength) : null,
    numericPrecision: isDecimal ? precision : null,
    numericScale: isDecimal ? scale : null,
    defaultValue: row.default_value == null ? null : cellText(row.default_value),
    autoIncrement: cellBool(row.is_identity),
    // Computed columns, temporal period columns (GENERATED ALWAYS AS ROW START/END) and
    // rowversion are filled by the server and can never be written.
    generated: cellBool(row.is_computed) || cellNumber(row.generated_always_type) !== 0 || rowversion,
    enumValues: null,
  };
}
