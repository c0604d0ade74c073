/**
 * Live databases for the plan tests (sort-plan.test.ts): each opens the product's own driver and
 * bound dialect over a fresh database, loads a generated table, and reads a statement's plan as
 * two facts: whether the database sorted rows itself, and how many rows it read from the table.
 *
 * PGlite always runs; PostgreSQL and MariaDB run when reachable (mandatory under CI=true, as in
 * test/support/vendors.ts). SQL Server cannot run on this machine and has no plan target.
 */
import pg from 'pg';
import { connectedOrSkipped, pgClient, SERVER_CONNECT_TIMEOUT_MS } from '../support/probe.ts';
import { render, type CompiledSql, type Sql } from '../../core/sql.ts';
import type { BoundDialect, Driver } from '../../dialects/dialect.ts';
import { createPGliteDriver, createPostgresDialect, openPGlite } from '../../dialects/postgres/index.ts';
import { dialect as mysqlDialect, mysqlAvailable, openTestDatabase } from '../dialects/mysql/mysql-setup.ts';
import { PG_ADMIN_URL } from '../support/vendors.ts';
import { uniqueName } from '../support/names.ts';

/** What a plan says about reading a page. */
export interface PlanFacts {
  /** The database sorted rows itself (PostgreSQL Sort / Incremental Sort, MySQL filesort). */
  readonly sorted: boolean;
  /** Rows the table scans read (returned or dropped by their filter), summed over every scan and loop (executed, not estimated). */
  readonly rowsRead: number;
}

export interface PlanTarget {
  readonly name: string;
  readonly dialect: BoundDialect;
  readonly driver: Driver;
  /** Runs raw SQL with no parameters (DDL and loading). */
  exec(text: string): Promise<void>;
  /** Executes `statement` under the vendor's EXPLAIN ANALYZE and reads its plan. */
  explain(statement: Sql): Promise<PlanFacts>;
  close(): Promise<void>;
}

// ——— PostgreSQL and PGlite ———

interface PgPlanNode {
  readonly 'Node Type': string;
  readonly 'Actual Rows'?: number;
  readonly 'Actual Loops'?: number;
  readonly 'Rows Removed by Filter'?: number;
  readonly Plans?: readonly PgPlanNode[];
}

function pgFacts(node: PgPlanNode): PlanFacts {
  const children = (node.Plans ?? []).map(pgFacts);
  const type = node['Node Type'];
  // Actual Rows counts what a scan returned; the rows its filter dropped were read too.
  const own = type.endsWith('Scan') ? ((node['Actual Rows'] ?? 0) + (node['Rows Removed by Filter'] ?? 0)) * (node['Actual Loops'] ?? 1) : 0;
  return {
    sorted: type.endsWith('Sort') || children.some((c) => c.sorted),
    rowsRead: children.reduce((sum, c) => sum + c.rowsRead, own),
  };
}

/** EXPLAIN (ANALYZE, FORMAT JSON) answers one row whose only column is the plan (JSON or its text). */
async function pgExplain(driver: Driver, dialect: BoundDialect, statement: Sql): Promise<PlanFacts> {
  const { text, params } = render(statement, dialect.sql);
  const result = await driver.query({ text: `EXPLAIN (ANALYZE, FORMAT JSON) ${text}`, params });
  const cell = Object.values(result.rows[0] ?? {})[0];
  const plan = (typeof cell === 'string' ? JSON.parse(cell) : cell) as { Plan: PgPlanNode }[];
  return pgFacts(plan[0]!.Plan);
}

function pgTarget(name: string, driver: Driver, close: () => Promise<void>): PlanTarget {
  const dialect = createPostgresDialect().bind({ vendor: 'postgres', schema: 'public' });
  return {
    name,
    dialect,
    driver,
    exec: async (text) => void (await driver.query({ text, params: [] })),
    explain: (statement) => pgExplain(driver, dialect, statement),
    close,
  };
}

async function openPGliteTarget(): Promise<PlanTarget> {
  const db = await openPGlite();
  return pgTarget('pglite', createPGliteDriver(db), () => db.close());
}

async function postgresReachable(): Promise<boolean> {
  const client = await connectedOrSkipped(() => pgClient({ connectionString: PG_ADMIN_URL, connectionTimeoutMillis: SERVER_CONNECT_TIMEOUT_MS }));
  await client?.end();
  return client !== null;
}

async function adminQuery(text: string): Promise<void> {
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(text);
  } finally {
    await admin.end();
  }
}

async function openPostgresTarget(): Promise<PlanTarget> {
  const database = uniqueName('wdapi_plan');
  await adminQuery(`CREATE DATABASE ${database}`);
  const url = PG_ADMIN_URL.replace(/\/[^/]*$/, `/${database}`);
  const driver = await createPostgresDialect().connect({ vendor: 'postgres', url, poolSize: 2 });
  return pgTarget('postgres', driver, async () => {
    await driver.close();
    await adminQuery(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  });
}

// ——— MariaDB ———

/** A table access of ANALYZE FORMAT=JSON: r_rows is per loop. */
interface MariaTable {
  readonly r_loops?: number;
  readonly r_rows?: number;
}

/** Walks the whole JSON plan: any `filesort` object means a sort; every `table` adds its rows. */
function mariaFacts(node: unknown): PlanFacts {
  if (node === null || typeof node !== 'object') return { sorted: false, rowsRead: 0 };
  let sorted = false;
  let rowsRead = 0;
  for (const [key, value] of Object.entries(node)) {
    if (key === 'filesort') sorted = true;
    if (key === 'table' && value && typeof value === 'object') {
      const table = value as MariaTable;
      rowsRead += (table.r_rows ?? 0) * (table.r_loops ?? 1);
    }
    const inner = mariaFacts(value);
    sorted ||= inner.sorted;
    rowsRead += inner.rowsRead;
  }
  return { sorted, rowsRead };
}

async function openMariadbTarget(): Promise<PlanTarget> {
  const db = await openTestDatabase(false);
  const dialect = mysqlDialect.bind({ vendor: 'mysql' });
  return {
    name: 'mariadb',
    dialect,
    driver: db.driver,
    exec: async (text) => void (await db.query(text)),
    async explain(statement) {
      // ANALYZE runs the statement as the product's driver would and reports what it read.
      const { text, params } = render(statement, dialect.sql);
      const result = await db.driver.query({ text: `ANALYZE FORMAT=JSON ${text}`, params } satisfies CompiledSql);
      const cell = Object.values(result.rows[0] ?? {})[0];
      return mariaFacts(JSON.parse(String(cell)));
    },
    close: () => db.close(),
  };
}

export interface PlanTargetOpener {
  readonly name: string;
  available(): Promise<boolean>;
  open(): Promise<PlanTarget>;
}

export const PLAN_TARGETS: readonly PlanTargetOpener[] = [
  { name: 'pglite', available: async () => true, open: openPGliteTarget },
  { name: 'postgres', available: postgresReachable, open: openPostgresTarget },
  { name: 'mariadb', available: mysqlAvailable, open: openMariadbTarget },
];
