/** When the CLI cannot reach the service it names the URL and the cause, not only "fetch failed". */
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/free-port.ts';

const run = promisify(execFile);
const BIN = new URL('../../bin/wdapi.mjs', import.meta.url).pathname;

async function stderrOf(args: string[]): Promise<string> {
  const failed = await run(process.execPath, [BIN, ...args], { env: { ...process.env, WDAPI_TOKEN: 'wdk_x' }, timeout: 60_000 }).then(
    () => ({ code: 0, stderr: '' }),
    (e: { code: number; stderr: string }) => e,
  );
  expect(failed.code).toBe(1);
  return failed.stderr;
}

describe('wdapi against a service it cannot reach', () => {
  const dir = mkdtempSync(join(tmpdir(), 'wdapi-unreachable-'));
  const csv = join(dir, 'rows.csv');
  let silent: Server;
  const sockets: Socket[] = [];
  let silentPort = 0;

  beforeAll(async () => {
    writeFileSync(csv, 'name\nx\n');
    // Accepts and never answers: the CLI's wait for headers is what must end.
    silent = createServer((socket) => void sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const address = silent.address();
    silentPort = typeof address === 'object' && address ? address.port : 0;
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => silent.close(resolve));
  });

  it('a port with nothing listening: the URL and "connection refused (ECONNREFUSED)"', async () => {
    const url = `http://127.0.0.1:${await freePort()}`;
    const stderr = await stderrOf(['export', 'regions', '--org', 'o', '--ws', 'w', '--out', join(dir, 'a.csv'), '--url', url]);
    expect(stderr).toContain(`wdapi: cannot reach ${url}/api/v1/o/w/regions`);
    expect(stderr).toContain('connection refused (ECONNREFUSED)');
    expect(stderr).not.toContain('fetch failed');
  });

  it('a host that does not resolve: "host not found"', async () => {
    const stderr = await stderrOf(['import', csv, '--view', 'v', '--url', 'http://nonexistent.invalid:8080']);
    expect(stderr).toContain('wdapi: cannot reach http://nonexistent.invalid:8080/');
    expect(stderr).toMatch(/host not found \((ENOTFOUND|EAI_AGAIN)\)/);
  });

  it('a server that accepts and never answers: "timed out" after WDAPI_TIMEOUT_MS', async () => {
    const url = `http://127.0.0.1:${silentPort}`;
    const failed = await run(process.execPath, [BIN, 'export', 'regions', '--org', 'o', '--ws', 'w', '--out', join(dir, 'b.csv'), '--url', url], { env: { ...process.env, WDAPI_TOKEN: 'wdk_x', WDAPI_TIMEOUT_MS: '500' }, timeout: 60_000 }).catch((e: { code: number; stderr: string }) => e);
    expect((failed as { code: number }).code).toBe(1);
    expect((failed as { stderr: string }).stderr).toContain(`wdapi: cannot reach ${url}/api/v1/o/w/regions: no answer within 500 ms (timeout)`);
  });
});
