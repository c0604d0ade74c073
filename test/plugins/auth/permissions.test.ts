/**
 * Permissions (spec "Authentication" rules 2, 5, 6; the 403 row of "Errors"; DESIGN §10 admin
 * API "external users never"): READ_ONLY external users read and never write, READ_WRITE ones
 * write, external users never reach admin routes, and a credential of another workspace is 403.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORDERS } from '../../support/fixture.ts';
import { ADMIN_TOKEN, startWorkspace, type TestWorkspace } from '../../support/harness.ts';
import { databaseDigest, expectList } from '../../support/http-expect.ts';
import { pgliteTarget } from '../../support/vendors.ts';
import { configureIdp, defaultViews, expectForbidden, MESSAGES, secondWorkspace } from '../../support/auth.ts';
import { nowSeconds, TestIdp } from '../../support/test-idp.ts';

describe('permissions of external users and foreign credentials', () => {
  let ws: TestWorkspace;
  let idp: TestIdp;
  let issuer: string;
  let views: Awaited<ReturnType<typeof defaultViews>>;

  const token = (sub = 'ext-user') => idp.sign({ iss: issuer, sub, exp: nowSeconds() + 600 });
  const setPermissions = (defaultPermissions: 'READ_ONLY' | 'READ_WRITE') =>
    configureIdp(ws, { issuerUrl: issuer, jwksUri: idp.jwksUri('/perm'), defaultPermissions, enabled: true });

  beforeAll(async () => {
    [ws, idp] = await Promise.all([startWorkspace(pgliteTarget), TestIdp.start()]);
    issuer = idp.registerIssuer('/perm');
    views = await defaultViews(ws);
  });
  afterAll(async () => {
    await ws?.close();
    await idp?.close();
  });

  describe('READ_ONLY', () => {
    beforeAll(() => setPermissions('READ_ONLY'));

    it('GET list, GET by id and the view data query are 200', async () => {
      const t = await token();
      const list = await ws.call('GET', ws.records('/orders?size=1000'), { token: t });
      expect(expectList(list)).toHaveLength(ORDERS.length);
      const one = await ws.call('GET', ws.records('/customers/3?expand=region'), { token: t });
      expect(one.status).toBe(200);
      expect(one.body.data.id).toBe(3);
      const viewData = await ws.call('GET', `/api/data/${views.orders?.slug}?size=5`, { token: t });
      expect(expectList(viewData)).toHaveLength(5);
    });

    it('POST, PUT and DELETE are 403 FORBIDDEN stating READ_ONLY permissions, and nothing changes', async () => {
      const t = await token();
      const before = await databaseDigest(ws);
      expectForbidden(await ws.call('POST', ws.records('/regions'), { token: t, body: { name: 'Should not exist' } }), MESSAGES.readOnly);
      expectForbidden(await ws.call('PUT', ws.records('/regions/1'), { token: t, body: { name: 'Renamed' } }), MESSAGES.readOnly);
      expectForbidden(await ws.call('PUT', ws.records('/orders/1'), { token: t, body: {} }), MESSAGES.readOnly);
      expectForbidden(await ws.call('DELETE', ws.records('/orders/45'), { token: t }), MESSAGES.readOnly);
      // Even for a record that does not exist and an invalid body: permission comes first.
      expectForbidden(await ws.call('DELETE', ws.records('/orders/999999'), { token: t }), MESSAGES.readOnly);
      expectForbidden(await ws.call('POST', ws.records('/orders'), { token: t, body: { nonsense: true } }), MESSAGES.readOnly);
      expect(await databaseDigest(ws)).toEqual(before);
    });
  });

  describe('READ_WRITE', () => {
    beforeAll(() => setPermissions('READ_WRITE'));

    it('create, update and delete work', async () => {
      const t = await token();
      const created = await ws.call('POST', ws.records('/regions'), { token: t, body: { name: 'External region' } });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const id = created.body.data.id;
      const updated = await ws.call('PUT', ws.records(`/regions/${id}`), { token: t, body: { name: 'External region 2' } });
      expect(updated.status).toBe(200);
      expect(updated.body.data.name).toBe('External region 2');
      expect((await ws.db.query(`SELECT name FROM ${ws.db.table('regions')} WHERE id = $1`, [id]))[0]?.name).toBe('External region 2');
      expect((await ws.call('DELETE', ws.records(`/regions/${id}`), { token: t })).status).toBe(204);
      expect(await ws.db.query(`SELECT id FROM ${ws.db.table('regions')} WHERE id = $1`, [id])).toEqual([]);
    });

    it('switching back to READ_ONLY takes effect at once', async () => {
      await setPermissions('READ_ONLY');
      expectForbidden(await ws.call('POST', ws.records('/regions'), { token: await token(), body: { name: 'Nope' } }), MESSAGES.readOnly);
      await setPermissions('READ_WRITE');
    });
  });

  describe('admin routes are never for external users (even READ_WRITE)', () => {
    beforeAll(() => setPermissions('READ_WRITE'));

    const routes = (): [string, string, unknown?][] => [
      ['GET', ws.admin('/views')],
      ['POST', ws.admin('/views'), { entity: 'orders', name: 'Mine' }],
      ['GET', ws.admin('/schema')],
      ['POST', ws.admin('/sync')],
      ['GET', ws.admin('/api-keys')],
      ['POST', ws.admin('/api-keys'), { name: 'stolen' }],
      ['GET', ws.admin('/identity-provider')],
      ['PUT', ws.admin('/identity-provider'), { issuerUrl: 'https://evil.example/', defaultPermissions: 'READ_WRITE', enabled: true }],
      ['PATCH', ws.admin('/entities/orders'), { maxExpandDepth: 5 }],
      ['PUT', ws.admin('/entities/orders/migration'), { blocksReads: true, blocksWrites: true }],
      ['POST', '/api/columns', { viewUuid: views.orders?.uuid, displayName: 'Evil', formula: 'quantity * 2' }],
      ['GET', `/api/views/${views.orders?.uuid}/columns`],
      ['POST', `/api/views/${views.orders?.uuid}/formula-check`, { formula: 'quantity * 2' }],
      ['GET', `/api/views/${views.orders?.uuid}/rls-rules`],
      ['POST', `/api/views/${views.orders?.uuid}/rls-rules`, { column: 'status', claim: 'sub' }],
    ];

    it('each admin route answers 403 FORBIDDEN to an external token, and nothing is created', async () => {
      const t = await token();
      const keysBefore = (await ws.call('GET', ws.admin('/api-keys'), { token: ADMIN_TOKEN })).body.meta.totalElements;
      for (const [method, path, body] of routes()) {
        const res = await ws.call(method, path, { token: t, ...(body !== undefined ? { body } : {}) });
        expect({ method, path, status: res.status, code: res.body?.error?.code }).toEqual({ method, path, status: 403, code: 'FORBIDDEN' });
      }
      expect((await ws.call('GET', ws.admin('/api-keys'), { token: ADMIN_TOKEN })).body.meta.totalElements).toBe(keysBefore);
      const idpNow = await ws.call('GET', ws.admin('/identity-provider'), { token: ADMIN_TOKEN });
      expect(idpNow.body.data.issuerUrl).toBe(issuer);
      expect((await ws.call('GET', `/api/views/${views.orders?.uuid}/rls-rules`, { token: ADMIN_TOKEN })).body.data).toEqual([]);
      expect((await ws.call('GET', `/api/views/${views.orders?.uuid}/columns`, { token: ADMIN_TOKEN })).body.data.some((c: { displayName: string }) => c.displayName === 'Evil')).toBe(false);
    });

    it('instance routes (no workspace to verify the token against) refuse an external token with 401', async () => {
      const res = await ws.call('POST', '/api/admin/v1/orgs', { token: await token(), body: { slug: 'evil', name: 'evil' } });
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe('UNAUTHORIZED');
      const created = await ws.call('POST', `/api/admin/v1/orgs/${ws.org}/workspaces`, { token: await token(), body: { slug: 'evil', name: 'evil', database: { vendor: 'embedded', schema: 'evil' } } });
      expect(created.status).toBe(401);
    });

    it('the workspace API key may use the same routes (control)', async () => {
      expect((await ws.call('GET', ws.admin('/views'))).status).toBe(200);
      expect((await ws.call('GET', `/api/views/${views.orders?.uuid}/rls-rules`)).status).toBe(200);
    });
  });

  describe('credentials of another workspace', () => {
    let other: { slug: string; apiKey: string };
    beforeAll(async () => {
      other = await secondWorkspace(ws, 'perm-other');
    });

    it('an API key of another workspace is 403 on every record operation and nothing changes', async () => {
      const before = await databaseDigest(ws);
      for (const [method, path, body] of [
        ['GET', ws.records('/orders')],
        ['GET', ws.records('/orders/1')],
        ['POST', ws.records('/regions'), { name: 'Foreign' }],
        ['PUT', ws.records('/regions/1'), { name: 'Foreign' }],
        ['DELETE', ws.records('/orders/2')],
        ['GET', `/api/data/${views.orders?.slug}`],
      ] as [string, string, unknown?][]) {
        const res = await ws.call(method, path, { token: other.apiKey, ...(body !== undefined ? { body } : {}) });
        expect({ method, path, status: res.status, code: res.body?.error?.code }).toEqual({ method, path, status: 403, code: 'FORBIDDEN' });
      }
      expect(await databaseDigest(ws)).toEqual(before);
    });

    it('an API key of another workspace is 403 on this workspace\'s admin routes', async () => {
      for (const [method, path] of [
        ['GET', ws.admin('/views')],
        ['POST', ws.admin('/api-keys')],
        ['GET', `/api/views/${views.orders?.uuid}/rls-rules`],
      ]) {
        const res = await ws.call(method ?? 'GET', path ?? '', { token: other.apiKey, ...(method === 'POST' ? { body: {} } : {}) });
        expect({ path, status: res.status }).toEqual({ path, status: 403 });
      }
    });

    it('that key works on its own workspace (control)', async () => {
      expect((await ws.call('GET', `/api/v1/${ws.org}/${other.slug}/notes`, { token: other.apiKey })).status).toBe(200);
    });

    it('an external token of this workspace on a workspace without a provider is 401 (not configured)', async () => {
      const res = await ws.call('GET', `/api/v1/${ws.org}/${other.slug}/notes`, { token: await token() });
      expect(res.status).toBe(401);
      expect(res.body.error.message).toBe(MESSAGES.notConfigured);
    });
  });
});
