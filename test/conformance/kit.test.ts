/**
 * The conformance kit on the built-in dialects as if they were plugins, and on a deliberately
 * broken one that it must fail (so the kit cannot pass vacuously). Each run is a child process
 * exactly as an author starts it, on the quick `smoke` subset; the full kit runs by hand
 * (docs/dialects.md, "Conformance kit").
 */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { PG_ADMIN_URL, postgresTarget, vendorsToRun } from '../support/vendors.ts';
import { MYSQL_ADMIN_URL, mariadbTarget } from '../support/mysql-target.ts';

interface KitRun {
  code: number | null;
  output: string;
}

function runKit(dialect: string, url: string): Promise<KitRun> {
  const args = ['--import', 'tsx', 'test/conformance/run.ts', '--dialect', dialect, '--url', url, '--only', 'smoke'];
  // The child must not think it is the kit already, nor inherit a CI flag it does not need.
  const env = { ...process.env, FORMULA_RUNS: '40', WDAPI_CONFORMANCE_DIALECT: '', WDAPI_CONFORMANCE_URL: '' };
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

const servers = new Set((await vendorsToRun([postgresTarget, mariadbTarget])).map((t) => t.name));

// Concurrent: each run is a child process mostly waiting on its databases.
describe.concurrent('conformance kit', () => {
  it.runIf(servers.has('postgres'))('passes the PostgreSQL dialect and fails one whose paginate ignores the offset', async () => {
    const [good, broken] = await Promise.all([runKit('./dialects/postgres/index.ts', PG_ADMIN_URL), runKit('./test/conformance/broken-postgres.ts', PG_ADMIN_URL)]);
    expect(good.output).toMatch(/tests: [1-9]\d* passed, 0 failed/);
    expect(good.output).toContain('CONFORMANCE: PASS');
    expect(good.code, good.output).toBe(0);
    expect(broken.output).toContain('CONFORMANCE: FAIL');
    expect(broken.output).toMatch(/FAILED .*last page holds the remainder/);
    expect(broken.code).toBe(1);
  }, 150_000);

  it.runIf(servers.has('mariadb'))('passes the MySQL dialect on MariaDB', async () => {
    const run = await runKit('./dialects/mysql/index.ts', MYSQL_ADMIN_URL);
    expect(run.output).toMatch(/tests: [1-9]\d* passed, 0 failed/);
    expect(run.code, run.output).toBe(0);
  }, 150_000);

  it('refuses a module that exports no dialect', async () => {
    const run = await runKit('./test/conformance/fixture-ddl.ts', PG_ADMIN_URL);
    expect(run.output).toContain('exports no Dialect');
    expect(run.code).toBe(2);
  }, 60_000);
});
