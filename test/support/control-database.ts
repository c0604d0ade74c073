/**
 * A private control-store database on the shared PostgreSQL server, for tests that run several
 * instances (or a production-like start) on one control store. Dropped with FORCE, so connections
 * left by a killed child process do not keep it alive.
 */
import pg from 'pg';
import pino from 'pino';
import { startService, type RunningService } from '../../server/start.ts';
import { ADMIN_TOKEN, fetchJson, TEST_SECRETS_KEY, TEST_SETTINGS } from './harness.ts';
import { uniqueName } from './names.ts';
import { PG_ADMIN_URL, type ProvisionedDatabase, type VendorTarget } from './vendors.ts';

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

export interface TwoInstances {
  readonly a: RunningService;
  readonly b: RunningService;
  /** A workspace database provisioned through `a` (with the shared fixture). */
  readonly db: ProvisionedDatabase;
  /** The control store's URL, for a further instance (a restart) on the same store. */
  readonly controlUrl: string;
  close(): Promise<void>;
}

/**
 * Two services sharing one private control store (as several instances behind a balancer run),
 * with org `acme` created and a workspace database provisioned; workspaces are the test's to create.
 */
export async function startTwoInstances(target: VendorTarget): Promise<TwoInstances> {
  const control = await createControlDatabase();
  const options = { adminToken: ADMIN_TOKEN, logger: pino({ level: 'silent' }), controlDatabaseUrl: control.url, secretsKey: TEST_SECRETS_KEY, settings: TEST_SETTINGS };
  const a = await startService(options);
  const b = await startService(options);
  const db = await target.provision(a, true);
  await fetchJson(`${a.url}/api/admin/v1/orgs`, 'POST', { body: { slug: 'acme', name: 'acme' } }, ADMIN_TOKEN);
  return {
    a, b, db,
    controlUrl: control.url,
    async close() {
      await db.drop();
      await a.close();
      await b.close();
      await control.drop();
    },
  };
}
