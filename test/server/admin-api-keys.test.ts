/**
 * API keys are listed without their secret and revoked with DELETE; a revoked
 * key is refused at once. Keys live in the control store, so one vendor (PGlite) is enough here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashSecret } from '../../plugins/auth/shared/secrets.ts';
import { ADMIN_TOKEN, fetchJson, startWorkspace, type TestWorkspace } from '../support/harness.ts';
import { pgliteTarget } from '../support/vendors.ts';

describe('API key management', () => {
  let ws: TestWorkspace;
  let otherKey: string;
  const keys = (token: string | null = ADMIN_TOKEN, ws2 = 'shop') =>
    fetchJson(`${ws.url}/api/admin/v1/orgs/${ws.org}/workspaces/${ws2}/api-keys`, 'GET', { token });
  const revoke = (id: string, token: string | null = ADMIN_TOKEN, ws2 = 'shop') =>
    fetchJson(`${ws.url}/api/admin/v1/orgs/${ws.org}/workspaces/${ws2}/api-keys/${id}`, 'DELETE', { token });
  const issue = async (name: string, ws2 = 'shop') =>
    (await fetchJson(`${ws.url}/api/admin/v1/orgs/${ws.org}/workspaces/${ws2}/api-keys`, 'POST', { token: ADMIN_TOKEN, body: { name } })).body.data as { id: string; key: string };
  const read = (key: string) => fetchJson(`${ws.url}/api/v1/${ws.org}/shop/customers?size=1`, 'GET', { token: key });

  beforeAll(async () => {
    ws = await startWorkspace(pgliteTarget);
    const other = await pgliteTarget.provision(ws.service, false);
    const created = await fetchJson(`${ws.url}/api/admin/v1/orgs/${ws.org}/workspaces`, 'POST', { token: ADMIN_TOKEN, body: { slug: 'other', database: other.database } });
    expect(created.status).toBe(201);
    otherKey = (await issue('other', 'other')).key;
  });
  afterAll(async () => ws?.close());

  it('the list shows id, name and createdAt, never the key or its hash', async () => {
    const { key } = await issue('listed');
    const res = await keys();
    expect(res.status).toBe(200);
    expect(res.body.meta.totalElements).toBe(res.body.data.length);
    for (const item of res.body.data) expect(Object.keys(item).sort()).toEqual(['createdAt', 'id', 'name']);
    const text = JSON.stringify(res.body);
    expect(text).not.toContain(key);
    expect(text).not.toContain(hashSecret(key));
    // The secret is everything after `wdk_<id>_` (it may hold `_` itself).
    expect(text).not.toContain(key.slice(key.indexOf('_', 4) + 1));
    expect((await keys(ws.apiKey)).status).toBe(200);
  });

  it('DELETE revokes a key: 204, then the key is 401 at once and gone from the list', async () => {
    const { id, key } = await issue('doomed');
    // Checked (and kept by this instance's key cache) before the revoke.
    expect((await read(key)).status).toBe(200);
    expect((await read(key)).status).toBe(200);
    const res = await revoke(id);
    expect(res.status).toBe(204);
    expect(res.body).toBeUndefined();
    const refused = await read(key);
    expect(refused.status).toBe(401);
    expect(refused.body.error.code).toBe('UNAUTHORIZED');
    expect((await keys()).body.data.map((k: { id: string }) => k.id)).not.toContain(id);
    expect((await revoke(id)).status).toBe(404);
  });

  it('an access token obtained with a key stops working when the key is revoked', async () => {
    const { id, key } = await issue('oauth');
    const grant = await fetchJson(`${ws.url}/oauth/token`, 'POST', { token: null, body: { grant_type: 'client_credentials', client_id: id, client_secret: key } });
    expect(grant.status, JSON.stringify(grant.body)).toBe(200);
    const token = grant.body.access_token as string;
    expect((await read(token)).status).toBe(200);
    expect((await revoke(id)).status).toBe(204);
    const refused = await read(token);
    expect(refused.status).toBe(401);
    expect(refused.body.error.code).toBe('UNAUTHORIZED');
  });

  it('the keys of a deleted workspace are refused at once (this instance keeps checked keys)', async () => {
    const doomed = await pgliteTarget.provision(ws.service, false);
    expect((await fetchJson(`${ws.url}/api/admin/v1/orgs/${ws.org}/workspaces`, 'POST', { token: ADMIN_TOKEN, body: { slug: 'doomed', database: doomed.database } })).status).toBe(201);
    const { key } = await issue('doomed-key', 'doomed');
    // Checked (and kept) twice: a valid key of another workspace is 403 on shop.
    for (let i = 0; i < 2; i++) expect((await read(key)).status).toBe(403);
    expect((await fetchJson(`${ws.url}/api/admin/v1/orgs/${ws.org}/workspaces/doomed`, 'DELETE', { token: ADMIN_TOKEN })).status).toBe(204);
    expect((await read(key)).status).toBe(401);
  });

  it('an owner key may revoke a key of its own workspace, not of another', async () => {
    const { id } = await issue('by-owner');
    expect((await revoke(id, ws.apiKey)).status).toBe(204);
    const other = await issue('elsewhere', 'other');
    expect((await revoke(other.id, ws.apiKey, 'other')).status).toBe(403);
    // A key id of another workspace is unknown here.
    expect((await revoke(other.id, ADMIN_TOKEN, 'shop')).status).toBe(404);
    expect((await read(otherKey)).status).toBe(403);
  });

  it('unknown ids, workspaces and missing credentials', async () => {
    expect((await revoke('0123456789abcdef')).status).toBe(404);
    expect((await revoke('not-an-id')).status).toBe(404);
    expect((await revoke('0123456789abcdef', null)).status).toBe(401);
    expect((await revoke('0123456789abcdef', otherKey)).status).toBe(403);
    expect((await keys(ADMIN_TOKEN, 'no-such-ws')).status).toBe(404);
    expect((await keys(null)).status).toBe(401);
    expect((await keys('wdk_0123456789abcdef_notARealSecretButLongEnough')).status).toBe(401);
  });
});
