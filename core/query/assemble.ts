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

function assembleRow(row: Record<string, unknown>, columns: readonly Column[]): JsonRecord {
  const root: JsonRecord = {};
  const nodes = new Map<string, JsonRecord | null>([['', root]]);
  for (const column of columns) {
    const key = column.path.join('.');
    const raw = row[column.alias];
    if (column.key === null) {
      const parent = nodes.get(column.path.slice(0, -1).join('.'));
      const name = column.path[column.path.length - 1] ?? '';
      const child = parent && raw !== null && raw !== undefined ? {} : null;
      if (parent) parent[name] = child;
      nodes.set(key, child);
      continue;
    }
    const target = nodes.get(key);
    if (target) target[column.key] = toWireValue(column.type, raw);
  }
  return root;
}

export function assembler(columns: readonly Column[]): RecordAssembler {
  return (rows) => rows.map((row) => assembleRow(row, columns));
}
