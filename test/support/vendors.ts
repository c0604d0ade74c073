/**
 * The databases a shared suite runs against. PGlite always runs; a real server runs when it is
 * reachable, and under CI=true it must be (an unreachable server fails the suite).
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { RunningService } from '../../server/start.ts';
import { TABLE_ROWS, type FixtureRow } from './fixture.ts';
import { mariadbTarget } from './mysql-target.ts';
import { postgresFixtureDdl, postgresResetSequences } from './postgres-fixture.ts';

export type Rows = Record<string, unknown>[];

export interface ProvisionedDatabase {
  /** The `database` payload of the workspace-creation admin call. */
  readonly database: Record<string, unknown>;
  /** Runs SQL directly on the workspace database (to check what the API did). */
  query(text: string, params?: unknown[]): Promise<Rows>;
  /** Qualified table name for direct queries. */
  table(name: string): string;
  drop(): Promise<void>;
}

export interface VendorTarget {
  readonly name: string;
  /** True when the database can be reached; false skips the suite unless CI=true. */
  available(): Promise<boolean>;
  provision(service: RunningService, withFixture: boolean): Promise<ProvisionedDatabase>;
}

export const PG_ADMIN_URL = process.env.PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

function uniqueName(prefix: string): string {
  return `${prefix}_${randomBytes(4).toString('hex')}`;
}

function insertStatement(schema: string, table: string, rows: FixtureRow[]): { text: string; params: unknown[] } {
  const columns = Object.keys(rows[0] ?? {});
  const params: unknown[] = [];
  const tuples = rows.map((row) => `(${columns.map((c) => { params.push(row[c]); return `$${params.length}`; }).join(', ')})`);
  return { text: `INSERT INTO "${schema}"."${table}" (${columns.map((c) => `"${c}"`).join(', ')}) VALUES ${tuples.join(', ')}`, params };
}

async function loadPostgresFixture(query: (text: string, params?: unknown[]) => Promise<Rows>, schema: string): Promise<void> {
  for (const statement of postgresFixtureDdl(schema)) await query(statement);
  for (const [table, rows] of TABLE_ROWS) {
    const { text, params } = insertStatement(schema, table, rows);
    await query(text, params);
  }
  for (const statement of postgresResetSequences(schema, TABLE_ROWS.map(([t]) => t))) await query(statement);
  await query(`ANALYZE`);
}

export const pgliteTarget: VendorTarget = {
  name: 'pglite',
  available: async () => true,
  async provision(service, withFixture) {
    const schema = uniqueName('ws');
    const query = async (text: string, params?: unknown[]): Promise<Rows> => (await service.embedded.query<Record<string, unknown>>(text, params)).rows;
    await query(`CREATE SCHEMA "${schema}"`);
    if (withFixture) await loadPostgresFixture(query, schema);
    return {
      database: { vendor: 'embedded', schema },
      query,
      table: (name) => `"${schema}"."${name}"`,
      drop: async () => void (await query(`DROP SCHEMA "${schema}" CASCADE`)),
    };
  },
};

async function reachable(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

export const postgresTarget: VendorTarget = {
  name: 'postgres',
  available: () => reachable(PG_ADMIN_URL),
  async provision(_service, withFixture) {
    const dbName = uniqueName('wdapi_test');
    const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${dbName}`);
    await admin.end();
    const url = PG_ADMIN_URL.replace(/\/[^/]*$/, `/${dbName}`);
    const pool = new pg.Pool({ connectionString: url, max: 2 });
    const query = async (text: string, params?: unknown[]): Promise<Rows> => (await pool.query(text, params)).rows as Rows;
    if (withFixture) await loadPostgresFixture(query, 'public');
    else await query('SELECT 1');
    return {
      database: { vendor: 'postgres', url, schema: 'public' },
      query,
      table: (name) => `"public"."${name}"`,
      async drop() {
        await pool.end();
        const cleaner = new pg.Client({ connectionString: PG_ADMIN_URL });
        await cleaner.connect();
        await cleaner.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
        await cleaner.end();
      },
    };
  },
};

export const ALL_VENDORS: VendorTarget[] = [pgliteTarget, postgresTarget, mariadbTarget];

/** Vendors to run: all reachable ones; under CI=true, every server vendor is mandatory. */
export async function vendorsToRun(targets: VendorTarget[] = ALL_VENDORS): Promise<VendorTarget[]> {
  const mandatory = process.env.CI === 'true';
  const out: VendorTarget[] = [];
  for (const target of targets) {
    if (await target.available()) out.push(target);
    else if (mandatory) throw new Error(`CI=true and the ${target.name} test database is unreachable`);
  }
  return out;
}
