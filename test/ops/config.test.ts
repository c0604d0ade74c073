/** Operators' mistakes at start: one plain line per problem, non-zero exit, no stack trace. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TEST_SECRETS_KEY } from '../support/harness.ts';
import { runMain, stackLines } from './child.ts';

describe('configuration checked before anything starts', () => {
  const dir = mkdtempSync(join(tmpdir(), 'wdapi-config-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('every bad variable is named on a line of its own, and the service exits non-zero', async () => {
    const file = join(dir, 'a-file');
    writeFileSync(file, '');
    const child = runMain({
      PORT: 'abc',
      LOG_LEVEL: 'verbose',
      DATA_DIR: join(file, 'data'), // under a regular file: cannot be created
      ADMIN_TOKEN: 'foo',
      PUBLIC_URL: 'notaurl',
      COUNT_ESTIMATE_THRESHOLD: 'abc',
      IMPORT_LIMIT_BYTES: '-5',
      CORS_ORIGINS: 'https://ok.example.com,not an origin',
    });
    const code = await child.exited();
    expect(code).not.toBe(0);
    expect(child.stdout()).toBe('');
    const lines = child.stderr().trim().split('\n');
    expect(lines).toHaveLength(8);
    for (const name of ['PORT', 'LOG_LEVEL', 'DATA_DIR', 'ADMIN_TOKEN', 'PUBLIC_URL', 'COUNT_ESTIMATE_THRESHOLD', 'IMPORT_LIMIT_BYTES', 'CORS_ORIGINS']) {
      expect(lines.filter((line) => line.startsWith(`${name}:`)), name).toHaveLength(1);
    }
    expect(lines.find((l) => l.startsWith('ADMIN_TOKEN:'))).toMatch(/at least 24/);
    expect(child.stderr()).not.toContain('foo');
    expect(stackLines(child.stderr())).toEqual([]);
  }, 60_000);

  it('a DATA_DIR that cannot be created under /proc: one line and exit 78, not a hang', async () => {
    const child = runMain({ DATA_DIR: '/proc/nope' });
    // A generous bound as a hang detector: Node's recursive mkdir never returns on such a path.
    const code = await Promise.race([child.exited(), new Promise((resolve) => setTimeout(() => resolve('hung'), 20_000))]);
    if (code === 'hung') child.process.kill('SIGKILL');
    expect(code).toBe(78);
    expect(child.stderr().trim().split('\n')).toEqual(["DATA_DIR: cannot write to '/proc/nope' (ENOENT)"]);
  }, 60_000);

  it('an unreachable control database: one line naming the host, no password, exit non-zero in bounded time', async () => {
    const started = Date.now();
    const refused = runMain({ DATA_DIR: join(dir, 'refused'), CONTROL_DATABASE_URL: 'postgres://postgres:s3cret-pw@127.0.0.1:1/nothing', SECRETS_KEY: TEST_SECRETS_KEY, ADMIN_TOKEN: 'wda_0123456789abcdefghijklmnop' });
    const unknown = runMain({ DATA_DIR: join(dir, 'unknown'), CONTROL_DATABASE_URL: 'postgres://postgres:s3cret-pw@no-such-host.invalid:5432/db', SECRETS_KEY: TEST_SECRETS_KEY, ADMIN_TOKEN: 'wda_0123456789abcdefghijklmnop' });
    expect(await refused.exited()).not.toBe(0);
    expect(await unknown.exited()).not.toBe(0);
    expect(Date.now() - started).toBeLessThan(30_000);
    for (const [child, host] of [[refused, '127.0.0.1:1'], [unknown, 'no-such-host.invalid']] as const) {
      const lines = child.stderr().trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^CONTROL_DATABASE_URL: cannot reach the control database at /);
      expect(lines[0]).toContain(host);
      expect(child.stdout() + child.stderr()).not.toContain('s3cret-pw');
      expect(stackLines(child.stderr())).toEqual([]);
    }
  }, 60_000);

  it('a control database that accepts the connection and never answers: cut after CONTROL_CONNECT_TIMEOUT_SECONDS', async () => {
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as AddressInfo).port;
    try {
      const started = Date.now();
      const child = runMain({ DATA_DIR: join(dir, 'silent'), CONTROL_DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/db`, SECRETS_KEY: TEST_SECRETS_KEY, CONTROL_CONNECT_TIMEOUT_SECONDS: '2' });
      expect(await child.exited()).not.toBe(0);
      expect(Date.now() - started).toBeLessThan(15_000);
      expect(child.stderr().trim()).toBe(`CONTROL_DATABASE_URL: cannot reach the control database at 127.0.0.1:${port}/db (no answer within 2 s)`);
    } finally {
      silent.close();
    }
  }, 60_000);

  it('a CONTROL_DATABASE_URL that is not a PostgreSQL URL is refused before connecting', async () => {
    const child = runMain({ DATA_DIR: join(dir, 'bad-url'), CONTROL_DATABASE_URL: 'mysql://root@127.0.0.1/x' });
    expect(await child.exited()).not.toBe(0);
    expect(child.stderr().trim()).toMatch(/^CONTROL_DATABASE_URL: must be a postgres:\/\/ or postgresql:\/\/ URL$/);
  }, 60_000);
});
