/**
 * With the key cache: a revoked API key, or the keys of a
 * deleted workspace, fail on the instance that revoked them from the very next request, and on
 * every other instance sharing the control store as soon as the store's notice arrives (long
 * before the cache's 30 s recheck; test/control/change-notify.test.ts times that window).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '../../server/start.ts';
import { ADMIN_TOKEN, fetchJson } from '../support/harness.ts';
import { startTwoInstances, type TwoInstances } from '../support/control-database.ts';
import { postgresTarget, vendorsToRun } from '../support/vendors.ts';

const servers = await vendorsToRun([postgresTarget]);

describe.each(servers)('revocation reaches every instance at once ($name control store)', (target) => {
  let a: RunningService;
  let b: RunningService;
  let instances: TwoInstances | undefined;
  const read = (s: RunningService, key: string, ws = 'shop') => fetchJson(`${s.url}/api/v1/acme/${ws}/orders?size=1`, 'GET', {}, key);
  const admin = (method: string, path: string, body?: unknown) =>
    fetchJson(`${a.url}/api/admin/v1/orgs/acme/workspaces${path}`, method, body === undefined ? {} : { body }, ADMIN_TOKEN);
  const issue = async (ws: string) => (await admin('POST', `/${ws}/api-keys`, { name: 'k' })).body.data as { id: string; key: string };

  beforeAll(async () => {
    instances = await startTwoInstances(target);
    ({ a, b } = instances);
    for (const slug of ['shop', 'gone']) expect((await admin('POST', '', { slug, name: slug, database: instances.db.database })).status).toBe(201);
  });
  afterAll(async () => instances?.close());

  /** Asks until `probe` holds, for at most 5 s (a notice takes tens of ms; the cache keeps a key 30 s). */
  async function eventually(probe: () => Promise<boolean>): Promise<boolean> {
    for (const deadline = Date.now() + 5000; Date.now() < deadline; ) {
      if (await probe()) return true;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return false;
  }

  it('a key revoked on A is refused by A on the very next request, and by B once the notice arrives', async () => {
    const { id, key } = await issue('shop');
    // Warm both up: each has just verified (and kept) the key.
    for (const s of [a, b, a, b]) expect((await read(s, key)).status).toBe(200);
    expect((await admin('DELETE', `/shop/api-keys/${id}`)).status).toBe(204);
    expect((await read(a, key)).status).toBe(401);
    expect(await eventually(async () => (await read(b, key)).status === 401)).toBe(true);
  });

  it('the keys of a workspace deleted on A are refused by A at once, and by B once the notice arrives', async () => {
    const { key } = await issue('gone');
    for (const s of [a, b]) expect((await read(s, key, 'gone')).status).toBe(200);
    // A valid key of another workspace is 403 here; an unknown one 401.
    for (const s of [a, b]) expect((await read(s, key, 'shop')).status).toBe(403);
    expect((await admin('DELETE', '/gone')).status).toBe(204);
    expect((await read(a, key, 'shop')).status).toBe(401);
    expect(await eventually(async () => (await read(b, key, 'shop')).status === 401)).toBe(true);
  });
});
