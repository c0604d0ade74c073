/**
 * The order of a view's columns (DESIGN §12 `position`). Moving one column shifts the others, and
 * positions stay dense (0..n-1) after every move or removal, so a client can show and send them
 * as plain indexes.
 */
import type { ControlStore } from '../workspace/store.ts';
import type { ColumnRecord } from '../workspace/types.ts';

/** The view's column uuids in order after moving `uuid` to index `position` (already in range). */
export function movedOrder(columns: readonly ColumnRecord[], uuid: string, position: number): string[] {
  const others = columns.filter((c) => c.uuid !== uuid).map((c) => c.uuid);
  return [...others.slice(0, position), uuid, ...others.slice(position)];
}

/** Writes `order` as positions 0..n-1, touching only the columns whose position changes. */
async function writeOrder(tx: ControlStore, columns: readonly ColumnRecord[], order: readonly string[]): Promise<void> {
  const current = new Map(columns.map((c) => [c.uuid, c.position]));
  for (const [index, uuid] of order.entries()) {
    if (current.get(uuid) !== index) await tx.updateColumn(uuid, { position: index });
  }
}

/**
 * Moves a column inside one control-store transaction; the view's row is locked first so that two
 * moves at once cannot both read the old order and leave two columns at one position.
 */
export async function moveColumn(tx: ControlStore, viewUuid: string, uuid: string, position: number): Promise<void> {
  await tx.lockView(viewUuid);
  const columns = await tx.listColumns(viewUuid);
  await writeOrder(tx, columns, movedOrder(columns, uuid, position));
}

/** Closes the gap a removed column leaves. */
export async function compactPositions(tx: ControlStore, viewUuid: string): Promise<void> {
  await tx.lockView(viewUuid);
  const columns = await tx.listColumns(viewUuid);
  await writeOrder(tx, columns, columns.map((c) => c.uuid));
}
