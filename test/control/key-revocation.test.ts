/**
 * Issue 14, item 7: a revoked API key, or the keys of a deleted workspace, fail at once on every
 * instance sharing the control store, not after a cache expires.
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

  it('a key revoked on A is refused by B on the very next request', async () => {
    const { id, key } = await issue('shop');
    // Warm B up: it has just verified the key.
    expect((await read(b, key)).status).toBe(200);
    expect((await read(b, key)).status).toBe(200);
    expect((await admin('DELETE', `/shop/api-keys/${id}`)).status).toBe(204);
    expect((await read(b, key)).status).toBe(401);
    expect((await read(a, key)).status).toBe(401);
  });

  it('the keys of a workspace deleted on A are refused by B on the very next request', async () => {
    const { key } = await issue('gone');
    expect((await read(b, key, 'gone')).status).toBe(200);
    // A valid key of another workspace is 403 here; an unknown one 401.
    expect((await read(b, key, 'shop')).status).toBe(403);
    expect((await admin('DELETE', '/gone')).status).toBe(204);
    expect((await read(b, key, 'shop')).status).toBe(401);
  });
});
