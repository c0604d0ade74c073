/** Spec "Authentication" (API keys), DESIGN §5 (error codes, no internals in bodies), §10 and §12 "Admin". */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, startWorkspace, type ApiResponse, type TestWorkspace } from '../support/harness.ts';
import { databaseDigest, expectError, expectNoLeak } from '../support/http-expect.ts';
import { vendorsToRun } from '../support/vendors.ts';

const vendors = await vendorsToRun();
const ORDER = { customerId: 1, amount: 5, orderedAt: '2026-01-01T00:00:00Z' };

describe.each(vendors)('auth and errors on $name', (target) => {
  let ws: TestWorkspace;
  let otherKey: string;
  beforeAll(async () => {
    ws = await startWorkspace(target);
    // A second workspace in the same service (over the same database) with its own key.
    const created = await ws.call('POST', `/api/admin/v1/orgs/${ws.org}/workspaces`, { token: ADMIN_TOKEN, body: { slug: 'other', name: 'Other', database: ws.db.database } });
    if (created.status !== 201) throw new Error(`second workspace: ${JSON.stringify(created.body)}`);
    const key = await ws.call('POST', `/api/admin/v1/orgs/${ws.org}/workspaces/other/api-keys`, { token: ADMIN_TOKEN, body: { name: 'other' } });
    if (key.status !== 201) throw new Error(`second key: ${JSON.stringify(key.body)}`);
    otherKey = String(key.body.data.key);
  });
  afterAll(async () => ws?.close());

  /** One request per record operation, all with the given token. */
  const everyOperation = (token: string | null): Promise<ApiResponse>[] => [
    ws.call('GET', ws.records('/orders'), { token }),
    ws.call('GET', ws.records('/orders/1'), { token }),
    ws.call('POST', ws.records('/orders'), { token, body: ORDER }),
    ws.call('PUT', ws.records('/orders/1'), { token, body: { note: 'hijacked' } }),
    ws.call('DELETE', ws.records('/orders/45'), { token }),
  ];

  describe('authentication', () => {
    it('a request without a bearer token is 401 UNAUTHORIZED in the error envelope, for every operation', async () => {
      const before = await databaseDigest(ws);
      for (const res of await Promise.all(everyOperation(null))) expectError(res, 401, 'UNAUTHORIZED');
      expectError(await ws.call('PATCH', ws.admin('/entities/orders'), { token: null, body: { maxExpandDepth: 2 } }), 401, 'UNAUTHORIZED');
      expect(await databaseDigest(ws)).toEqual(before);
    });

    it('an Authorization header that is not a bearer token is 401', async () => {
      for (const value of [`Basic ${Buffer.from('a:b').toString('base64')}`, ws.apiKey, 'Bearer', 'Bearer  ']) {
        const res = await ws.call('GET', ws.records('/orders'), { token: null, headers: { authorization: value } });
        expectError(res, 401, 'UNAUTHORIZED');
      }
    });

    it.each([
      ['an unknown key of the right form', () => 'wdk_0123456789abcdef_' + 'x'.repeat(32)],
      ['a known key id with a wrong secret', () => ws.apiKey.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'))],
      ['random text', () => 'not-a-credential'],
      ['a JWT-shaped string', () => 'aaa.bbb.ccc'],
      ['an unsigned JWT', () => `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from('{"sub":"x","iss":"http://evil"}').toString('base64url')}.`],
    ])('%s is 401 UNAUTHORIZED', async (_label, token) => {
      const before = await databaseDigest(ws);
      for (const res of await Promise.all(everyOperation(token()))) expectError(res, 401, 'UNAUTHORIZED');
      expect(await databaseDigest(ws)).toEqual(before);
    });

    it('a key of another workspace is 403 FORBIDDEN for every operation and changes nothing', async () => {
      const before = await databaseDigest(ws);
      for (const res of await Promise.all(everyOperation(otherKey))) expectError(res, 403, 'FORBIDDEN');
      expect(await databaseDigest(ws)).toEqual(before);
    });

    it('the key of the other workspace works on its own workspace', async () => {
      const res = await ws.call('GET', `/api/v1/${ws.org}/other/orders/1`, { token: otherKey });
      expect(res.status).toBe(200);
      expect(res.body.data.id).toBe(1);
    });

    it('a key of another workspace is 403 on admin routes of this workspace', async () => {
      expectError(await ws.call('PATCH', ws.admin('/entities/orders'), { token: otherKey, body: { maxExpandDepth: 2 } }), 403, 'FORBIDDEN');
      expectError(await ws.call('POST', ws.admin('/api-keys'), { token: otherKey, body: {} }), 403, 'FORBIDDEN');
    });

    it('the workspace API key may use its own workspace admin routes but not instance-admin routes', async () => {
      const res = await ws.call('PATCH', ws.admin('/entities/orders'), { body: { maxExpandDepth: 3 } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expectError(await ws.call('POST', '/api/admin/v1/orgs', { body: { slug: 'mine', name: 'Mine' } }), 403, 'FORBIDDEN');
    });

    it('the instance admin token works on record endpoints and admin routes', async () => {
      const list = await ws.call('GET', ws.records('/orders?size=1'), { token: ADMIN_TOKEN });
      expect(list.status).toBe(200);
      expect(list.body.meta.totalElements).toBeGreaterThan(0);
      const created = await ws.call('POST', ws.records('/orders'), { token: ADMIN_TOKEN, body: ORDER });
      expect(created.status).toBe(201);
      expect((await ws.call('DELETE', ws.records(`/orders/${created.body.data.id}`), { token: ADMIN_TOKEN })).status).toBe(204);
      const options = await ws.call('PATCH', ws.admin('/entities/orders'), { token: ADMIN_TOKEN, body: { maxExpandDepth: 3 } });
      expect(options.status).toBe(200);
      const keys = await ws.call('GET', ws.admin('/api-keys'), { token: ADMIN_TOKEN });
      expect(keys.status).toBe(200);
      expect(keys.body.meta.totalElements).toBeGreaterThan(0);
    });

    it('an issued key is answered once with {id, name, key} and works at once', async () => {
      const res = await ws.call('POST', ws.admin('/api-keys'), { token: ADMIN_TOKEN, body: { name: 'fresh' } });
      expect(res.status).toBe(201);
      expect(Object.keys(res.body.data).sort()).toEqual(['id', 'key', 'name']);
      expect((await ws.call('GET', ws.records('/orders/1'), { token: res.body.data.key })).status).toBe(200);
      const list = await ws.call('GET', ws.admin('/api-keys'), { token: ADMIN_TOKEN });
      expect(JSON.stringify(list.body)).not.toContain(res.body.data.key);
    });

    it('an unknown organization or workspace is 404 for the admin token', async () => {
      expectError(await ws.call('GET', '/api/v1/nobody/shop/orders', { token: ADMIN_TOKEN }), 404, 'NOT_FOUND');
      expectError(await ws.call('GET', `/api/v1/${ws.org}/nothing/orders`, { token: ADMIN_TOKEN }), 404, 'NOT_FOUND');
    });
  });

  describe('no response body carries SQL text, a stack trace or a driver message', () => {
    const provocations: [string, string, { body?: unknown; rawBody?: string; headers?: Record<string, string> }?][] = [
      ['POST', '/customers', { body: { name: 'Dup', email: 'user1@example.com' } }],
      ['POST', '/orders', { body: { ...ORDER, customerId: 424242 } }],
      ['POST', '/orders', { body: { ...ORDER, amount: 1e21 } }],
      ['POST', '/orders', { body: { ...ORDER, amount: '1e50' } }],
      ['POST', '/orders', { body: { ...ORDER, note: 'x\u0000' } }],
      ['POST', '/orders', { rawBody: '{"a":' }],
      ['POST', '/orders', { rawBody: 'a', headers: { 'content-type': 'text/plain' } }],
      ['PUT', '/customers/2', { body: { email: 'user1@example.com' } }],
      ['PUT', '/orders/2', { body: { productId: 31337 } }],
      ['DELETE', '/customers/1'],
      ['DELETE', '/regions/2'],
      ['GET', '/orders?filter[amount.eq]=1e999999'],
      ['GET', '/orders?filter[status.like]=%25%5C'],
      ['GET', '/orders?sort=status%3B%20DROP%20TABLE%20orders'],
      ['GET', '/orders?fields=id%2C(select%201)'],
      ['GET', '/orders?expand=customer.region.nothing'],
      ['GET', '/orders/abc'],
      ['GET', '/orders?size=100000'],
    ];

    it('SQL in a filter value is data: 200 with no match, and nothing changes', async () => {
      const before = await databaseDigest(ws);
      const res = await ws.call('GET', ws.records("/orders?filter[status.eq]=x'%3B%20DROP%20TABLE%20orders%3B--"));
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual([]);
      expect(await databaseDigest(ws)).toEqual(before);
    });

    it.each(provocations)('%s %s answers a 4xx whose body shows no internals', async (method, path, options) => {
      const before = await databaseDigest(ws);
      const res = await ws.call(method, ws.records(path), options ?? {});
      expect(res.status, JSON.stringify(res.body)).toBeGreaterThanOrEqual(400);
      expect(res.status, JSON.stringify(res.body)).toBeLessThan(500);
      expect(Object.keys(res.body)).toEqual(['error']);
      expect(Object.keys(res.body.error).every((k) => ['code', 'message', 'details'].includes(k))).toBe(true);
      expectNoLeak(res.body);
      if (method !== 'GET') expect(await databaseDigest(ws)).toEqual(before);
    });
  });
});
