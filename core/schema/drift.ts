/**
 * What changed between two introspections of the same database, for the sync report.
 * Every list is sorted by name, so the same two schemas always give the same report.
 */
import type { ColumnInfo, DatabaseSchema, TableInfo } from './introspection.ts';

/** Column properties compared by diffSchemas, in report order. */
export const COLUMN_PROPERTIES = [
  'type',
  'nativeType',
  'nullable',
  'maxLength',
  'numericPrecision',
  'numericScale',
  'defaultValue',
  'autoIncrement',
  'generated',
  'enumValues',
] as const satisfies readonly (keyof ColumnInfo)[];

export type ColumnProperty = (typeof COLUMN_PROPERTIES)[number];

export type PropertyValue = ColumnInfo[ColumnProperty];

export interface PropertyChange {
  readonly property: ColumnProperty;
  readonly before: PropertyValue;
  readonly after: PropertyValue;
}

export interface ColumnDrift {
  readonly column: string;
  readonly changes: readonly PropertyChange[];
}

/** A primary key, unique key or foreign key added, removed or redefined (same name). */
export interface ConstraintDrift {
  readonly kind: 'primaryKey' | 'uniqueKey' | 'foreignKey';
  readonly name: string;
  readonly change: 'added' | 'removed' | 'changed';
}

export interface TableDrift {
  readonly table: string;
  readonly addedColumns: readonly string[];
  readonly removedColumns: readonly string[];
  readonly changedColumns: readonly ColumnDrift[];
  /** Keys and foreign keys; sorted by kind, then name. */
  readonly changedConstraints: readonly ConstraintDrift[];
}

export interface Drift {
  readonly addedTables: readonly string[];
  readonly removedTables: readonly string[];
  readonly changedTables: readonly TableDrift[];
}

/** Compares two introspections; `before` null (first sync) reports every table as added. */
export function diffSchemas(before: DatabaseSchema | null, after: DatabaseSchema): Drift {
  const old = byName(before?.tables ?? []);
  const now = byName(after.tables);
  const changedTables: TableDrift[] = [];
  for (const [name, table] of now) {
    const previous = old.get(name);
    if (!previous) continue;
    const drift = diffTable(previous, table);
    if (tableChanged(drift)) changedTables.push(drift);
  }
  return {
    addedTables: sorted([...now.keys()].filter((n) => !old.has(n))),
    removedTables: sorted([...old.keys()].filter((n) => !now.has(n))),
    changedTables: changedTables.sort((a, b) => compare(a.table, b.table)),
  };
}

/** True when the report lists any change. */
export function hasDrift(drift: Drift): boolean {
  return drift.addedTables.length > 0 || drift.removedTables.length > 0 || drift.changedTables.some(tableChanged);
}

function tableChanged(t: TableDrift): boolean {
  return (
    t.addedColumns.length > 0 ||
    t.removedColumns.length > 0 ||
    t.changedColumns.length > 0 ||
    t.changedConstraints.length > 0
  );
}

function diffTable(before: TableInfo, after: TableInfo): TableDrift {
  const old = byName(before.columns);
  const now = byName(after.columns);
  const changedColumns: ColumnDrift[] = [];
  for (const [name, column] of now) {
    const previous = old.get(name);
    const changes = previous ? diffColumn(previous, column) : [];
    if (changes.length > 0) changedColumns.push({ column: name, changes });
  }
  return {
    table: after.name,
    addedColumns: sorted([...now.keys()].filter((n) => !old.has(n))),
    removedColumns: sorted([...old.keys()].filter((n) => !now.has(n))),
    changedColumns: changedColumns.sort((a, b) => compare(a.column, b.column)),
    changedConstraints: diffConstraints(before, after),
  };
}

function diffColumn(before: ColumnInfo, after: ColumnInfo): PropertyChange[] {
  return COLUMN_PROPERTIES.filter((p) => !sameValue(before[p], after[p])).map((property) => ({
    property,
    before: before[property],
    after: after[property],
  }));
}

function diffConstraints(before: TableInfo, after: TableInfo): ConstraintDrift[] {
  // The primary key is one slot per table whatever its constraint is called; it is reported
  // under its constraint name when the catalog lists it among the unique keys.
  const pkName = (t: TableInfo): string => t.uniqueKeys.find((k) => k.primary)?.name ?? '';
  const signatures = (t: TableInfo): Map<string, string> => {
    const map = new Map<string, string>();
    if (t.primaryKey.length > 0) map.set('primaryKey\u0000', JSON.stringify(t.primaryKey));
    for (const k of t.uniqueKeys) map.set(`uniqueKey\u0000${k.name}`, JSON.stringify([k.columns, k.primary]));
    for (const fk of t.foreignKeys) {
      map.set(`foreignKey\u0000${fk.name}`, JSON.stringify([fk.columns, fk.refTable, fk.refColumns]));
    }
    return map;
  };
  const old = signatures(before);
  const now = signatures(after);
  const drift: ConstraintDrift[] = [];
  for (const key of new Set([...old.keys(), ...now.keys()])) {
    const [kind, keyName] = key.split('\u0000') as [ConstraintDrift['kind'], string];
    const name = kind === 'primaryKey' ? pkName(after) || pkName(before) : keyName;
    const a = old.get(key);
    const b = now.get(key);
    if (a === b) continue;
    drift.push({ kind, name, change: a === undefined ? 'added' : b === undefined ? 'removed' : 'changed' });
  }
  const order = { primaryKey: 0, uniqueKey: 1, foreignKey: 2 } as const;
  return drift.sort((x, y) => order[x.kind] - order[y.kind] || compare(x.name, y.name));
}

function sameValue(a: PropertyValue, b: PropertyValue): boolean {
  if (Array.isArray(a) || Array.isArray(b)) return JSON.stringify(a) === JSON.stringify(b);
  return a === b;
}

function byName<T extends { readonly name: string }>(items: readonly T[]): Map<string, T> {
  return new Map(items.map((item) => [item.name, item]));
}

function sorted(names: string[]): string[] {
  return names.sort(compare);
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
