/**
 * What the service loads at start: the MySQL and SQL Server drivers wait for the first workspace
 * of their vendor (about 30 MB of modules), and chevrotain comes as its one-file bundle, never as
 * the unbundled build with its ~700 lodash-es modules. A barrel re-exporting a driver, or a value
 * import of 'chevrotain', would bring them back silently. koa-body (with zod and formidable, about
 * 5 MB of heap and 10 MB of RSS at idle) is not the service's: the OAuth form has its own reader.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createControlDatabase, type ControlDatabase } from '../support/control-database.ts';
import { TEST_SECRETS_KEY } from '../support/harness.ts';
import { postgresTarget, vendorsToRun } from '../support/vendors.ts';

const ROOT = new URL('../..', import.meta.url).pathname;

/**
 * `start` runs in the child after server/start.ts is imported, with `startService` in scope.
 * ESM files: a resolve hook appends each URL to a file, synchronously, before the import that
 * asked for it goes on, so the list is complete when `import()` settles. CommonJS files show in
 * require.cache.
 */
function modulesLoadedByStart(start = ''): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'wdapi-modules-'));
  const list = join(dir, 'resolved.txt');
  const hook = `import { appendFileSync } from 'node:fs';
    let file;
    export function initialize(data) { file = data.file; }
    export async function resolve(specifier, context, next) {
      const result = await next(specifier, context);
      appendFileSync(file, result.url + '\\n');
      return result;
    }`;
  const script = `
    import { createRequire, register } from 'node:module';
    register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(hook)}), { parentURL: import.meta.url, data: { file: ${JSON.stringify(list)} } });
    const { startService } = await import('./server/start.ts');
    ${start}
    process.stdout.write(JSON.stringify(Object.keys(createRequire(import.meta.url).cache)));
  `;
  try {
    const cjs = JSON.parse(execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 })) as string[];
    return [...readFileSync(list, 'utf8').split('\n').filter((l) => l !== ''), ...cjs];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('modules loaded at start', () => {
  it('leave out the MySQL and SQL Server drivers, the unbundled chevrotain and koa-body', () => {
    const loaded = modulesLoadedByStart();
    expect(loaded.some((m) => m.includes('/node_modules/koa/'))).toBe(true);
    expect(loaded.some((m) => m.includes('/chevrotain/lib/chevrotain.mjs'))).toBe(true);
    const unwanted = loaded.filter((m) => /\/node_modules\/(mysql2|mssql|tedious|lodash-es|koa-body|zod|formidable)\//.test(m) || m.includes('/chevrotain/lib/src/'));
    expect(unwanted).toEqual([]);
  });
});

const servers = await vendorsToRun([postgresTarget]);

/**
 * A service whose control store is on PostgreSQL has no embedded workspace to
 * serve, so the embedded PGlite (825 MB RSS at idle with it loaded, measured)
 * must not even load. The child really starts and stops the service.
 */
describe.skipIf(servers.length === 0)('modules loaded by a service on a PostgreSQL control store', () => {
  let control: ControlDatabase;
  beforeAll(async () => {
    control = await createControlDatabase('wdapi_lazy');
  });
  afterAll(async () => {
    await control?.drop();
  });

  it('leave out PGlite, and the rate limiter when no limit is set', () => {
    const start = `const { default: pino } = await import('pino');
      const service = await startService({ logger: pino({ level: 'silent' }), adminToken: 'wda_lazy-modules-admin-token-0123456789', controlDatabaseUrl: ${JSON.stringify(control.url)}, secretsKey: ${JSON.stringify(TEST_SECRETS_KEY)}, port: 0, host: '127.0.0.1' });
      const answer = await fetch(service.url + '/readyz');
      if (answer.status !== 200) throw new Error('not ready: ' + answer.status);
      await service.close();`;
    const loaded = modulesLoadedByStart(start);
    expect(loaded.some((m) => m.includes('/node_modules/pg/'))).toBe(true);
    expect(loaded.filter((m) => m.includes('/@electric-sql/pglite/'))).toEqual([]);
    // No RATE_LIMIT_PER_MINUTE: neither the limiter library nor the Redis client.
    expect(loaded.filter((m) => /\/node_modules\/(ioredis|rate-limiter-flexible)\//.test(m))).toEqual([]);
  });
});
