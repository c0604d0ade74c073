/** `npm start` as a user runs it: a child process on a fresh data folder, then a second start on the same folder. */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/free-port.ts';
import { spawnEmbeddedStart } from './child.ts';

interface Started {
  child: ChildProcess;
  port: number;
  output: () => string;
}

/**
 * A port free a moment ago can be taken before the child binds it: other suites running beside
 * this one open outgoing connections from the same ephemeral range. Such a start is tried again
 * on another port; any other early exit is a failure.
 */
async function start(dataDir: string): Promise<Started> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOn(dataDir, await freePort());
    } catch (error) {
      if (attempt >= 5 || !String(error).includes('is already in use')) throw error;
    }
  }
}

async function startOn(dataDir: string, port: number): Promise<Started> {
  const { child, output } = spawnEmbeddedStart(dataDir, port);
  const deadline = Date.now() + 90_000;
  while (!output().includes('demo API key') && Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`exited early: ${output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return { child, port, output };
}

function stop(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    child.once('exit', (code) => resolve(code));
    child.kill('SIGTERM');
  });
}

function apiKeyOf(output: string): string {
  return /demo API key:\s+(\S+)/.exec(output)?.[1] ?? '';
}

describe('npm start on a fresh clone', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'wdapi-start-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('serves the demo, prints the key and where the admin token is, stops cleanly on SIGTERM, and a second start reuses the data', async () => {
    const first = await start(dataDir);
    const port = first.port;
    const output = first.output();
    expect(output).toContain(`http://127.0.0.1:${port}`);
    // stdout is a pipe here, not a terminal: the token stays in the owner-only credentials file.
    const file = join(dataDir, 'demo-credentials.json');
    expect(output).toContain(`admin token:        in ${file}`);
    const adminToken = (JSON.parse(readFileSync(file, 'utf8')) as { adminToken: string }).adminToken;
    expect(adminToken).toMatch(/^wda_/);
    expect(output).not.toContain(adminToken);
    const orgs = await fetch(`http://127.0.0.1:${port}/api/admin/v1/orgs/demo/workspaces/demo/views`, { headers: { authorization: `Bearer ${adminToken}` } });
    expect(orgs.status).toBe(200);
    const key = apiKeyOf(output);
    expect(key).toMatch(/^wdk_/);
    // The banner's example runs as printed: the key is in it, not a placeholder.
    expect(output).toContain(`try:                curl -H "Authorization: Bearer ${key}" "http://127.0.0.1:${port}/api/v1/demo/demo/orders?expand=customer&size=5"`);
    const list = await fetch(`http://127.0.0.1:${port}/api/v1/demo/demo/orders?expand=customer,customer.region&size=5`, { headers: { authorization: `Bearer ${key}` } });
    expect(list.status).toBe(200);
    const body = (await list.json()) as { data: { customer: { region: unknown } }[]; meta: { totalElements: number } };
    expect(body.meta.totalElements).toBe(60);
    expect(body.data[0]?.customer.region).toBeTruthy();
    expect(await stop(first.child)).toBe(0);

    const second = await start(dataDir);
    expect(apiKeyOf(second.output())).toBe(key);
    const again = await fetch(`http://127.0.0.1:${second.port}/api/v1/demo/demo/orders?count=exact&size=1`, { headers: { authorization: `Bearer ${key}` } });
    expect(((await again.json()) as { meta: { totalElements: number } }).meta.totalElements).toBe(60);
    expect(await stop(second.child)).toBe(0);
  }, 240_000);
});
