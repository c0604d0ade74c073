/**
 * The workspace's entity model: API names over the introspected tables.
 * Built by buildModel (build-model.ts); read by query planning, writes and formulas.
 */
import type { ColumnType } from './introspection.ts';

export interface Field {
  /** API name (camelCase of the column; the primary key is always `id`). */
  readonly name: string;
  readonly column: string;
  readonly type: ColumnType;
  readonly nativeType: string;
  readonly nullable: boolean;
  readonly maxLength: number | null;
  readonly numericPrecision: number | null;
  readonly numericScale: number | null;
  readonly enumValues: readonly string[] | null;
  readonly hasDefault: boolean;
  readonly autoIncrement: boolean;
  readonly primaryKey: boolean;
  /** Set by the service (created_at/updated_at); never writable. */
  readonly autoTimestamp: 'create' | 'update' | null;
  /** Generated physical column: readable, never writable. */
  readonly generated: boolean;
}

export interface Relationship {
  /** `customer` for the foreign key field `customerId`; the reverse side uses the plural entity name. */
  readonly name: string;
  readonly kind: 'manyToOne' | 'oneToMany';
  /** manyToOne: the foreign key field on this entity. oneToMany: the foreign key field on the target. */
  readonly field: string;
  readonly target: string;
  /** manyToOne: the referenced field on the target. oneToMany: the referenced field on this entity. */
  readonly targetField: string;
}

export interface UniqueKey {
  readonly name: string;
  /** API field names. */
  readonly fields: readonly string[];
  readonly primary: boolean;
}

export interface Entity {
  readonly name: string;
  readonly table: string;
  readonly fields: readonly Field[];
  readonly fieldsByName: ReadonlyMap<string, Field>;
  readonly idField: Field;
  readonly relationships: ReadonlyMap<string, Relationship>;
  readonly uniqueKeys: readonly UniqueKey[];
  readonly estimatedRows: number;
}

export interface SchemaModel {
  readonly entities: ReadonlyMap<string, Entity>;
  /** Tables that could not be exposed, with the reason (e.g. no single-column primary key). */
  readonly skipped: readonly { table: string; reason: string }[];
}
