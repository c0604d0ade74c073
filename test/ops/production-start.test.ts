/**
 * A production start: with CONTROL_DATABASE_URL and ADMIN_TOKEN the
 * demo is not seeded and no secret is printed; DEMO=1 seeds it anyway; start and stop are JSON log
 * lines; SIGTERM drains (readyz 503, requests still served) before the process exits.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createControlDatabase, type ControlDatabase } from '../support/control-database.ts';
import { TEST_SECRETS_KEY } from '../support/harness.ts';
import { postgresTarget, vendorsToRun } from '../support/vendors.ts';
import { listeningUrl, logLines, runMain, stackLines, type Child } from './child.ts';

const TOKEN = 'wda_operator-chosen-token-0123456789';
const servers = await vendorsToRun([postgresTarget]);

describe.runIf(servers.length > 0)('production start on a PostgreSQL control store', () => {
  const dir = mkdtempSync(join(tmpdir(), 'wdapi-prod-'));
  let control: ControlDatabase | undefined;
  let controlUrl = '';
  const children: Child[] = [];

  beforeAll(async () => {
    control = await createControlDatabase('wdapi_ops');
    controlUrl = control.url;
  });

  afterAll(async () => {
    for (const child of children) if (child.process.exitCode === null) child.process.kill('SIGKILL');
    await control?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  function start(env: Record<string, string>): Child {
    const child = runMain({ PORT: '0', LOG_LEVEL: 'info', CONTROL_DATABASE_URL: controlUrl, SECRETS_KEY: TEST_SECRETS_KEY, ADMIN_TOKEN: TOKEN, ...env });
    children.push(child);
    return child;
  }

  const demoViews = (url: string) => fetch(`${url}/api/admin/v1/orgs/demo/workspaces/demo/views`, { headers: { authorization: `Bearer ${TOKEN}` } });

  it('no demo, no secret printed, a start and a stop log line, and SIGTERM drains before exiting', async () => {
    const child = start({ DATA_DIR: join(dir, 'plain'), SHUTDOWN_DRAIN_SECONDS: '2' });
    const url = await listeningUrl(child);
    expect((await demoViews(url)).status).toBe(404);
    const orgs = await fetch(`${url}/api/admin/v1/orgs`, { headers: { authorization: `Bearer ${TOKEN}` } });
    if (orgs.status === 200) expect(JSON.stringify(await orgs.json())).not.toContain('"demo"');

    child.process.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 300));
    const ready = await fetch(`${url}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({ status: 'draining' });
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    expect(await child.exited()).toBe(0);

    const output = child.stdout() + child.stderr();
    expect(output).not.toContain(TOKEN);
    expect(output).not.toMatch(/wdk_/);
    expect(output).toMatch(/admin token:\s+\(set by ADMIN_TOKEN\)/);
    expect(stackLines(output)).toEqual([]);
    const logs = logLines(child.stdout());
    const started = logs.find((l) => l.msg === 'service started');
    expect(started).toMatchObject({ level: 30, url });
    expect(logs.findIndex((l) => l.msg === 'service started')).toBeLessThan(logs.findIndex((l) => l.msg === 'service stopped'));
    expect(logs.some((l) => l.msg === 'service draining')).toBe(true);
  }, 120_000);

  it('DEMO=1 seeds the demo on the embedded database and prints its key, still not the token', async () => {
    const child = start({ DATA_DIR: join(dir, 'demo'), DEMO: '1', SHUTDOWN_DRAIN_SECONDS: '0' });
    const url = await listeningUrl(child);
    expect((await demoViews(url)).status).toBe(200);
    const key = /demo API key:\s+(\S+)/.exec(child.stdout())?.[1] ?? '';
    const orders = await fetch(`${url}/api/v1/demo/demo/orders?size=1`, { headers: { authorization: `Bearer ${key}` } });
    expect(orders.status).toBe(200);
    child.process.kill('SIGTERM');
    expect(await child.exited()).toBe(0);
    expect(child.stdout() + child.stderr()).not.toContain(TOKEN);
  }, 120_000);
});
