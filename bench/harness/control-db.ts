/**
 * The benchmarks run the service the way a production instance runs: its control store on a
 * PostgreSQL server (CONTROL_DATABASE_URL), not the embedded PGlite (~700 MB of resident memory).
 */
import pg from 'pg';

/** SECRETS_KEY of the benches' services (required with a control store on a server); BENCH_SECRETS_KEY may set it. */
export const BENCH_SECRETS_KEY = process.env.BENCH_SECRETS_KEY ?? 'be9c4be9c4be9c4be9c4be9c4be9c4be9c4be9c4be9c4be9c4be9c4be9c4be9c';

/**
 * The control database of a bench's own service (`role`: import, export, memory), dropped and made
 * afresh by it. BENCH_CONTROL_DATABASE (which names the scenario services' one, service.ts)
 * gives it a name of its own too, `<name>_<role>`, so that two benches on one server do not drop
 * each other's.
 */
export function controlDatabaseName(role: string): string {
  const base = process.env.BENCH_CONTROL_DATABASE;
  return base ? `${base}_${role}` : `wdapi_bench_${role}_control`;
}

export async function freshControlDatabase(adminUrl: string, name: string): Promise<string> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  return adminUrl.replace(/\/[^/]*$/, `/${name}`);
}

/** Drops a control database a scenario made for itself (its service is closed). */
export async function dropControlDatabase(adminUrl: string, name: string): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}
