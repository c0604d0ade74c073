/**
 * A private control-store database on the shared PostgreSQL server, for tests that run several
 * instances (or a production-like start) on one control store. Dropped with FORCE, so connections
 * left by a killed child process do not keep it alive.
 */
import pg from 'pg';
import { uniqueName } from './names.ts';
import { PG_ADMIN_URL } from './vendors.ts';

export interface ControlDatabase {
  readonly url: string;
  drop(): Promise<void>;
}

async function adminQuery(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: PG_ADMIN_URL });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

export async function createControlDatabase(prefix = 'wdapi_control'): Promise<ControlDatabase> {
  const name = uniqueName(prefix);
  await adminQuery(`CREATE DATABASE ${name}`);
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}
