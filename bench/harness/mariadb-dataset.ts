/**
 * The bench data set on MariaDB (scenario M): the same 50 regions, 100k customers, 1k products
 * and 1M orders as dataset.ts, from the same deterministic expressions over MariaDB's
 * SEQUENCE engine (`seq_1_to_N`), in the test fixture's tables. Reused when the counts and a
 * sample row match; `fresh` rebuilds it.
 */
import mysql from 'mysql2/promise';
import { mysqlFixtureDdl } from '../../test/support/mysql-fixture.ts';
import { DATASET } from './dataset.ts';

const ADMIN_URL = process.env.MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/test';
const NAME = 'wdapi_bench';

/** An order whose generated amount proves the rows come from this generator, not an older one. */
const PROBE_ID = 123_457;
const probeAmount = (): string => (((PROBE_ID * 7727) % 100_000) / 100).toFixed(2);

export function mariaBenchUrl(): string {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${NAME}`;
  return url.toString();
}

async function withConnection<T>(url: string, work: (c: mysql.Connection) => Promise<T>): Promise<T> {
  const connection = await mysql.createConnection({ uri: url, multipleStatements: false, timezone: 'Z', dateStrings: true });
  try {
    return await work(connection);
  } finally {
    await connection.end();
  }
}

async function isComplete(): Promise<boolean> {
  return withConnection(ADMIN_URL, async (c) => {
    const [tables] = await c.query('SELECT COUNT(*) AS n FROM information_schema.tables WHERE table_schema = ?', [NAME]);
    if (Number((tables as { n: number }[])[0]?.n) !== 4) return false;
    const [rows] = await c.query(`SELECT
        (SELECT COUNT(*) FROM ${NAME}.regions) AS regions, (SELECT COUNT(*) FROM ${NAME}.customers) AS customers,
        (SELECT COUNT(*) FROM ${NAME}.products) AS products, (SELECT COUNT(*) FROM ${NAME}.orders WHERE id <= ${DATASET.orders}) AS orders,
        (SELECT CAST(amount AS CHAR) FROM ${NAME}.orders WHERE id = ${PROBE_ID}) AS probe`);
    const row = (rows as Record<string, unknown>[])[0] ?? {};
    const counts = (['regions', 'customers', 'products', 'orders'] as const).every((t) => Number(row[t]) === DATASET[t]);
    return counts && row.probe === probeAmount();
  });
}

const GENERATE = [
  `INSERT INTO regions (id, name) SELECT seq, CONCAT('Region ', LPAD(seq, 2, '0')) FROM seq_1_to_${DATASET.regions}`,
  `INSERT INTO customers (id, name, email, region_id, vip, birth_date, created_at)
     SELECT seq, CONCAT('Customer ', seq), CONCAT('customer', seq, '@example.com'), (seq * 7) % ${DATASET.regions} + 1, seq % 10 = 0,
            DATE '1950-01-01' + INTERVAL ((seq * 37) % 20000) DAY, TIMESTAMP '2020-01-01 00:00:00' + INTERVAL seq MINUTE
     FROM seq_1_to_${DATASET.customers}`,
  `INSERT INTO products (id, sku, name, price)
     SELECT seq, CONCAT('SKU-', LPAD(seq, 5, '0')), CONCAT('Product ', seq), ((seq * 1301) % 50000) / 100.0 + 1
     FROM seq_1_to_${DATASET.products}`,
  `INSERT INTO orders (id, customer_id, product_id, quantity, amount, status, note, ordered_at, created_at, updated_at)
     SELECT seq, (seq * 7919) % ${DATASET.customers} + 1, seq % ${DATASET.products} + 1, seq % 5 + 1, ((seq * 7727) % 100000) / 100.0,
            ELT(seq % 4 + 1, 'new', 'paid', 'shipped', 'cancelled'), IF(seq % 7 = 0, CONCAT('gift ', seq), NULL),
            TIMESTAMP '2021-01-01 00:00:00' + INTERVAL (seq * 30) SECOND,
            TIMESTAMP '2021-01-01 00:00:00' + INTERVAL (seq * 30) SECOND,
            TIMESTAMP '2021-01-01 00:00:00' + INTERVAL (seq * 30) SECOND
     FROM seq_1_to_${DATASET.orders}`,
];

async function build(): Promise<void> {
  await withConnection(ADMIN_URL, async (c) => {
    await c.query(`DROP DATABASE IF EXISTS ${NAME}`);
    await c.query(`CREATE DATABASE ${NAME} CHARACTER SET utf8mb4`);
  });
  await withConnection(mariaBenchUrl(), async (c) => {
    await c.query("SET SESSION time_zone = '+00:00', SESSION foreign_key_checks = 0, SESSION unique_checks = 0");
    for (const statement of mysqlFixtureDdl()) await c.query(statement);
    for (const statement of GENERATE) await c.query(statement);
    await c.query('ANALYZE TABLE regions, customers, products, orders');
  });
}

export async function prepareMariaDataset(fresh: boolean): Promise<{ url: string; rebuilt: boolean }> {
  const reusable = !fresh && (await isComplete());
  if (!reusable) await build();
  return { url: mariaBenchUrl(), rebuilt: !reusable };
}
