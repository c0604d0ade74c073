/**
 * Databases the formula tests run on: in-process PGlite always; the real PostgreSQL at
 * 127.0.0.1:5432 when reachable (mandatory when CI=true), in a temporary database dropped at
 * the end. Both get the fixture tables; `select` runs one formula over every orders row.
 */
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { ident, render, sql, type Sql } from '../../core/sql.ts';
import { emitFormula, type CheckedFormula, type FormulaValue } from '../../core/formula/index.ts';
import { postgresFormula } from '../../dialects/postgres/postgres-formula.ts';
import { orders, customers, regions, pgRenderer } from './fixtures.ts';

export interface Target {
  readonly name: string;
  query(text: string, params?: unknown[]): Promise<Record<string, unknown>[]>;
  close(): Promise<void>;
}

/** Dates and timestamps arrive as text, so nothing is shifted by the client's time zone. */
const RAW_TEXT_TYPES = [1082, 1114, 1184];

export async function openPGliteTarget(): Promise<Target> {
  const parsers = Object.fromEntries(RAW_TEXT_TYPES.map((oid) => [oid, (v: string) => v]));
  const db = new PGlite({ parsers });
  await db.exec("SET TimeZone = 'UTC'");
  return {
    name: 'pglite',
    query: async (text, params) => (await db.query<Record<string, unknown>>(text, params)).rows,
    close: () => db.close(),
  };
}

const serverConfig = { host: '127.0.0.1', port: 5432, user: 'postgres', database: 'test', connectionTimeoutMillis: 2000 };

function rawTypes(): pg.CustomTypesConfig {
  return {
    getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
      RAW_TEXT_TYPES.includes(oid) ? (v: string) => v : pg.types.getTypeParser(oid, format)) as pg.CustomTypesConfig['getTypeParser'],
  };
}

/** The real server in a fresh database, or null when it is not reachable (and CI is not set). */
export async function openPostgresTarget(): Promise<Target | null> {
  const admin = new pg.Client(serverConfig);
  try {
    await admin.connect();
  } catch (error) {
    if (process.env.CI === 'true') throw error;
    return null;
  }
  const database = `wdapi_formula_${Math.random().toString(36).slice(2, 10)}`;
  await admin.query(`CREATE DATABASE ${database} TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C.UTF-8'`);
  const client = new pg.Client({ ...serverConfig, database, types: rawTypes() });
  await client.connect();
  await client.query("SET TimeZone = 'UTC'");
  return {
    name: 'postgres',
    query: async (text, params) => (await client.query(text, params)).rows as Record<string, unknown>[],
    close: async () => {
      await client.end();
      await admin.query(`DROP DATABASE IF EXISTS ${database}`);
      await admin.end();
    },
  };
}

export async function openTargets(): Promise<Target[]> {
  const targets = [await openPGliteTarget()];
  const server = await openPostgresTarget();
  if (server) targets.push(server);
  return targets;
}

export async function createFixtureTables(target: Target): Promise<void> {
  await target.query('DROP TABLE IF EXISTS orders, customers, regions');
  await target.query('CREATE TABLE regions (id integer PRIMARY KEY, name text)');
  await target.query('CREATE TABLE customers (id integer PRIMARY KEY, name text, region_id integer, vip boolean)');
  await target.query(`CREATE TABLE orders (
    id integer PRIMARY KEY, amount double precision, qty integer, price numeric, note text,
    code varchar(20), paid boolean, order_date date, created_at timestamp, shipped_at timestamptz,
    customer_id integer, token uuid, blob bytea)`);
}

export type Row = Record<string, FormulaValue>;

/** Inserts rows keyed by API path (`amount`, `customer.name`, `customer.region.name`, …). */
export async function insertRows(target: Target, rows: readonly Row[]): Promise<void> {
  await target.query('DELETE FROM orders');
  await target.query('DELETE FROM customers');
  await target.query('DELETE FROM regions');
  for (const [i, row] of rows.entries()) {
    const id = i + 1;
    await target.query('INSERT INTO regions (id, name) VALUES ($1, $2)', [id, row['customer.region.name'] ?? null]);
    await target.query('INSERT INTO customers (id, name, region_id, vip) VALUES ($1, $2, $3, $4)', [
      id,
      row['customer.name'] ?? null,
      id,
      row['customer.vip'] ?? null,
    ]);
    const columns = orders.fields.filter((f) => f.name !== 'id' && f.name !== 'customerId' && f.name in row);
    const values = columns.map((f) => row[f.name] ?? null);
    const list = ['id', 'customer_id', ...columns.map((f) => f.column)].join(', ');
    const placeholders = values.map((_, j) => `$${j + 3}`).join(', ');
    await target.query(`INSERT INTO orders (${list}) VALUES ($1, $2${values.length ? ', ' : ''}${placeholders})`, [id, id, ...values]);
  }
}

const aliases = ['o', 'c', 'r'];
const entitiesByDepth = [orders, customers, regions];

/** What the query planner would supply: one alias per relationship hop. */
export function columnRef(path: readonly string[]): Sql {
  const depth = path.length - 1;
  const entity = entitiesByDepth[depth];
  const name = path[path.length - 1];
  const field = entity?.fields.find((f) => f.name === name);
  if (!field) throw new Error(`no fixture column for ${path.join('.')}`);
  return ident(aliases[depth]!, field.column);
}

export function selectFormula(checked: CheckedFormula): { text: string; params: readonly unknown[] } {
  const expr = emitFormula(checked, { dialect: postgresFormula, columnRef });
  const query = sql`SELECT o.id AS id, ${expr} AS v FROM orders o
    LEFT JOIN customers c ON c.id = o.customer_id LEFT JOIN regions r ON r.id = c.region_id ORDER BY o.id`;
  return render(query, pgRenderer);
}

/** A driver value as the evaluator would give it: -0 is 0, timestamps ISO with ms and Z. */
export function normalise(value: unknown, type: string): unknown {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return value === 0 ? 0 : value;
  if (type === 'timestamp' && typeof value === 'string') {
    const m = /^(\d{4}-\d\d-\d\d)[ T](\d\d:\d\d:\d\d)(?:\.(\d+))?/.exec(value);
    return m ? `${m[1]}T${m[2]}.${(m[3] ?? '').padEnd(3, '0').slice(0, 3)}Z` : value;
  }
  if (type === 'number' && typeof value === 'string') return Number(value);
  return value;
}

/** Runs the formula over all rows; each entry is a value or `{ error }`. */
export async function runOnDatabase(target: Target, checked: CheckedFormula): Promise<unknown[] | { error: string }> {
  const { text, params } = selectFormula(checked);
  try {
    const rows = await target.query(text, [...params]);
    return rows.map((r) => normalise(r.v, checked.type));
  } catch (error) {
    return { error: (error as Error).message };
  }
}
