/**
 * Databases the formula tests run on, each with its formula dialect, renderer and fixture DDL:
 * - in-process PGlite, always;
 * - the real PostgreSQL at 127.0.0.1:5432 when reachable (mandatory when CI=true), in a
 *   temporary database dropped at the end;
 * - MariaDB at MYSQL_URL (default mysql://root@127.0.0.1:3306/test) when reachable (mandatory
 *   when CI=true), in a throwaway database, queried through the product's MySQL driver
 *   (server-side prepared statements, utf8mb4 connection, UTC session) exactly as a read would.
 * Every target gets the fixture tables; `runOnDatabase` runs one formula over every orders row.
 *
 * MariaDB fixture collation: the tables are InnoDB utf8mb4 with `utf8mb4_general_ci`, MariaDB
 * 10.11's default and what most real tables have — case- and accent-insensitive and PAD SPACE.
 * That is deliberate: the agreed meaning (code-point order, case-sensitive, trailing spaces
 * significant) must come from the emitter, not from a friendly fixture, so a binary collation
 * here would hide exactly the bugs this test is for.
 */
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { connectedOrSkipped, pgClient, SERVER_CONNECT_TIMEOUT_MS } from '../support/probe.ts';
import { ident, raw, render, sql, type Sql, type SqlRenderer } from '../../core/sql.ts';
import { checkFormula, emitFormula, type CheckContext, type CheckedFormula, type FormulaDialect, type FormulaValue } from '../../core/formula/index.ts';
import type { ColumnType } from '../../core/schema/introspection.ts';
import { postgresFormula } from '../../dialects/postgres/postgres-formula.ts';
import { mysqlFormula } from '../../dialects/mysql/mysql-formula.ts';
import { orders, customers, regions, pgRenderer, context as pgContext, mysqlContext } from '../support/formula-fixtures.ts';
import { dialect as mysqlDialect, mysqlAvailable, openTestDatabase } from '../dialects/mysql/mysql-setup.ts';

export interface Target {
  readonly name: string;
  /** The formula dialect the product uses on this vendor. */
  readonly dialect: FormulaDialect;
  /** Placeholders and identifier quoting of the vendor. */
  readonly renderer: SqlRenderer;
  /** The fixture model with this vendor's native column types (they drive `fieldValue`). */
  readonly context: CheckContext;
  /** Statements that (re)create the fixture tables regions, customers, orders. */
  readonly ddl: readonly string[];
  /** A row value as the vendor accepts it on insert. */
  toParam(value: FormulaValue, type: ColumnType): unknown;
  /** A driver value as the evaluator would give it, for a formula of `type`. */
  normalise(value: unknown, type: string): unknown;
  query(text: string, params?: unknown[]): Promise<Record<string, unknown>[]>;
  /** The fixture table `name` as statements spell it (a qualified name under the conformance kit). */
  table?(name: string): string;
  close(): Promise<void>;
}

const tableOf = (target: Target, name: string): string => target.table?.(name) ?? name;

// ——— PostgreSQL (PGlite and server) ———

/** Dates and timestamps arrive as text, so nothing is shifted by the client's time zone. */
const RAW_TEXT_TYPES = [1082, 1114, 1184];

const POSTGRES_DDL = [
  'DROP TABLE IF EXISTS orders, customers, regions',
  'CREATE TABLE regions (id integer PRIMARY KEY, name text)',
  'CREATE TABLE customers (id integer PRIMARY KEY, name text, region_id integer, vip boolean)',
  `CREATE TABLE orders (
    id integer PRIMARY KEY, amount double precision, qty integer, price numeric, note text,
    code varchar(20), paid boolean, order_date date, created_at timestamp, shipped_at timestamptz,
    customer_id integer, token uuid, blob bytea)`,
];

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

const postgresTarget = (name: string, query: Target['query'], close: () => Promise<void>): Target => ({
  name,
  dialect: postgresFormula,
  renderer: pgRenderer,
  context: pgContext,
  ddl: POSTGRES_DDL,
  toParam: (value) => value,
  normalise,
  query,
  close,
});

export async function openPGliteTarget(): Promise<Target> {
  const parsers = Object.fromEntries(RAW_TEXT_TYPES.map((oid) => [oid, (v: string) => v]));
  const db = new PGlite({ parsers });
  await db.exec("SET TimeZone = 'UTC'");
  return postgresTarget('pglite', async (text, params) => (await db.query<Record<string, unknown>>(text, params)).rows, () => db.close());
}

const serverConfig = { host: '127.0.0.1', port: 5432, user: 'postgres', database: 'test', connectionTimeoutMillis: SERVER_CONNECT_TIMEOUT_MS };

function rawTypes(): pg.CustomTypesConfig {
  return {
    getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
      RAW_TEXT_TYPES.includes(oid) ? (v: string) => v : pg.types.getTypeParser(oid, format)) as pg.CustomTypesConfig['getTypeParser'],
  };
}

/** The real server in a fresh database, or null when it is not reachable (and CI is not set). */
export async function openPostgresTarget(): Promise<Target | null> {
  const admin = await connectedOrSkipped(() => pgClient(serverConfig));
  if (!admin) return null;
  const database = `wdapi_formula_${Math.random().toString(36).slice(2, 10)}`;
  await admin.query(`CREATE DATABASE ${database} TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C.UTF-8'`);
  const client = new pg.Client({ ...serverConfig, database, types: rawTypes() });
  await client.connect();
  await client.query("SET TimeZone = 'UTC'");
  return postgresTarget(
    'postgres',
    async (text, params) => (await client.query(text, params)).rows as Record<string, unknown>[],
    async () => {
      await client.end();
      await admin.query(`DROP DATABASE IF EXISTS ${database}`);
      await admin.end();
    },
  );
}

// ——— MariaDB ———

const MARIADB_TABLE = 'ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci';

const MARIADB_DDL = [
  'DROP TABLE IF EXISTS orders, customers, regions',
  `CREATE TABLE regions (id int PRIMARY KEY, name text) ${MARIADB_TABLE}`,
  `CREATE TABLE customers (id int PRIMARY KEY, name text, region_id int, vip tinyint(1)) ${MARIADB_TABLE}`,
  `CREATE TABLE orders (
    id int PRIMARY KEY, amount double, qty int, price decimal(38,15), note text,
    code varchar(20), paid tinyint(1), order_date date, created_at datetime(3), shipped_at datetime(3),
    customer_id int, token char(36), \`blob\` blob) ${MARIADB_TABLE}`,
];

/**
 * The driver's values (mysql-driver.ts): booleans as 0/1, DECIMAL/BIGINT as text, dates and
 * datetimes as text. A date must arrive as a bare date (a DATETIME where a date was meant is a
 * disagreement, not something to trim), and a text formula must arrive as a string (a Buffer
 * means the emitter leaked a binary string).
 */
function normaliseMariadb(value: unknown, type: string): unknown {
  if (value === null || value === undefined) return null;
  if (type === 'boolean' && (typeof value === 'number' || typeof value === 'string')) {
    return String(value) === '1' ? true : String(value) === '0' ? false : value;
  }
  if (type === 'number' && typeof value === 'string') return Number(value) === 0 ? 0 : Number(value);
  // Anything but the exact DATETIME text stays as it is and fails the comparison.
  if (type === 'timestamp' && typeof value === 'string' && !/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d+)?$/.test(value)) return value;
  return normalise(value, type);
}

/** The MariaDB server in a throwaway database, or null when unreachable (CI=true: an error). */
export async function openMariadbTarget(): Promise<Target | null> {
  if (!(await mysqlAvailable())) return null;
  const db = await openTestDatabase(false);
  return {
    name: 'mariadb',
    dialect: mysqlFormula,
    renderer: mysqlDialect.sql,
    context: mysqlContext,
    ddl: MARIADB_DDL,
    toParam: (value, type) =>
      type === 'timestamp' && typeof value === 'string' ? value.replace('T', ' ').replace(/Z$/, '') : value,
    normalise: normaliseMariadb,
    query: async (text, params) => (await db.driver.query({ text, params: params ?? [] })).rows as Record<string, unknown>[],
    close: () => db.close(),
  };
}

export async function openTargets(): Promise<Target[]> {
  // Under the conformance kit the evaluator is the oracle for the plugin's database alone.
  if (process.env.WDAPI_CONFORMANCE_DIALECT) return [await (await import('../conformance/formula-target.ts')).openPluginFormulaTarget()];
  const targets = [await openPGliteTarget()];
  const server = await openPostgresTarget();
  if (server) targets.push(server);
  const mariadb = await openMariadbTarget();
  if (mariadb) targets.push(mariadb);
  return targets;
}

/** `targets` (every reachable database by default), each with the fixture tables holding `rows`. */
export async function openLoadedTargets(rows: readonly Row[], targets?: Promise<Target[]>): Promise<Target[]> {
  const opened = await (targets ?? openTargets());
  for (const target of opened) {
    await createFixtureTables(target);
    await insertRows(target, rows);
  }
  return opened;
}

export async function createFixtureTables(target: Target): Promise<void> {
  for (const statement of target.ddl) await target.query(statement);
}

export type Row = Record<string, FormulaValue>;

/** Inserts rows keyed by API path (`amount`, `customer.name`, `customer.region.name`, …). */
export async function insertRows(target: Target, rows: readonly Row[]): Promise<void> {
  const p = (i: number) => target.renderer.placeholder(i);
  const q = (name: string) => target.renderer.quoteIdent(name);
  const [orderTable, customerTable, regionTable] = ['orders', 'customers', 'regions'].map((name) => tableOf(target, name));
  await target.query(`DELETE FROM ${orderTable}`);
  await target.query(`DELETE FROM ${customerTable}`);
  await target.query(`DELETE FROM ${regionTable}`);
  for (const [i, row] of rows.entries()) {
    const id = i + 1;
    await target.query(`INSERT INTO ${regionTable} (id, name) VALUES (${p(1)}, ${p(2)})`, [id, row['customer.region.name'] ?? null]);
    await target.query(`INSERT INTO ${customerTable} (id, name, region_id, vip) VALUES (${p(1)}, ${p(2)}, ${p(3)}, ${p(4)})`, [
      id,
      row['customer.name'] ?? null,
      id,
      row['customer.vip'] ?? null,
    ]);
    const columns = orders.fields.filter((f) => f.name !== 'id' && f.name !== 'customerId' && f.name in row);
    const values = columns.map((f) => target.toParam(row[f.name] ?? null, f.type));
    const list = ['id', 'customer_id', ...columns.map((f) => f.column)].map(q).join(', ');
    const placeholders = [id, id, ...values].map((_, j) => p(j + 1)).join(', ');
    await target.query(`INSERT INTO ${orderTable} (${list}) VALUES (${placeholders})`, [id, id, ...values]);
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

/**
 * The read statement for a formula on `target`. The formula is checked again against the
 * target's model so the dialect sees the vendor's native column types.
 */
export function selectFormula(target: Target, checked: CheckedFormula): { text: string; params: readonly unknown[] } {
  const own = target.context === pgContext ? checked : checkFormula(checked.ast, target.context);
  const expr = emitFormula(own, { dialect: target.dialect, columnRef });
  const [orderTable, customerTable, regionTable] = ['orders', 'customers', 'regions'].map((name) => raw(tableOf(target, name)));
  const query = sql`SELECT o.id AS id, ${expr} AS v FROM ${orderTable} o
    LEFT JOIN ${customerTable} c ON c.id = o.customer_id LEFT JOIN ${regionTable} r ON r.id = c.region_id ORDER BY o.id`;
  return render(query, target.renderer);
}

/** Runs the formula over all rows; each entry is a value or `{ error }`. */
export async function runOnDatabase(target: Target, checked: CheckedFormula): Promise<unknown[] | { error: string }> {
  const { text, params } = selectFormula(target, checked);
  try {
    const rows = await target.query(text, [...params]);
    return rows.map((r) => target.normalise(r.v, checked.type));
  } catch (error) {
    return { error: (error as Error).message };
  }
}
