/**
 * What a dialect's introspector reports about a database, in vendor-neutral terms.
 * The entity model (model.ts) is derived from this; nothing else reads catalogs.
 */

/** Vendor-neutral column types. The dialect maps its native types onto these. */
export type ColumnType =
  | 'integer' // smallint, integer, mediumint
  | 'bigint'
  | 'decimal' // numeric/decimal with a scale
  | 'float' // real, double
  | 'boolean' // incl. MySQL tinyint(1), SQL Server bit
  | 'date'
  | 'timestamp' // timestamp, timestamptz, datetime, datetime2
  | 'time'
  | 'uuid'
  | 'text' // char, varchar, text, enum
  | 'json'
  | 'binary'
  | 'unknown';

export interface ColumnInfo {
  readonly name: string;
  readonly type: ColumnType;
  /** The native type as the catalog spells it, for drift reports and DDL. */
  readonly nativeType: string;
  readonly nullable: boolean;
  readonly maxLength: number | null;
  readonly numericPrecision: number | null;
  readonly numericScale: number | null;
  /** Default expression text as the catalog reports it, or null. */
  readonly defaultValue: string | null;
  /** identity, serial, auto_increment: the database generates the value. */
  readonly autoIncrement: boolean;
  /** A generated (computed) physical column: never writable. */
  readonly generated: boolean;
  /** Allowed values of an enum column, when the vendor reports them. */
  readonly enumValues: readonly string[] | null;
}

export interface UniqueKeyInfo {
  readonly name: string;
  readonly columns: readonly string[];
  readonly primary: boolean;
}

export interface ForeignKeyInfo {
  readonly name: string;
  readonly columns: readonly string[];
  readonly refTable: string;
  readonly refColumns: readonly string[];
}

export interface TableInfo {
  readonly name: string;
  readonly columns: readonly ColumnInfo[];
  readonly primaryKey: readonly string[];
  /** Every unique index or constraint, the primary key included. */
  readonly uniqueKeys: readonly UniqueKeyInfo[];
  readonly foreignKeys: readonly ForeignKeyInfo[];
  /** Planner row estimate (for count=estimated); -1 when unknown. */
  readonly estimatedRows: number;
}

export interface DatabaseSchema {
  readonly tables: readonly TableInfo[];
}
