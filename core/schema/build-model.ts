/**
 * Derives the entity model (API names, relationships) from an introspected schema (DESIGN §3).
 *
 * Naming rules, all deterministic (tables are processed in name order, columns in column order,
 * foreign keys in column order then constraint name):
 *
 * 1. Entity name = camelCase(table). When two tables give the same name (`order_items` and
 *    `orderItems`), the first in table-name order keeps it and the others get a numeric suffix
 *    starting at 2 (`orderItems2`).
 * 2. A table is exposed only with a single-column primary key; that column is field `id`.
 *    Every other field is camelCase(column). A field name already taken (by `id` or an earlier
 *    column) gets a numeric suffix starting at 2: a non-key column called `id` becomes `id2`,
 *    `createdAt` next to `created_at` becomes `createdAt2`. The table stays exposed.
 * 3. Only single-column foreign keys to an exposed table become relationships. The many-to-one
 *    side is named after the field without its `Id` suffix (`customerId` → `customer`); when the
 *    column does not end in `_id`/`Id` the candidate is the target entity name instead. If the
 *    candidate is empty or clashes with a field or an earlier relationship of the entity, it is
 *    `{target}By{Field}` (`customersByOwner`), then that with a numeric suffix.
 * 4. The one-to-many side on the target is named after the source entity (`orders`). When the
 *    source has several foreign keys to the same target (self references included), every one
 *    of them is `{source}By{Field}` (`ordersByShippingAddressId`). A clash with a field or an
 *    earlier relationship falls back to `{source}By{Field}`, then a numeric suffix.
 *    Many-to-one names are assigned for every entity before any one-to-many name.
 */
import type { ColumnInfo, DatabaseSchema, ForeignKeyInfo, TableInfo } from './introspection.ts';
import type { Entity, Field, Relationship, SchemaModel, UniqueKey } from './model.ts';
import { camelCase, pascalCase } from './names.ts';

interface Draft {
  readonly table: TableInfo;
  readonly name: string;
  readonly fields: readonly Field[];
  readonly fieldByColumn: ReadonlyMap<string, Field>;
  readonly relationships: Map<string, Relationship>;
}

interface Link {
  readonly source: Draft;
  readonly target: Draft;
  readonly field: Field;
  readonly targetField: Field;
}

/** Builds the entity model of `schema`; tables that cannot be exposed are listed in `skipped`. */
export function buildModel(schema: DatabaseSchema): SchemaModel {
  const skipped: { table: string; reason: string }[] = [];
  const drafts = new Map<string, Draft>();
  const taken = new Set<string>();
  for (const table of [...schema.tables].sort((a, b) => compare(a.name, b.name))) {
    const reason = skipReason(table);
    if (reason) {
      skipped.push({ table: table.name, reason });
      continue;
    }
    const name = unique(camelCase(table.name), taken);
    taken.add(name);
    drafts.set(table.name, draftEntity(table, name));
  }
  const links = collectLinks(drafts);
  for (const link of links) addManyToOne(link);
  for (const link of links) addOneToMany(link, links);
  const entities = new Map<string, Entity>();
  for (const draft of drafts.values()) entities.set(draft.name, finishEntity(draft));
  return { entities, skipped };
}

function skipReason(table: TableInfo): string | null {
  if (table.primaryKey.length === 0) return 'no primary key';
  if (table.primaryKey.length > 1) return `composite primary key (${table.primaryKey.join(', ')})`;
  const pk = table.primaryKey[0];
  if (!table.columns.some((c) => c.name === pk)) return `primary key column ${pk} not found`;
  return null;
}

function draftEntity(table: TableInfo, name: string): Draft {
  const pk = table.primaryKey[0];
  const used = new Set<string>(['id']);
  const fieldByColumn = new Map<string, Field>();
  const fields = table.columns.map((column) => {
    const isPk = column.name === pk;
    const fieldName = isPk ? 'id' : unique(camelCase(column.name), used);
    used.add(fieldName);
    const field = toField(column, fieldName, isPk);
    fieldByColumn.set(column.name, field);
    return field;
  });
  return { table, name, fields, fieldByColumn, relationships: new Map() };
}

function toField(column: ColumnInfo, name: string, primaryKey: boolean): Field {
  return {
    name,
    column: column.name,
    type: column.type,
    nativeType: column.nativeType,
    nullable: column.nullable,
    maxLength: column.maxLength,
    numericPrecision: column.numericPrecision,
    numericScale: column.numericScale,
    enumValues: column.enumValues,
    hasDefault: column.defaultValue !== null || column.autoIncrement || column.generated,
    autoIncrement: column.autoIncrement,
    primaryKey,
    autoTimestamp: primaryKey ? null : autoTimestamp(column),
    generated: column.generated,
  };
}

const CREATE_COLUMNS = new Set(['created_at', 'createdAt']);
const UPDATE_COLUMNS = new Set(['updated_at', 'updatedAt']);

function autoTimestamp(column: ColumnInfo): Field['autoTimestamp'] {
  if (column.generated || (column.type !== 'timestamp' && column.type !== 'date')) return null;
  if (CREATE_COLUMNS.has(column.name)) return 'create';
  if (UPDATE_COLUMNS.has(column.name)) return 'update';
  return null;
}

/** Single-column foreign keys between exposed tables, in a deterministic order. */
function collectLinks(drafts: ReadonlyMap<string, Draft>): Link[] {
  const links: Link[] = [];
  for (const source of drafts.values()) {
    const seen = new Set<string>();
    for (const fk of sortedForeignKeys(source.table)) {
      const column = fk.columns[0];
      const refColumn = fk.refColumns[0];
      const target = drafts.get(fk.refTable);
      if (fk.columns.length !== 1 || column === undefined || refColumn === undefined || !target) continue;
      const field = source.fieldByColumn.get(column);
      const targetField = target.fieldByColumn.get(refColumn);
      const key = `${column}\u0000${target.name}\u0000${refColumn}`;
      if (!field || !targetField || seen.has(key)) continue; // duplicate constraints: one relationship
      seen.add(key);
      links.push({ source, target, field, targetField });
    }
  }
  return links;
}

function sortedForeignKeys(table: TableInfo): ForeignKeyInfo[] {
  const position = (fk: ForeignKeyInfo): number => table.columns.findIndex((c) => c.name === fk.columns[0]);
  return [...table.foreignKeys].sort((a, b) => position(a) - position(b) || compare(a.name, b.name));
}

/** `customer_id`, `CUSTOMER_ID`, `customerId`, `customerID`; not `paid`. */
const ID_SUFFIX = /(_[iI][dD]|Id|ID)$/;

function addManyToOne(link: Link): void {
  const { source, target, field, targetField } = link;
  const stripped = ID_SUFFIX.test(field.column) ? /^(.+?)(Id|ID)$/.exec(field.name)?.[1] : undefined;
  const candidate = stripped !== undefined && stripped !== '_' ? stripped : target.name;
  const fallback = `${target.name}By${pascalCase(field.name)}`;
  const name = pickName(source, [candidate, fallback]);
  source.relationships.set(name, { name, kind: 'manyToOne', field: field.name, target: target.name, targetField: targetField.name });
}

function addOneToMany(link: Link, links: readonly Link[]): void {
  const { source, target, field, targetField } = link;
  const siblings = links.filter((l) => l.source === source && l.target === target).length;
  const qualified = `${source.name}By${pascalCase(field.name)}`;
  const name = pickName(target, siblings > 1 ? [qualified] : [source.name, qualified]);
  target.relationships.set(name, { name, kind: 'oneToMany', field: field.name, target: source.name, targetField: targetField.name });
}

/** The first candidate free on the entity, else the last candidate with a numeric suffix. */
function pickName(draft: Draft, candidates: readonly string[]): string {
  const isFree = (n: string): boolean => !draft.fields.some((f) => f.name === n) && !draft.relationships.has(n);
  for (const candidate of candidates) if (isFree(candidate)) return candidate;
  const base = candidates[candidates.length - 1] ?? 'relationship';
  for (let i = 2; ; i++) if (isFree(`${base}${i}`)) return `${base}${i}`;
}

function unique(name: string, taken: ReadonlySet<string>): string {
  if (!taken.has(name)) return name;
  for (let i = 2; ; i++) if (!taken.has(`${name}${i}`)) return `${name}${i}`;
}

function finishEntity(draft: Draft): Entity {
  const idField = draft.fields.find((f) => f.primaryKey);
  if (!idField) throw new Error(`entity ${draft.name} has no primary key field`);
  const uniqueKeys: UniqueKey[] = draft.table.uniqueKeys.map((key) => ({
    name: key.name,
    fields: key.columns.map((c) => draft.fieldByColumn.get(c)?.name ?? camelCase(c)),
    primary: key.primary,
  }));
  return {
    name: draft.name,
    table: draft.table.name,
    fields: draft.fields,
    fieldsByName: new Map(draft.fields.map((f) => [f.name, f])),
    idField,
    relationships: draft.relationships,
    uniqueKeys,
    estimatedRows: draft.table.estimatedRows,
  };
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
