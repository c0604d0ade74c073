/**
 * Attack tokens (spec "Authentication" rule 4, DESIGN §10): every one is 401 and the body says
 * nothing about keys, algorithms or jose internals. The JWKS refetch on an unknown `kid` is
 * rate-limited, so a flood of unknown kids cannot make the service hammer the provider.
 */
import { exportJWK, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORDERS } from '../../support/fixture.ts';
import { startWorkspace, type TestWorkspace } from '../../support/harness.ts';
import { pgliteTarget } from '../../support/vendors.ts';
import { configureIdp, expectUnauthorized, MESSAGES } from '../../support/auth.ts';
import { b64url, makeKey, nowSeconds, TestIdp } from '../../support/test-idp.ts';

describe('attack tokens', () => {
  let ws: TestWorkspace;
  let idp: TestIdp;
  let attacker: TestIdp;
  let issuer: string;
  const AUDIENCE = 'data-api';

  const claims = (extra: Record<string, unknown> = {}) => ({ iss: issuer, sub: 'victim', aud: AUDIENCE, iat: nowSeconds(), exp: nowSeconds() + 600, ...extra });
  const get = (token: string) => ws.call('GET', ws.records('/orders'), { token });
  const tamper = (token: string, change: (payload: Record<string, unknown>) => void): string => {
    const [h, p, s] = token.split('.');
    const payload = JSON.parse(Buffer.from(p ?? '', 'base64url').toString()) as Record<string, unknown>;
    change(payload);
    return `${h}.${b64url(payload)}.${s}`;
  };

  beforeAll(async () => {
    [ws, idp, attacker] = await Promise.all([startWorkspace(pgliteTarget), TestIdp.start(), TestIdp.start()]);
    issuer = idp.registerIssuer('/realm');
    attacker.registerIssuer('/realm');
    await configureIdp(ws, { issuerUrl: issuer, jwksUri: idp.jwksUri('/realm'), audience: AUDIENCE, defaultPermissions: 'READ_WRITE', enabled: true });
  });
  afterAll(async () => {
    await ws?.close();
    await idp?.close();
    await attacker?.close();
  });

  it('control: a genuine token is accepted', async () => {
    const res = await get(await idp.sign(claims()));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.meta.totalElements).toBe(ORDERS.length);
  });

  it('alg "none" with an empty signature', async () => {
    for (const header of [{ alg: 'none', typ: 'JWT' }, { alg: 'None' }, { alg: 'NONE', kid: idp.key('RS256').kid }]) {
      expectUnauthorized(await get(`${b64url(header)}.${b64url(claims())}.`));
    }
  });

  it('alg "none" with the signature of a genuine token kept', async () => {
    const genuine = await idp.sign(claims());
    const signature = genuine.split('.')[2];
    expectUnauthorized(await get(`${b64url({ alg: 'none', typ: 'JWT' })}.${b64url(claims())}.${signature}`));
  });

  it('HS256 signed with the RSA public key (PEM and JWK bytes) as the HMAC secret', async () => {
    const rsa = idp.key('RS256');
    const secrets = [
      new TextEncoder().encode(await idp.rsaPublicPem()),
      new TextEncoder().encode(JSON.stringify(rsa.publicJwk)),
      new TextEncoder().encode(JSON.stringify(await exportJWK(rsa.publicKey))),
    ];
    for (const secret of secrets) {
      for (const alg of ['HS256', 'HS512']) {
        const token = await new SignJWT(claims()).setProtectedHeader({ alg, kid: rsa.kid, typ: 'JWT' }).sign(secret);
        expectUnauthorized(await get(token));
      }
    }
  });

  it('a payload changed after signing (sub, exp, aud)', async () => {
    const genuine = await idp.sign(claims({ sub: 'mallory' }));
    expect((await get(genuine)).status).toBe(200);
    expectUnauthorized(await get(tamper(genuine, (p) => (p.sub = 'admin'))));
    expectUnauthorized(await get(tamper(genuine, (p) => (p.exp = nowSeconds() + 10 * 365 * 86400))));
    expectUnauthorized(await get(tamper(await idp.sign(claims(), { alg: 'ES256' }), (p) => (p.role = 'owner'))));
  });

  it('a signature cut off, or moved from another token', async () => {
    const a = await idp.sign(claims({ sub: 'a' }));
    const b = await idp.sign(claims({ sub: 'b' }));
    const [ah, ap] = a.split('.');
    expectUnauthorized(await get(`${ah}.${ap}.`));
    expectUnauthorized(await get(`${ah}.${ap}.${b.split('.')[2]}`));
  });

  it('the header claims a published kid but an attacker key signed it', async () => {
    for (const alg of ['RS256', 'ES256'] as const) {
      const forged = await attacker.sign(claims(), { alg, header: { kid: idp.key(alg).kid } });
      expectUnauthorized(await get(forged));
    }
  });

  it('an ES256 token whose header says RS256 (and the reverse)', async () => {
    expectUnauthorized(await get(await idp.sign(claims(), { alg: 'ES256', header: { alg: 'RS256' } }).catch(() => 'x.y.z')));
    const es = await idp.sign(claims(), { alg: 'ES256' });
    const [, p, s] = es.split('.');
    expectUnauthorized(await get(`${b64url({ alg: 'RS256', kid: idp.key('ES256').kid })}.${p}.${s}`));
  });

  it('jku / x5u / an embedded jwk in the header pointing at the attacker are ignored', async () => {
    const evil = attacker.key('RS256');
    const headers = [
      { jku: attacker.jwksUri('/realm') },
      { x5u: `${attacker.origin}/cert.pem` },
      { jwk: evil.publicJwk },
    ];
    attacker.resetCounts();
    for (const header of headers) expectUnauthorized(await get(await attacker.sign(claims(), { key: evil, header })));
    expect(attacker.count('/realm/jwks.json')).toBe(0);
    expect(attacker.count('/cert.pem')).toBe(0);
  });

  it('an unknown kid is 401, and a flood of unknown kids costs at most a couple of JWKS fetches', async () => {
    const path = '/flood';
    const floodIssuer = idp.registerIssuer(path);
    await configureIdp(ws, { issuerUrl: floodIssuer, jwksUri: idp.jwksUri(path), defaultPermissions: 'READ_WRITE', enabled: true });
    try {
      expect((await get(await idp.sign(claims({ iss: floodIssuer })))).status).toBe(200);
      const strangers = await Promise.all(Array.from({ length: 5 }, (_, i) => makeKey(i % 2 ? 'ES256' : 'RS256')));
      const tokens = await Promise.all(Array.from({ length: 40 }, (_, i) => idp.sign(claims({ iss: floodIssuer, sub: `u${i}` }), { key: strangers[i % strangers.length] })));
      // Half in parallel, half one after another.
      const parallel = await Promise.all(tokens.slice(0, 20).map((t) => get(t)));
      for (const res of parallel) expectUnauthorized(res);
      for (const t of tokens.slice(20)) expectUnauthorized(await get(t));
      expect(idp.count(`${path}/jwks.json`)).toBeGreaterThanOrEqual(1);
      expect(idp.count(`${path}/jwks.json`)).toBeLessThanOrEqual(2);
      // Genuine tokens keep working during the flood.
      expect((await get(await idp.sign(claims({ iss: floodIssuer }), { alg: 'ES256' }))).status).toBe(200);
    } finally {
      await configureIdp(ws, { issuerUrl: issuer, jwksUri: idp.jwksUri('/realm'), audience: AUDIENCE, defaultPermissions: 'READ_WRITE', enabled: true });
    }
  });

  it('expired, with the spec message', async () => {
    expectUnauthorized(await get(await idp.sign(claims({ exp: nowSeconds() - 600, iat: nowSeconds() - 1200 }))), MESSAGES.expired);
  });

  it('nbf 10 minutes in the future', async () => {
    expectUnauthorized(await get(await idp.sign(claims({ nbf: nowSeconds() + 600 }))));
    expectUnauthorized(await get(await idp.sign(claims({ nbf: nowSeconds() + 600 }), { alg: 'ES256' })));
  });

  it('missing sub, and a sub that is not a string', async () => {
    const { sub: _sub, ...rest } = claims();
    expectUnauthorized(await get(await idp.sign(rest)), MESSAGES.missingSub);
    expectUnauthorized(await get(await idp.sign({ ...rest, sub: 42 } as Record<string, unknown>)));
  });

  it('wrong iss (even when signed by the configured provider\'s keys)', async () => {
    expectUnauthorized(await get(await idp.sign(claims({ iss: `${idp.origin}/other-realm` }))), MESSAGES.issuer);
    expectUnauthorized(await get(await idp.sign(claims({ iss: ws.url }))));
  });

  it('wrong aud', async () => {
    expectUnauthorized(await get(await idp.sign(claims({ aud: 'another-api' }))), MESSAGES.audience);
  });

  it('a 100 KB token is refused before it is read: 431 HEADERS_TOO_LARGE in the envelope (header limit 64 KiB)', async () => {
    const big = await idp.sign(claims({ padding: 'x'.repeat(100 * 1024) }));
    expect(big.length).toBeGreaterThan(100 * 1024);
    for (const token of [big, 'A'.repeat(100 * 1024)]) {
      const res = await get(token);
      expect(res.status).toBe(431);
      expect(res.body).toEqual({ error: { code: 'HEADERS_TOO_LARGE', message: 'the request headers are larger than 65536 bytes' } });
    }
  });

  it('a 15 KB validly signed token (many claims, as real IdPs issue) is accepted', async () => {
    const big = await idp.sign(claims({ padding: 'x'.repeat(11 * 1024) }));
    expect(big.length).toBeGreaterThan(14 * 1024);
    expect((await get(big)).status).toBe(200);
  });

  it('an opaque (non-JWT) token on a workspace with only external auth', async () => {
    for (const token of ['opaque-access-token-0123456789', 'ya29.a0AfH6SMBx', 'a.b', 'a.b.c.d.e', `${b64url({ alg: 'RS256' })}.!!!.sig`, 'wdk_0123456789abcdef_notarealsecretvalue00']) {
      expectUnauthorized(await get(token));
    }
  });

  it('a token built from the internal issuer but signed by the external IdP', async () => {
    expectUnauthorized(await get(await idp.sign(claims({ iss: ws.url, wdapi_ws: 'anything' }), { alg: 'ES256' })));
  });

  it('malformed Authorization headers', async () => {
    for (const header of ['Basic dXNlcjpwYXNz', 'Bearer', 'Bearer ', 'Token abc', 'bearer  a b']) {
      expectUnauthorized(await ws.call('GET', ws.records('/orders'), { token: null, headers: { authorization: header } }));
    }
    expectUnauthorized(await ws.call('GET', ws.records('/orders'), { token: null }));
  });
});
