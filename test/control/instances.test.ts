/**
 * Two instances sharing one control store (CONTROL_DATABASE_URL): a change made through one is seen
 * by the other within one second (DESIGN §12), because each instance rechecks the stored version.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '../../server/start.ts';
import { ADMIN_TOKEN, fetchJson } from '../support/harness.ts';
import { startTwoInstances, type TwoInstances } from '../support/control-database.ts';
import { postgresTarget, vendorsToRun } from '../support/vendors.ts';

const servers = await vendorsToRun([postgresTarget]);

/** One second of cache, plus the polling step and a request on a busy two-core machine. */
const WITHIN_MS = 1500;

/** Milliseconds until `check` holds, polling every 50 ms for at most 5 s. */
async function msUntil(check: () => Promise<boolean>): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < 5000) {
    if (await check()) return Date.now() - started;
    await new Promise((r) => setTimeout(r, 50));
  }
  return Number.POSITIVE_INFINITY;
}

describe.each(servers)('changes reach every instance within a second ($name control store)', (target) => {
  let a: RunningService;
  let b: RunningService;
  let instances: TwoInstances | undefined;
  let key: string;
  const list = (s: RunningService) => fetchJson(`${s.url}/api/v1/acme/shop/orders?size=1`, 'GET', {}, key);
  const admin = (method: string, path: string, body?: unknown) =>
    fetchJson(`${a.url}/api/admin/v1/orgs/acme/workspaces/shop${path}`, method, body === undefined ? {} : { body }, ADMIN_TOKEN);

  beforeAll(async () => {
    instances = await startTwoInstances(target);
    ({ a, b } = instances);
    await fetchJson(`${a.url}/api/admin/v1/orgs/acme/workspaces`, 'POST', { body: { slug: 'shop', name: 'shop', database: instances.db.database } }, ADMIN_TOKEN);
    key = String((await admin('POST', '/api-keys', { name: 'both' })).body?.data?.key);
  });
  afterAll(async () => {
    await instances?.close();
  });

  it('a migration flag set on one instance blocks the other within a second, and its end too', async () => {
    expect((await list(b)).status).toBe(200);
    expect((await admin('PUT', '/entities/orders/migration', { blocksReads: true, blocksWrites: true })).status).toBe(200);
    expect((await list(a)).status).toBe(503);
    expect(await msUntil(async () => (await list(b)).status === 503)).toBeLessThanOrEqual(WITHIN_MS);
    expect((await admin('DELETE', '/entities/orders/migration')).status).toBe(204);
    expect(await msUntil(async () => (await list(b)).status === 200)).toBeLessThanOrEqual(WITHIN_MS);
  });

  it('an entity option changed on one instance applies on the other within a second', async () => {
    expect((await admin('PATCH', '/entities/orders', { defaultFields: ['id'] })).status).toBe(200);
    const narrowed = async () => Object.keys((await list(b)).body.data[0] ?? {}).join() === 'id';
    expect(await msUntil(narrowed)).toBeLessThanOrEqual(WITHIN_MS);
  });
});
