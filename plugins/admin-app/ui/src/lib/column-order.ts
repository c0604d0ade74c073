/** The grid's header order (pure, so vitest checks it: test/admin-app/column-order.test.ts). */

/** `names` with those in `order` first, in that order; the others after them as they came. */
export function inColumnOrder(names: readonly string[], order: readonly string[]): string[] {
  const rank = new Map(order.map((name, index) => [name, index]));
  const keyed = names.map((name, index) => ({ name, key: rank.get(name) ?? order.length + index }));
  return keyed.sort((a, b) => a.key - b.key).map((k) => k.name);
}
