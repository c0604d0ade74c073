/** Flat joined rows → nested records. Many-to-one expansions come back as aliased columns. */
import type { ColumnType } from '../schema/introspection.ts';
import { toWireValue } from '../schema/values.ts';

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

/** A column with its node slots worked out once per query, not once per cell. */
interface Slot {
  readonly column: Column;
  /** Index of the node the value goes into (0 is the root). */
  readonly node: number;
  /** For an expanded node's key column: the parent node and the relationship name. */
  readonly parent: number;
  readonly name: string;
}

function slotsOf(columns: readonly Column[]): { slots: Slot[]; nodeCount: number } {
  const indexOf = new Map<string, number>([['', 0]]);
  const slots = columns.map((column) => {
    const key = column.path.join('.');
    if (column.key === null && !indexOf.has(key)) indexOf.set(key, indexOf.size);
    const parent = indexOf.get(column.path.slice(0, -1).join('.')) ?? 0;
    return { column, node: indexOf.get(key) ?? 0, parent, name: column.path[column.path.length - 1] ?? '' };
  });
  return { slots, nodeCount: indexOf.size };
}

function assembleRow(row: Record<string, unknown>, slots: readonly Slot[], nodeCount: number, jsonAsText: boolean, wire: WireValue): JsonRecord {
  const nodes: (JsonRecord | null)[] = new Array<JsonRecord | null>(nodeCount).fill(null);
  const root: JsonRecord = {};
  nodes[0] = root;
  for (const slot of slots) {
    const raw = row[slot.column.alias];
    if (slot.column.key === null) {
      const parent = nodes[slot.parent] ?? null;
      const child = parent && raw !== null && raw !== undefined ? {} : null;
      if (parent) parent[slot.name] = child;
      nodes[slot.node] = child;
      continue;
    }
    const target = nodes[slot.node];
    if (target) target[slot.column.key] = wire(slot.column.type, raw, jsonAsText);
  }
  return root;
}

/** `jsonAsText`: see Dialect.jsonArrivesAsText. */
export function assembler(columns: readonly Column[], jsonAsText: boolean, wire: WireValue = toWireValue): RecordAssembler {
  const { slots, nodeCount } = slotsOf(columns);
  return (rows) => rows.map((row) => assembleRow(row, slots, nodeCount, jsonAsText, wire));
}
