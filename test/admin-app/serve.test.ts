/** Serving the admin application (plugins/admin-app/serve.ts): on by default, off by one setting, plain when not built. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Koa from 'koa';
import { afterAll, describe, expect, it } from 'vitest';
import { readConfig } from '../../server/config.ts';
import { adminAppMiddleware } from '../../plugins/admin-app/serve.ts';
import { startService, type RunningService } from '../../server/start.ts';
import pino from 'pino';
import { ensureBuilt } from './browser.ts';

const quiet = pino({ level: 'silent' });

describe('admin application serving', () => {
  const services: RunningService[] = [];
  afterAll(async () => {
    for (const service of services) await service.close();
  });

  it('ADMIN_APP is on unless set to off, and refuses other values', () => {
    const ok = (env: Record<string, string>) => readConfig(env, () => undefined);
    expect(ok({})).toMatchObject({ ok: true, config: { adminApp: true } });
    expect(ok({ ADMIN_APP: 'off' })).toMatchObject({ ok: true, config: { adminApp: false } });
    expect(ok({ ADMIN_APP: 'maybe' })).toMatchObject({ ok: false, problems: ['ADMIN_APP: must be one of on, off, got "maybe"'] });
  });

  it('serves index.html (no cache) and hashed assets (immutable) under /admin/; off answers 404', async () => {
    ensureBuilt();
    const on = await startService({ logger: quiet });
    const off = await startService({ logger: quiet, adminApp: false });
    services.push(on, off);
    const index = await fetch(`${on.url}/admin/`);
    expect(index.status).toBe(200);
    expect(index.headers.get('cache-control')).toBe('no-cache');
    const html = await index.text();
    const asset = /src="(\/admin\/assets\/[^"]+\.js)"/.exec(html)?.[1] ?? '';
    const script = await fetch(`${on.url}${asset}`);
    expect(script.status).toBe(200);
    expect(script.headers.get('cache-control')).toContain('immutable');
    expect((await fetch(`${on.url}/admin/assets/nothing.js`)).status).toBe(404);
    const escape = await fetch(`${on.url}/admin/%2e%2e/%2e%2e/%2e%2e/package.json`);
    expect(escape.status).not.toBe(200);
    expect(await escape.text()).not.toContain('workspace-data-api');
    expect((await fetch(`${off.url}/admin/`)).status).toBe(404);
  }, 90_000); // two embedded databases start here: slow on a loaded machine

  it('an unbuilt app answers 503 saying how to build it', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'admin-app-'));
    try {
      const app = new Koa();
      app.use(adminAppMiddleware(empty));
      const server = app.listen(0, '127.0.0.1');
      await new Promise((resolve) => server.once('listening', resolve));
      const { port } = server.address() as { port: number };
      const res = await fetch(`http://127.0.0.1:${port}/admin/`);
      server.close();
      expect(res.status).toBe(503);
      expect(await res.text()).toContain('npm run build:admin');
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
