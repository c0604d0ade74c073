/** Flat joined rows → nested records. Many-to-one expansions come back as aliased columns. */
import type { ColumnType } from '../schema/introspection.ts';
import { toWireValue, wireConverter } from '../schema/values.ts';

export interface Column {
  readonly alias: string;
  /** Relationship path of the node the column belongs to ([] for the root). */
  readonly path: readonly string[];
  /** Output key, or null for an expanded node's hidden primary key. */
  readonly key: string | null;
  readonly type: ColumnType;
}

export type JsonRecord = Record<string, unknown>;
export type RecordAssembler = (rows: readonly Record<string, unknown>[]) => JsonRecord[];
/** A driver value → its wire value (DESIGN §4); `toWireValue` unless the statement read some values in another form. */
export type WireValue = typeof toWireValue;

/** A column with its node slots and value conversion worked out once per query, not once per cell. */
interface Slot {
  readonly alias: string;
  /** Output key, or null for an expanded node's hidden primary key. */
  readonly key: string | null;
  /** Index of the node the value goes into (0 is the root). */
  readonly node: number;
  /** For an expanded node's key column: the parent node and the relationship name. */
  readonly parent: number;
  readonly name: string;
  readonly wire: (raw: unknown) => unknown;
  /** The key it sets (`key`, or `name` for a node) is `__proto__`: see `put`. */
  readonly proto: boolean;
}

/** The column's conversion: the per-type converter, or `wire` when the statement read some values in another form. */
function converterOf(column: Column, jsonAsText: boolean, wire: WireValue | undefined): (raw: unknown) => unknown {
  return wire ? (raw) => wire(column.type, raw, jsonAsText) : wireConverter(column.type, jsonAsText);
}

function slotsOf(columns: readonly Column[], jsonAsText: boolean, wire: WireValue | undefined): { slots: Slot[]; nodeCount: number } {
  const indexOf = new Map<string, number>([['', 0]]);
  const slots = columns.map((column) => {
    const key = column.path.join('.');
    if (column.key === null && !indexOf.has(key)) indexOf.set(key, indexOf.size);
    const parent = indexOf.get(column.path.slice(0, -1).join('.')) ?? 0;
    const name = column.path[column.path.length - 1] ?? '';
    const proto = (column.key ?? name) === '__proto__';
    return { alias: column.alias, key: column.key, node: indexOf.get(key) ?? 0, parent, name, wire: converterOf(column, jsonAsText, wire), proto };
  });
  return { slots, nodeCount: indexOf.size };
}

type RowAssembler = (row: Record<string, unknown>) => JsonRecord;

/**
 * Sets a key of a record. `record['__proto__'] = v` would set the prototype (a column may be named
 * so), so that key is defined as an own property instead; `proto` is the slot's flag, worked out once.
 */
export function put(record: JsonRecord, key: string, value: unknown, proto: boolean): void {
  if (proto) Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
  else record[key] = value;
}

/**
 * A record without expanded nodes (every column is a key of the root) as one object literal,
 * generated once per read shape: each record is made with all its keys at once instead of growing
 * through a keyed store per column (8 µs → 1.5 µs for a page of 20 orders). Keys and
 * aliases enter the source only as JSON string literals, converters only as arguments. A literal
 * `"__proto__": …` would set the prototype, so that one key is written computed (`["__proto__"]`),
 * which defines it (computed keys cost a third more, so only there).
 */
function flatAssembler(slots: readonly Slot[]): RowAssembler {
  const converters = slots.map((_slot, i) => `w${i}`);
  const entries = slots.map((slot, i) => `${slot.proto ? '["__proto__"]' : JSON.stringify(slot.key)}: w${i}(row[${JSON.stringify(slot.alias)}])`);
  const make = new Function(...converters, `'use strict'; return function assemble(row) { return { ${entries.join(', ')} }; };`) as (
    ...wires: Slot['wire'][]
  ) => RowAssembler;
  return make(...slots.map((slot) => slot.wire));
}

function assembleRow(row: Record<string, unknown>, slots: readonly Slot[], nodeCount: number): JsonRecord {
  const nodes: (JsonRecord | null)[] = new Array<JsonRecord | null>(nodeCount).fill(null);
  const root: JsonRecord = {};
  nodes[0] = root;
  for (const slot of slots) {
    const raw = row[slot.alias];
    if (slot.key === null) {
      const parent = nodes[slot.parent] ?? null;
      const child = parent && raw !== null && raw !== undefined ? {} : null;
      if (parent) put(parent, slot.name, child, slot.proto);
      nodes[slot.node] = child;
      continue;
    }
    const target = nodes[slot.node];
    if (target) put(target, slot.key, slot.wire(raw), slot.proto);
  }
  return root;
}

/**
 * The records of `rows` in a packed array. `rows.map` in optimised code gives a holey array (V8
 * inlines it as `new Array(length)` filled in), and JSON.stringify serialises a holey array by
 * looking each element up (its slow path, seen in profiles of list pages); pushing onto `[]` keeps
 * the array packed.
 */
function packedMap(rows: readonly Record<string, unknown>[], record: (row: Record<string, unknown>) => JsonRecord): JsonRecord[] {
  const records: JsonRecord[] = [];
  for (let i = 0; i < rows.length; i++) records.push(record(rows[i] as Record<string, unknown>));
  return records;
}

/** `jsonAsText`: see Dialect.jsonArrivesAsText. */
/** `wire`: a conversion of its own (the export's, which reads timestamps as text); absent: the per-type converters. */
export function assembler(columns: readonly Column[], jsonAsText: boolean, wire?: WireValue): RecordAssembler {
  const { slots, nodeCount } = slotsOf(columns, jsonAsText, wire);
  if (nodeCount === 1) {
    const flat = flatAssembler(slots);
    return (rows) => packedMap(rows, flat);
  }
  const nested = (row: Record<string, unknown>): JsonRecord => assembleRow(row, slots, nodeCount);
  return (rows) => packedMap(rows, nested);
}
