/**
 * Reading catalog query rows, shared by every dialect's introspector. This is the driver boundary:
 * values arrive untyped and drivers differ (int8 and bigint sums as strings, booleans as 't', 1 or
 * true, MySQL names as Buffers), so every cell is normalised here. Key and foreign-key queries
 * return one row per column with the same column names on every vendor.
 */
import type { ColumnInfo, DatabaseSchema, ForeignKeyInfo, TableInfo, UniqueKeyInfo } from './introspection.ts';

export type CatalogRow = Record<string, unknown>;

export function cellText(value: unknown): string {
  if (value == null) return '';
  return Buffer.isBuffer(value) ? value.toString('utf8') : String(value);
}

export function cellNumber(value: unknown): number {
  return typeof value === 'number' ? value : Number(cellText(value) || 0);
}

export function cellBool(value: unknown): boolean {
  return value === true || value === 1 || value === 't' || value === 'true' || value === '1';
}

/** Groups rows by key, keeping first-seen key order and row order within a group. */
export function groupBy<T>(rows: readonly CatalogRow[], key: (row: CatalogRow) => string, value: (row: CatalogRow) => T): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const k = key(row);
    const group = groups.get(k);
    if (group) group.push(value(row));
    else groups.set(k, [value(row)]);
  }
  return groups;
}

const same = (row: CatalogRow): CatalogRow => row;

/** Rows `{key_name, column_name, …}` in key column order; `isPrimary` reads the vendor's flag. */
export function uniqueKeysFrom(rows: readonly CatalogRow[], isPrimary: (name: string, first: CatalogRow | undefined) => boolean): UniqueKeyInfo[] {
  return [...groupBy(rows, (r) => cellText(r.key_name), same)].map(([name, keyRows]) => ({
    name,
    columns: keyRows.map((r) => cellText(r.column_name)),
    primary: isPrimary(name, keyRows[0]),
  }));
}

/** Rows `{fk_name, column_name, ref_table, ref_column}` in key column order. */
export function foreignKeysFrom(rows: readonly CatalogRow[]): ForeignKeyInfo[] {
  return [...groupBy(rows, (r) => cellText(r.fk_name), same)].map(([name, fkRows]) => ({
    name,
    columns: fkRows.map((r) => cellText(r.column_name)),
    refTable: cellText(fkRows[0]?.ref_table),
    refColumns: fkRows.map((r) => cellText(r.ref_column)),
  }));
}

/** A row estimate cell: -1 when the vendor has none. */
export function estimateOf(value: unknown): number {
  return value == null ? -1 : Math.max(-1, Math.round(cellNumber(value)));
}

/** The four catalog queries' rows; every row carries `table_name`. */
export interface CatalogRows {
  readonly tables: readonly CatalogRow[];
  readonly columns: readonly CatalogRow[];
  readonly uniqueKeys: readonly CatalogRow[];
  readonly foreignKeys: readonly CatalogRow[];
}

/** What differs between vendors when the rows become a DatabaseSchema. */
export interface CatalogReading {
  toColumn(row: CatalogRow): ColumnInfo;
  isPrimary(keyName: string, first: CatalogRow | undefined): boolean;
  /** The planner's row estimate from the table's row. */
  estimatedRows(table: CatalogRow): number;
}

export function assembleSchema(rows: CatalogRows, reading: CatalogReading): DatabaseSchema {
  const byTable = (r: CatalogRow): string => cellText(r.table_name);
  const columnsByTable = groupBy(rows.columns, byTable, (r) => reading.toColumn(r));
  const keysByTable = groupBy(rows.uniqueKeys, byTable, same);
  const fksByTable = groupBy(rows.foreignKeys, byTable, same);
  return {
    tables: rows.tables.map((row): TableInfo => {
      const name = cellText(row.table_name);
      const keys = uniqueKeysFrom(keysByTable.get(name) ?? [], reading.isPrimary);
      return {
        name,
        columns: columnsByTable.get(name) ?? [],
        primaryKey: keys.find((k) => k.primary)?.columns ?? [],
        uniqueKeys: keys,
        foreignKeys: foreignKeysFrom(fksByTable.get(name) ?? []),
        estimatedRows: reading.estimatedRows(row),
      };
    }),
  };
}
