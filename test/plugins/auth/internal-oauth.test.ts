/**
 * Internal OAuth 2.0 (DESIGN §10, §12 "Auth"): client_credentials at POST /oauth/token with the
 * API key's id and the whole key, as a form, as JSON or with HTTP Basic; the ES256 token is an
 * owner credential (RLS bypassed) and verifies against the instance's published JWKS.
 */
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORDERS } from '../../support/fixture.ts';
import { ADMIN_TOKEN, startWorkspace, type TestWorkspace } from '../../support/harness.ts';
import { expectList } from '../../support/http-expect.ts';
import { pgliteTarget } from '../../support/vendors.ts';
import { addRule, defaultViews, expectUnauthorized, secondWorkspace } from '../../support/auth.ts';

interface RawResponse {
  status: number;
  headers: Headers;
  body: any;
}

async function post(url: string, body: string, headers: Record<string, string>): Promise<RawResponse> {
  const res = await fetch(url, { method: 'POST', headers, body });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // kept as text
  }
  return { status: res.status, headers: res.headers, body: parsed };
}

describe('internal OAuth 2.0 (client_credentials)', () => {
  let ws: TestWorkspace;
  let keyId: string;
  let key: string;
  let tokenUrl: string;

  const form = (fields: Record<string, string>) => post(tokenUrl, new URLSearchParams(fields).toString(), { 'content-type': 'application/x-www-form-urlencoded' });
  const json = (fields: Record<string, unknown>) => post(tokenUrl, JSON.stringify(fields), { 'content-type': 'application/json' });
  const basic = (id: string, secret: string, fields: Record<string, string> = { grant_type: 'client_credentials' }) =>
    post(tokenUrl, new URLSearchParams(fields).toString(), {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`,
    });

  function expectGrant(res: RawResponse): string {
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['access_token', 'expires_in', 'token_type']);
    expect(res.body.token_type).toBe('Bearer');
    expect(Number.isInteger(res.body.expires_in)).toBe(true);
    expect(res.body.expires_in).toBeGreaterThan(0);
    expect(typeof res.body.access_token).toBe('string');
    expect(res.body.access_token.split('.')).toHaveLength(3);
    expect(res.headers.get('cache-control')).toBe('no-store');
    return res.body.access_token as string;
  }

  beforeAll(async () => {
    ws = await startWorkspace(pgliteTarget);
    tokenUrl = `${ws.url}/oauth/token`;
    const created = await ws.call('POST', ws.admin('/api-keys'), { token: ADMIN_TOKEN, body: { name: 'oauth client' } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    keyId = created.body.data.id;
    key = created.body.data.key;
    // An RLS rule on orders: the owner credentials below must not be affected by it.
    const views = await defaultViews(ws);
    await addRule(ws, views.orders?.uuid ?? '', { column: 'customer_id', claim: 'customer' });
  });
  afterAll(async () => ws?.close());

  it('form-encoded client_id/client_secret gives {access_token, token_type: Bearer, expires_in}', async () => {
    expectGrant(await form({ grant_type: 'client_credentials', client_id: keyId, client_secret: key }));
  });

  it('a JSON body gives a token too', async () => {
    expectGrant(await json({ grant_type: 'client_credentials', client_id: keyId, client_secret: key }));
  });

  it('HTTP Basic with the same pair gives a token too', async () => {
    expectGrant(await basic(keyId, key));
  });

  it('the token is an owner credential on the record endpoints: RLS bypassed, writes allowed', async () => {
    const token = expectGrant(await form({ grant_type: 'client_credentials', client_id: keyId, client_secret: key }));
    const list = await ws.call('GET', ws.records('/orders?size=1000'), { token });
    expect(expectList(list)).toHaveLength(ORDERS.length);
    expect(list.body.meta.totalElements).toBe(ORDERS.length);
    const one = await ws.call('GET', ws.records('/orders/7'), { token });
    expect(one.status).toBe(200);
    expect(one.body.data.id).toBe(7);
    const created = await ws.call('POST', ws.records('/regions'), { token, body: { name: 'Internal token region' } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const updated = await ws.call('PUT', ws.records(`/regions/${created.body.data.id}`), { token, body: { name: 'Renamed by token' } });
    expect(updated.status).toBe(200);
    expect(updated.body.data.name).toBe('Renamed by token');
    expect((await ws.call('DELETE', ws.records(`/regions/${created.body.data.id}`), { token })).status).toBe(204);
    // Owner credentials may use the workspace's admin routes.
    expect((await ws.call('GET', ws.admin('/views'), { token })).status).toBe(200);
  });

  it('the API key itself sees every row despite the rule', async () => {
    const list = await ws.call('GET', ws.records('/orders?size=1000'));
    expect(list.body.meta.totalElements).toBe(ORDERS.length);
  });

  it('a wrong secret is 401 invalid_client (form, JSON and Basic)', async () => {
    const wrong = `${key.slice(0, -4)}AAAA` === key ? `${key.slice(0, -4)}BBBB` : `${key.slice(0, -4)}AAAA`;
    for (const res of [
      await form({ grant_type: 'client_credentials', client_id: keyId, client_secret: wrong }),
      await json({ grant_type: 'client_credentials', client_id: keyId, client_secret: wrong }),
      await basic(keyId, wrong),
      await form({ grant_type: 'client_credentials', client_id: keyId, client_secret: 'not-a-key' }),
    ]) {
      expect(res.status).toBe(401);
      expect(res.body.error).toBe('invalid_client');
      expect(JSON.stringify(res.body)).not.toContain(key);
    }
  });

  it('a client_id that is not the key\'s id is 401 invalid_client', async () => {
    const res = await form({ grant_type: 'client_credentials', client_id: '0123456789abcdef', client_secret: key });
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('invalid_client');
  });

  it('a key of another workspace gives a token for that workspace only (403 here)', async () => {
    const other = await secondWorkspace(ws, 'oauth-other');
    const otherId = /^wdk_([0-9a-f]{16})_/.exec(other.apiKey)?.[1] ?? '';
    const token = expectGrant(await form({ grant_type: 'client_credentials', client_id: otherId, client_secret: other.apiKey }));
    const res = await ws.call('GET', ws.records('/orders'), { token });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('FORBIDDEN');
    expect((await ws.call('GET', `/api/v1/${ws.org}/${other.slug}/notes`, { token })).status).toBe(200);
  });

  it.each([['password'], ['authorization_code'], ['']])('grant_type %j is 400', async (grant) => {
    const res = await form({ grant_type: grant, client_id: keyId, client_secret: key });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('unsupported_grant_type');
  });

  it('a missing grant_type is 400', async () => {
    const res = await json({ client_id: keyId, client_secret: key });
    expect(res.status).toBe(400);
  });

  it('a form that repeats a parameter is 400 (RFC 6749 §3.2), whatever the order', async () => {
    const twice = `grant_type=password&grant_type=client_credentials&client_id=${encodeURIComponent(keyId)}&client_secret=${encodeURIComponent(key)}`;
    const res = await post(tokenUrl, twice, { 'content-type': 'application/x-www-form-urlencoded' });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('unsupported_grant_type');
    const secrets = `grant_type=client_credentials&client_id=${encodeURIComponent(keyId)}&client_secret=x&client_secret=${encodeURIComponent(key)}`;
    const again = await post(tokenUrl, secrets, { 'content-type': 'application/x-www-form-urlencoded' });
    expect(again.status).toBe(400);
    expect(again.body.error).toBe('invalid_request');
  });

  it('a form with a charset parameter and percent-encoded UTF-8 gives a token', async () => {
    const body = new URLSearchParams({ grant_type: 'client_credentials', client_id: keyId, client_secret: key }).toString();
    expectGrant(await post(tokenUrl, body, { 'content-type': 'application/x-www-form-urlencoded; charset=UTF-8' }));
  });

  it('a body of another type is 400 unsupported_grant_type (read as empty), a body over 16 KiB is 413', async () => {
    const text = await post(tokenUrl, 'grant_type=client_credentials', { 'content-type': 'text/plain' });
    expect(text.status).toBe(400);
    expect(text.body.error).toBe('unsupported_grant_type');
    const large = await post(tokenUrl, `grant_type=client_credentials&pad=${'x'.repeat(17 * 1024)}`, { 'content-type': 'application/x-www-form-urlencoded' });
    expect(large.status).toBe(413);
    const broken = await post(tokenUrl, '{"grant_type":', { 'content-type': 'application/json' });
    expect(broken.status).toBe(400);
  });

  it('/.well-known/openid-configuration names the issuer, the token endpoint and the JWKS', async () => {
    const res = await fetch(`${ws.url}/.well-known/openid-configuration`);
    expect(res.status).toBe(200);
    const doc = (await res.json()) as Record<string, unknown>;
    expect(doc.issuer).toBe(ws.url);
    expect(doc.token_endpoint).toBe(`${ws.url}/oauth/token`);
    expect(doc.jwks_uri).toBe(`${ws.url}/.well-known/jwks.json`);
  });

  it('/.well-known/jwks.json publishes one public ES256 key and no private part', async () => {
    const res = await fetch(`${ws.url}/.well-known/jwks.json`);
    expect(res.status).toBe(200);
    const doc = (await res.json()) as { keys: Record<string, unknown>[] };
    expect(doc.keys).toHaveLength(1);
    expect(doc.keys[0]).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256' });
    expect(doc.keys[0]).not.toHaveProperty('d');
  });

  it('the token verifies with jose against the published JWKS (ES256, iss = the instance, sub = the key id)', async () => {
    const token = expectGrant(await form({ grant_type: 'client_credentials', client_id: keyId, client_secret: key }));
    expect(decodeProtectedHeader(token).alg).toBe('ES256');
    const jwks = createRemoteJWKSet(new URL(`${ws.url}/.well-known/jwks.json`));
    const { payload } = await jwtVerify(token, jwks, { issuer: ws.url, algorithms: ['ES256'] });
    expect(payload.sub).toBe(keyId);
    expect(typeof payload.exp).toBe('number');
    expect((payload.exp ?? 0) - Math.floor(Date.now() / 1000)).toBeLessThanOrEqual(3600 + 5);
  });

  it('a tampered internal token is 401', async () => {
    const token = expectGrant(await form({ grant_type: 'client_credentials', client_id: keyId, client_secret: key }));
    const [h, p, s] = token.split('.');
    const payload = JSON.parse(Buffer.from(p ?? '', 'base64url').toString());
    payload.sub = 'someone-else';
    const forged = `${h}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.${s}`;
    expectUnauthorized(await ws.call('GET', ws.records('/orders'), { token: forged }));
  });
});
