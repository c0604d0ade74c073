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
    return { alias: column.alias, key: column.key, node: indexOf.get(key) ?? 0, parent, name, wire: converterOf(column, jsonAsText, wire) };
  });
  return { slots, nodeCount: indexOf.size };
}

/** A record without expanded nodes: every column is a key of the root. */
function assembleFlat(row: Record<string, unknown>, slots: readonly Slot[]): JsonRecord {
  const record: JsonRecord = {};
  for (const slot of slots) record[slot.key as string] = slot.wire(row[slot.alias]);
  return record;
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
      if (parent) parent[slot.name] = child;
      nodes[slot.node] = child;
      continue;
    }
    const target = nodes[slot.node];
    if (target) target[slot.key] = slot.wire(raw);
  }
  return root;
}

/** `jsonAsText`: see Dialect.jsonArrivesAsText. */
/** `wire`: a conversion of its own (the export's, which reads timestamps as text); absent: the per-type converters. */
export function assembler(columns: readonly Column[], jsonAsText: boolean, wire?: WireValue): RecordAssembler {
  const { slots, nodeCount } = slotsOf(columns, jsonAsText, wire);
  if (nodeCount === 1) return (rows) => rows.map((row) => assembleFlat(row, slots));
  return (rows) => rows.map((row) => assembleRow(row, slots, nodeCount));
}
