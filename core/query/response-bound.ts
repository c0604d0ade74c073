/**
 * The bound on the items one response may hold (DESIGN §13): nested one-to-many arrays multiply,
 * so `size` 5 with two nested arrays of 1000 asks for five million items. The bound is checked on
 * the plan, before anything runs, and a request past it is refused (400) rather than cut: a
 * truncation is never silent. A page holds `size` rows; an export, unpaged, is bounded per row.
 */
import { badRequest } from '../errors.ts';
import type { ReadPlan } from './plan.ts';

/** The default of MAX_RESPONSE_ITEMS: a page of 1000 rows with four arrays of 20 fits with room to spare. */
export const DEFAULT_MAX_RESPONSE_ITEMS = 100_000;

/** The array paths that hold `path`'s items: itself and every array path it is nested under. */
function enclosingArrays(path: string, sizes: Readonly<Record<string, number>>): number[] {
  const segments = path.split('.');
  const limits: number[] = [];
  for (let i = 1; i <= segments.length; i++) {
    const limit = sizes[segments.slice(0, i).join('.')];
    if (limit !== undefined) limits.push(limit);
  }
  return limits;
}

/** Most items one root row may carry: itself plus, per array path, the product of the limits above it. */
export function itemsPerRow(plan: Pick<ReadPlan, 'expandSizes'>): number {
  const sizes = plan.expandSizes ?? {};
  let items = 1;
  for (const path of Object.keys(sizes)) items += enclosingArrays(path, sizes).reduce((product, limit) => product * limit, 1);
  return items;
}

/** Refuses a plan whose `rows` root rows (the page size; 1 for an export's row) may hold more than `limit` items. */
export function checkResponseItems(plan: Pick<ReadPlan, 'expandSizes'>, rows: number, limit: number): void {
  const items = rows * itemsPerRow(plan);
  if (items <= limit) return;
  const what = rows === 1 ? 'one exported row' : `a page of ${rows} rows`;
  throw badRequest(
    `${what} with these arrays may hold ${items} items, more than ${limit} items (MAX_RESPONSE_ITEMS); lower 'size' or 'expandSize[…]'`,
    { maxResponseItems: limit, items },
  );
}
