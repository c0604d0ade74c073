/**
 * The cursor-signing key is one per deployment (DESIGN §13, §16): a cursor issued by one instance
 * is accepted by another instance on the same control store and by an instance started after a
 * restart; another deployment (its own control store) refuses it.
 */
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../../server/start.ts';
import { ADMIN_TOKEN, fetchJson, TEST_SECRETS_KEY } from '../support/harness.ts';
import { startTwoInstances, type TwoInstances } from '../support/control-database.ts';
import { postgresTarget, vendorsToRun } from '../support/vendors.ts';

const servers = await vendorsToRun([postgresTarget]);

describe.each(servers)('the cursor secret is shared by a deployment ($name control store)', (target) => {
  let instances: TwoInstances | undefined;
  let a: RunningService;
  let b: RunningService;
  let apiKey = '';
  const list = (s: RunningService, query: string) => fetchJson(`${s.url}/api/v1/acme/shop/orders?${query}`, 'GET', {}, apiKey);

  beforeAll(async () => {
    instances = await startTwoInstances(target);
    ({ a, b } = instances);
    const admin = (path: string, body: unknown) => fetchJson(`${a.url}/api/admin/v1/orgs/acme/workspaces${path}`, 'POST', { body }, ADMIN_TOKEN);
    expect((await admin('', { slug: 'shop', name: 'shop', database: instances.db.database })).status).toBe(201);
    apiKey = String((await admin('/shop/api-keys', { name: 'k' })).body.data.key);
  });
  afterAll(async () => instances?.close());

  it('both instances read the same key from the control store, created once', async () => {
    expect(a.services.cursorSecret).toMatch(/^[0-9a-f]{64}$/);
    expect(b.services.cursorSecret).toBe(a.services.cursorSecret);
  });

  it('a cursor from A continues on B, and on an instance started later on the same store', async () => {
    const first = await list(a, 'paging=cursor&size=5');
    const cursor = encodeURIComponent(first.body.meta.nextCursor as string);
    const onB = await list(b, `after=${cursor}&size=5`);
    expect(onB.status).toBe(200);
    expect(onB.body.data.map((r: { id: number }) => r.id)).toEqual([6, 7, 8, 9, 10]);
    // A restart is a new process reading the store: the key it finds is the one the cursor was signed with.
    const later = await startService({ adminToken: ADMIN_TOKEN, logger: pino({ level: 'silent' }), controlDatabaseUrl: instances?.controlUrl ?? '', secretsKey: TEST_SECRETS_KEY });
    try {
      expect(later.services.cursorSecret).toBe(a.services.cursorSecret);
      const again = await list(later, `after=${cursor}&size=5`);
      expect(again.body).toEqual(onB.body);
    } finally {
      await later.close();
    }
  });

  it('another deployment (its own control store) has its own key', async () => {
    const other = await startService({ adminToken: ADMIN_TOKEN, logger: pino({ level: 'silent' }) });
    try {
      expect(other.services.cursorSecret).toMatch(/^[0-9a-f]{64}$/);
      expect(other.services.cursorSecret).not.toBe(a.services.cursorSecret);
    } finally {
      await other.close();
    }
  });
});
