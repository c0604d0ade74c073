/**
 * An in-memory model of the fixture as the API names it (camelCase fields, relationship paths),
 * so tests can compute the expected answer of a filter or sort without asking the service.
 */
import { CUSTOMERS, ORDERS, PRODUCTS, REGIONS, type FixtureRow } from './fixture.ts';

export type Value = string | number | boolean | null;
export type ModelRow = Record<string, Value>;

function byId(rows: FixtureRow[]): Map<unknown, FixtureRow> {
  return new Map(rows.map((r) => [r.id, r]));
}

const regions = byId(REGIONS);
const customers = byId(CUSTOMERS);
const products = byId(PRODUCTS);

/** One order with the values reachable from it under their API paths (`customer.region.name`). */
export function orderModel(order: FixtureRow): ModelRow {
  const customer = customers.get(order.customer_id) ?? null;
  const product = order.product_id === null ? null : (products.get(order.product_id) ?? null);
  const region = customer && customer.region_id !== null ? (regions.get(customer.region_id) ?? null) : null;
  return {
    id: order.id as number,
    customerId: order.customer_id as number,
    productId: order.product_id as number | null,
    quantity: order.quantity as number,
    amount: Number(order.amount),
    status: order.status as string,
    note: order.note as string | null,
    orderedAt: new Date(String(order.ordered_at)).getTime(),
    'customer.name': (customer?.name as string) ?? null,
    'customer.vip': (customer?.vip as boolean) ?? null,
    'customer.regionId': (customer?.region_id as number | null) ?? null,
    'customer.birthDate': (customer?.birth_date as string | null) ?? null,
    'customer.region.name': (region?.name as string) ?? null,
    'product.name': (product?.name as string) ?? null,
    'product.price': product ? Number(product.price) : null,
  };
}

export const ORDER_MODEL: ModelRow[] = ORDERS.map(orderModel);

export const CUSTOMER_MODEL: ModelRow[] = CUSTOMERS.map((c) => ({
  id: c.id as number,
  name: c.name as string,
  email: c.email as string,
  regionId: c.region_id as number | null,
  vip: c.vip as boolean,
  birthDate: c.birth_date as string | null,
  'region.name': c.region_id === null ? null : ((regions.get(c.region_id)?.name as string) ?? null),
}));

export interface SortKey {
  readonly path: string;
  readonly direction: 'asc' | 'desc';
}

/**
 * The service's order: each key ascending or descending with NULLs last ascending and first
 * descending (DESIGN §12), then `id` ascending as the tiebreak. Text compares by code unit, so
 * callers sort text only where every collation agrees.
 */
export function compareBy(keys: readonly SortKey[]): (a: ModelRow, b: ModelRow) => number {
  const all = keys.some((k) => k.path === 'id') ? keys : [...keys, { path: 'id', direction: 'asc' as const }];
  return (a, b) => {
    for (const { path, direction } of all) {
      const x = a[path] ?? null;
      const y = b[path] ?? null;
      if (x === y) continue;
      // NULL is the largest value: last ascending, first descending.
      const sign = direction === 'asc' ? 1 : -1;
      if (x === null) return sign;
      if (y === null) return -sign;
      return (x < y ? -1 : 1) * sign;
    }
    return 0;
  };
}

export function sortedIds(rows: readonly ModelRow[], keys: readonly SortKey[]): number[] {
  return [...rows].sort(compareBy(keys)).map((r) => r.id as number);
}
