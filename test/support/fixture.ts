/**
 * The shared test data set: regions ← customers ← orders → products, with unique columns,
 * nullable and non-null foreign keys, decimals, booleans, dates, timestamps, unicode and NULLs.
 * Each vendor gets the same rows through its own DDL (test/support/vendors.ts).
 */
export interface FixtureRow {
  [column: string]: string | number | boolean | null;
}

export const REGIONS: FixtureRow[] = [
  { id: 1, name: 'North' },
  { id: 2, name: 'South' },
  { id: 3, name: 'Ωmega 東京' },
];

export const CUSTOMERS: FixtureRow[] = Array.from({ length: 12 }, (_, i) => ({
  id: i + 1,
  name: ['Ada', 'Grace', 'Alan', 'Edsger', 'Barbara', 'Donald', 'Zoë', 'Ken', 'Frances', 'John', 'Radia', '100%_done'][i] ?? 'x',
  email: `user${i + 1}@example.com`,
  region_id: i % 4 === 3 ? null : (i % 3) + 1,
  vip: i % 3 === 0,
  birth_date: i % 5 === 0 ? null : `19${70 + i}-0${(i % 9) + 1}-15`,
}));

export const PRODUCTS: FixtureRow[] = [
  { id: 1, sku: 'KB-01', name: 'Keyboard', price: '49.90' },
  { id: 2, sku: 'MS-02', name: 'Mouse', price: '19.50' },
  { id: 3, sku: 'MN-03', name: 'Monitor', price: '229.00' },
];

export const STATUSES = ['new', 'paid', 'shipped'];

export const ORDERS: FixtureRow[] = Array.from({ length: 45 }, (_, i) => ({
  id: i + 1,
  customer_id: (i % 12) + 1,
  product_id: i % 7 === 6 ? null : (i % 3) + 1,
  quantity: (i % 5) + 1,
  amount: `${(i * 13) % 200}.${String((i * 7) % 100).padStart(2, '0')}`,
  status: STATUSES[i % 3] ?? 'new',
  note: i % 4 === 0 ? null : i % 4 === 1 ? '' : `note ${i}`,
  ordered_at: `2026-0${(i % 9) + 1}-1${i % 10}T0${i % 10}:30:00.000Z`,
}));

export const TABLE_ROWS: [string, FixtureRow[]][] = [
  ['regions', REGIONS],
  ['customers', CUSTOMERS],
  ['products', PRODUCTS],
  ['orders', ORDERS],
];
