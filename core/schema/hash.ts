/**
 * A fingerprint of the introspected schema: equal hashes mean nothing an API client can see
 * has changed. Row estimates are left out (they move on every ANALYZE), and so is the order
 * in which the catalog lists tables, columns, keys and foreign keys. Column lists inside a
 * key or foreign key keep their order: (a, b) and (b, a) are different indexes.
 */
import { createHash } from 'node:crypto';
import type { ColumnInfo, DatabaseSchema, TableInfo } from './introspection.ts';

/** sha256 hex of the canonical form of `schema`. */
export function schemaHash(schema: DatabaseSchema): string {
  const canonical = byName(schema.tables).map(canonicalTable);
  return createHash('sha256').update(JSON.stringify(canonical)).digest('hex');
}

function canonicalTable(table: TableInfo): unknown[] {
  return [
    table.name,
    byName(table.columns).map(canonicalColumn),
    [...table.primaryKey],
    byName(table.uniqueKeys).map((k) => [k.name, [...k.columns], k.primary]),
    byName(table.foreignKeys).map((fk) => [fk.name, [...fk.columns], fk.refTable, [...fk.refColumns]]),
  ];
}

/** Explicit tuple, so the hash does not depend on how the object was built. */
function canonicalColumn(c: ColumnInfo): unknown[] {
  return [
    c.name,
    c.type,
    c.nativeType,
    c.nullable,
    c.maxLength,
    c.numericPrecision,
    c.numericScale,
    c.defaultValue,
    c.autoIncrement,
    c.generated,
    c.enumValues === null ? null : [...c.enumValues],
  ];
}

function byName<T extends { readonly name: string }>(items: readonly T[]): T[] {
  return [...items].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
