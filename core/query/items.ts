/**
 * Reads the one-to-many arrays of a page (DESIGN §13): for every array path one statement over
 * the keys of all its parents (split only beyond KEYS_PER_STATEMENT keys), never one per parent.
 * Nested arrays are read the same way once all items of their parent path are known.
 */
import { render } from '../sql.ts';
import type { BoundDialect, Executor } from '../../dialects/dialect.ts';
import { parseScalar } from '../schema/coerce.ts';
import type { Field } from '../schema/model.ts';
import { toWireValue } from '../schema/values.ts';
import { put, type JsonRecord } from './assemble.ts';
import type { ArrayColumn } from './compile-read.ts';
import { compileItems, ITEM_PARENT } from './compile-items.ts';
import type { ArrayNode } from './plan.ts';

type Row = Record<string, unknown>;

/** Keeps each statement well inside every vendor's parameter limit (SQL Server: 2,100). */
const KEYS_PER_STATEMENT = 1000;

interface Parent {
  readonly record: JsonRecord;
  readonly key: unknown;
}

/** The object the array hangs on: the record itself or a many-to-one expansion of it (null when absent or hidden). */
function objectAt(record: JsonRecord, at: readonly string[]): JsonRecord | null {
  let node: unknown = record;
  for (const name of at) node = node && typeof node === 'object' ? (node as JsonRecord)[name] : null;
  return node && typeof node === 'object' ? (node as JsonRecord) : null;
}

/** Parent keys and item foreign keys are matched by their wire form as text (an int and a bigint agree). */
function keyText(field: Field, raw: unknown, jsonAsText: boolean): string {
  return String(toWireValue(field.type, raw, jsonAsText));
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** The distinct parent keys as bound values of the item's foreign key type. */
function boundKeys(node: ArrayNode, parents: readonly Parent[], jsonAsText: boolean): unknown[] {
  const keys = new Map<string, unknown>();
  for (const { key } of parents) {
    if (key === null || key === undefined) continue;
    const wire = toWireValue(node.parentField.type, key, jsonAsText);
    const coerced = parseScalar(node.itemField.type, wire, { fromText: true });
    if (coerced.ok) keys.set(String(wire), coerced.value);
  }
  return [...keys.values()];
}

async function readItems(db: Executor, dialect: BoundDialect, node: ArrayNode, parents: readonly Parent[]): Promise<void> {
  const jsonAsText = dialect.capabilities.jsonArrivesAsText;
  const rows: Row[] = [];
  const items: JsonRecord[] = [];
  let nested: readonly ArrayColumn[] = [];
  for (const keys of chunks(boundKeys(node, parents, jsonAsText), KEYS_PER_STATEMENT)) {
    const compiled = compileItems(node, keys, dialect);
    const batch = (await db.query(render(compiled.page, dialect.sql))).rows;
    rows.push(...batch);
    items.push(...compiled.assemble(batch));
    nested = compiled.arrays;
  }
  await readArrays(db, dialect, nested, rows, items);
  const byParent = new Map<string, JsonRecord[]>();
  rows.forEach((row, i) => {
    const key = keyText(node.itemField, row[ITEM_PARENT], jsonAsText);
    const list = byParent.get(key) ?? [];
    list.push(items[i] ?? {});
    byParent.set(key, list);
  });
  const proto = node.name === '__proto__';
  for (const { record, key } of parents) {
    put(record, node.name, key === null || key === undefined ? [] : (byParent.get(keyText(node.parentField, key, jsonAsText)) ?? []), proto);
  }
}

/** Fills every array of `records` (assembled from `rows`, in the same order). */
export async function readArrays(db: Executor, dialect: BoundDialect, arrays: readonly ArrayColumn[], rows: readonly Row[], records: readonly JsonRecord[]): Promise<void> {
  for (const array of arrays) {
    const parents: Parent[] = [];
    rows.forEach((row, i) => {
      const record = records[i] ? objectAt(records[i], array.at) : null;
      if (record) parents.push({ record, key: row[array.alias] });
    });
    if (parents.length > 0) await readItems(db, dialect, array.node, parents);
  }
}
