/**
 * The bench data set in its own database: 50 regions, 100k customers, 1k products, 1M orders,
 * generated server-side by deterministic expressions of generate_series (no randomness, no
 * row-by-row traffic), so every run reads the same rows. Reused when the counts and the
 * version stamp match; `fresh` rebuilds it.
 */
import pg from 'pg';
import { postgresFixtureDdl, postgresResetSequences } from '../../test/support/postgres-fixture.ts';

export const DATASET = { regions: 50, customers: 100_000, products: 1_000, orders: 1_000_000 } as const;

/** Bumped whenever the generator changes, so an old data set is rebuilt. */
const STAMP = 'wdapi-bench dataset v1';
const TABLES = ['regions', 'customers', 'products', 'orders'] as const;

export interface BenchDatabase {
  readonly name: string;
  readonly url: string;
  readonly rebuilt: boolean;
}

function withDatabase(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

async function databaseExists(adminUrl: string, name: string): Promise<boolean> {
  return withClient(adminUrl, async (c) => (await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount === 1);
}

/** True when the database holds this generator's rows (orders created by earlier runs aside). */
async function isComplete(client: pg.Client, name: string): Promise<boolean> {
  const stamp = await client.query('SELECT shobj_description(oid, $2) AS stamp FROM pg_database WHERE datname = $1', [name, 'pg_database']);
  if (stamp.rows[0]?.stamp !== STAMP) return false;
  const counts = await client.query(`SELECT
      (SELECT count(*) FROM regions)::int AS regions, (SELECT count(*) FROM customers)::int AS customers,
      (SELECT count(*) FROM products)::int AS products,
      (SELECT count(*) FROM orders WHERE id <= ${DATASET.orders})::int AS orders`);
  const row = counts.rows[0] as Record<string, number> | undefined;
  return TABLES.every((t) => row?.[t] === DATASET[t]);
}

const GENERATE = [
  `INSERT INTO regions (id, name) SELECT g, 'Region ' || lpad(g::text, 2, '0') FROM generate_series(1, ${DATASET.regions}) g`,
  `INSERT INTO customers (id, name, email, region_id, vip, birth_date, created_at)
     SELECT g, 'Customer ' || g, 'customer' || g || '@example.com', (g * 7) % ${DATASET.regions} + 1, g % 10 = 0,
            date '1950-01-01' + (g * 37) % 20000, timestamptz '2020-01-01 00:00:00+00' + g * interval '1 minute'
     FROM generate_series(1, ${DATASET.customers}) g`,
  `INSERT INTO products (id, sku, name, price)
     SELECT g, 'SKU-' || lpad(g::text, 5, '0'), 'Product ' || g, ((g * 1301) % 50000) / 100.0 + 1
     FROM generate_series(1, ${DATASET.products}) g`,
  `INSERT INTO orders (id, customer_id, product_id, quantity, amount, status, note, ordered_at, created_at, updated_at)
     SELECT g, (g::bigint * 7919) % ${DATASET.customers} + 1, g % ${DATASET.products} + 1, g % 5 + 1, ((g::bigint * 7727) % 100000) / 100.0,
            (ARRAY['new', 'paid', 'shipped', 'cancelled'])[g % 4 + 1], CASE WHEN g % 7 = 0 THEN 'gift ' || g END,
            timestamptz '2021-01-01 00:00:00+00' + g * interval '30 seconds',
            timestamptz '2021-01-01 00:00:00+00' + g * interval '30 seconds',
            timestamptz '2021-01-01 00:00:00+00' + g * interval '30 seconds'
     FROM generate_series(1, ${DATASET.orders}) g`,
];

async function build(adminUrl: string, name: string, url: string): Promise<void> {
  await withClient(adminUrl, async (c) => {
    await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await c.query(`CREATE DATABASE "${name}"`);
  });
  await withClient(url, async (c) => {
    for (const statement of postgresFixtureDdl('public')) await c.query(statement);
    for (const statement of GENERATE) await c.query(statement);
    await c.query('CREATE INDEX orders_customer_id_idx ON orders (customer_id)');
    for (const statement of postgresResetSequences('public', [...TABLES])) await c.query(statement);
    await c.query('VACUUM ANALYZE');
    await c.query(`COMMENT ON DATABASE "${name}" IS '${STAMP}'`);
  });
}

/** Orders created by the write scenario go, so each run starts from the same 1M rows. */
export async function removeCreatedOrders(url: string): Promise<number> {
  return withClient(url, async (c) => {
    const result = await c.query(`DELETE FROM orders WHERE id > ${DATASET.orders}`);
    if ((result.rowCount ?? 0) > 0) await c.query('VACUUM ANALYZE orders');
    return result.rowCount ?? 0;
  });
}

export async function prepareDataset(adminUrl: string, name: string, fresh: boolean): Promise<BenchDatabase> {
  const url = withDatabase(adminUrl, name);
  const reusable = !fresh && (await databaseExists(adminUrl, name)) && (await withClient(url, (c) => isComplete(c, name)));
  if (!reusable) await build(adminUrl, name, url);
  else await removeCreatedOrders(url);
  return { name, url, rebuilt: !reusable };
}
