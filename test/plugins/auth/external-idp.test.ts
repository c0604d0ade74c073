/**
 * External identity providers (spec "External identity provider configuration", "Authentication"
 * rules 3, 4, 9, the 401 rows of "Errors"; DESIGN §10, §12 "Auth"), against a real test IdP:
 * RS256 and ES256, configured or discovered JWKS, issuer forms, and every 401 message.
 */
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORDERS } from '../../support/fixture.ts';
import { ADMIN_TOKEN, startWorkspace, type TestWorkspace } from '../../support/harness.ts';
import { expectList, expectValidation } from '../../support/http-expect.ts';
import { pgliteTarget } from '../../support/vendors.ts';
import { configureIdp, expectUnauthorized, MESSAGES } from '../../support/auth.ts';
import { nowSeconds, TestIdp } from '../../support/test-idp.ts';

/** A loopback port where nothing listens. */
async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('external identity provider tokens', () => {
  let ws: TestWorkspace;
  let idp: TestIdp;
  let issuer: string;

  const claims = (extra: Record<string, unknown> = {}) => ({ iss: issuer, sub: 'user-1', iat: nowSeconds(), exp: nowSeconds() + 600, ...extra });
  const list = (token: string) => ws.call('GET', ws.records('/orders?size=5'), { token });

  function expectAccepted(res: Awaited<ReturnType<typeof list>>): void {
    expect(expectList(res)).toHaveLength(5);
    expect(res.body.meta.totalElements).toBe(ORDERS.length);
  }

  beforeAll(async () => {
    [ws, idp] = await Promise.all([startWorkspace(pgliteTarget), TestIdp.start()]);
    issuer = idp.registerIssuer('/main');
  });
  afterAll(async () => {
    await ws?.close();
    await idp?.close();
  });

  describe('no provider configured', () => {
    it('a JWT before any configuration is 401 "no external identity provider configured for this workspace"', async () => {
      expectUnauthorized(await list(await idp.sign(claims())), MESSAGES.notConfigured);
    });

    it('a disabled provider gives the same 401 even for a perfectly valid token', async () => {
      await configureIdp(ws, { issuerUrl: issuer, jwksUri: idp.jwksUri('/main'), defaultPermissions: 'READ_ONLY', enabled: false });
      expectUnauthorized(await list(await idp.sign(claims())), MESSAGES.notConfigured);
      await configureIdp(ws, { issuerUrl: issuer, jwksUri: idp.jwksUri('/main'), defaultPermissions: 'READ_ONLY', enabled: true });
      expectAccepted(await list(await idp.sign(claims())));
    });
  });

  describe('signatures and key discovery', () => {
    beforeAll(async () => {
      await configureIdp(ws, { issuerUrl: issuer, jwksUri: idp.jwksUri('/main'), defaultPermissions: 'READ_ONLY', enabled: true });
    });

    it('an RS256 token is accepted', async () => {
      expectAccepted(await list(await idp.sign(claims(), { alg: 'RS256' })));
    });

    it('an ES256 token is accepted', async () => {
      expectAccepted(await list(await idp.sign(claims(), { alg: 'ES256' })));
    });

    it('the provider configuration reads back as saved', async () => {
      const res = await ws.call('GET', ws.admin('/identity-provider'), { token: ADMIN_TOKEN });
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({ issuerUrl: issuer, jwksUri: idp.jwksUri('/main'), audience: null, defaultPermissions: 'READ_ONLY', enabled: true });
    });

    it.each([['omitted', undefined], ['empty', ''], ['null', null]])('with jwksUri %s the JWKS is discovered from the issuer', async (_label, jwksUri) => {
      const path = `/discover-${_label}`;
      const discovered = idp.registerIssuer(path);
      await configureIdp(ws, { issuerUrl: discovered, ...(jwksUri === undefined ? {} : { jwksUri }), defaultPermissions: 'READ_ONLY', enabled: true });
      expectAccepted(await list(await idp.sign(claims({ iss: discovered }), { alg: 'ES256' })));
      expectAccepted(await list(await idp.sign(claims({ iss: discovered }), { alg: 'RS256' })));
      expect(idp.count(idp.discoveryPath(path))).toBeGreaterThanOrEqual(1);
      expect(idp.count(`${path}/jwks.json`)).toBeGreaterThanOrEqual(1);
    });

    it('the JWKS is cached: many requests cost one discovery and one JWKS fetch', async () => {
      const path = '/cached';
      const cachedIssuer = idp.registerIssuer(path);
      await configureIdp(ws, { issuerUrl: cachedIssuer, defaultPermissions: 'READ_ONLY', enabled: true });
      for (let i = 0; i < 10; i++) expectAccepted(await list(await idp.sign(claims({ iss: cachedIssuer, sub: `u${i}` }), { alg: i % 2 ? 'RS256' : 'ES256' })));
      expect(idp.count(idp.discoveryPath(path))).toBe(1);
      expect(idp.count(`${path}/jwks.json`)).toBe(1);
    });
  });

  describe('issuer forms (rule 9)', () => {
    it('an issuer with a trailing slash: the token iss must carry the slash', async () => {
      const slashed = idp.registerIssuer('/slashed', { trailingSlash: true });
      expect(slashed.endsWith('/slashed/')).toBe(true);
      await configureIdp(ws, { issuerUrl: slashed, defaultPermissions: 'READ_ONLY', enabled: true });
      expectAccepted(await list(await idp.sign(claims({ iss: slashed }))));
      expectUnauthorized(await list(await idp.sign(claims({ iss: slashed.slice(0, -1) }))), MESSAGES.issuer);
    });

    it('an issuer without a trailing slash: a token iss with one is refused', async () => {
      const plain = idp.registerIssuer('/plain');
      await configureIdp(ws, { issuerUrl: plain, defaultPermissions: 'READ_ONLY', enabled: true });
      expectAccepted(await list(await idp.sign(claims({ iss: plain }), { alg: 'ES256' })));
      expectUnauthorized(await list(await idp.sign(claims({ iss: `${plain}/` }), { alg: 'ES256' })), MESSAGES.issuer);
    });

    it('issuer comparison is exact: scheme, host spelling and case all matter', async () => {
      const plain = idp.registerIssuer('/plain');
      await configureIdp(ws, { issuerUrl: plain, defaultPermissions: 'READ_ONLY', enabled: true });
      for (const iss of [plain.replace('http:', 'https:'), plain.replace('127.0.0.1', 'localhost'), plain.replace('/plain', '/PLAIN'), `${plain}?x=1`, ` ${plain}`]) {
        expectUnauthorized(await list(await idp.sign(claims({ iss }))), MESSAGES.issuer);
      }
    });

    it('the https://<host>/<project-id> form with the project id as audience', async () => {
      const project = idp.registerIssuer('/my-project');
      expect(project).toBe(`${idp.origin}/my-project`);
      await configureIdp(ws, { issuerUrl: project, audience: 'my-project', defaultPermissions: 'READ_ONLY', enabled: true });
      expectAccepted(await list(await idp.sign(claims({ iss: project, aud: 'my-project' }))));
      expectAccepted(await list(await idp.sign(claims({ iss: project, aud: ['other-client', 'my-project'] }), { alg: 'ES256' })));
      expectUnauthorized(await list(await idp.sign(claims({ iss: project, aud: 'My-Project' }))), MESSAGES.audience);
      expectUnauthorized(await list(await idp.sign(claims({ iss: project, aud: 'other-project' }))), MESSAGES.audience);
      expectUnauthorized(await list(await idp.sign(claims({ iss: project, aud: ['other-client'] }))), MESSAGES.audience);
      expectUnauthorized(await list(await idp.sign(claims({ iss: project }))), MESSAGES.audience);
    });

    it('without a configured audience, aud is not checked', async () => {
      await configureIdp(ws, { issuerUrl: issuer, jwksUri: idp.jwksUri('/main'), audience: '', defaultPermissions: 'READ_ONLY', enabled: true });
      expectAccepted(await list(await idp.sign(claims({ aud: 'anything' }))));
      expectAccepted(await list(await idp.sign(claims())));
    });
  });

  describe('the 401 messages of the spec', () => {
    beforeAll(async () => {
      await configureIdp(ws, { issuerUrl: issuer, jwksUri: idp.jwksUri('/main'), audience: 'api://data', defaultPermissions: 'READ_ONLY', enabled: true });
    });

    it('iss mismatch → "token issuer does not match configured identity provider"', async () => {
      expectUnauthorized(await list(await idp.sign(claims({ iss: `${idp.origin}/someone-else`, aud: 'api://data' }))), MESSAGES.issuer);
    });

    it('a JWT without iss is refused with the issuer message', async () => {
      const { iss: _iss, ...rest } = claims({ aud: 'api://data' });
      expectUnauthorized(await list(await idp.sign(rest)), MESSAGES.issuer);
    });

    it('aud mismatch and absent aud → "token audience does not match configured audience" (case-sensitive)', async () => {
      expectUnauthorized(await list(await idp.sign(claims({ aud: 'api://other' }))), MESSAGES.audience);
      expectUnauthorized(await list(await idp.sign(claims({ aud: 'API://DATA' }))), MESSAGES.audience);
      expectUnauthorized(await list(await idp.sign(claims())), MESSAGES.audience);
      expectAccepted(await list(await idp.sign(claims({ aud: 'api://data' }))));
    });

    it('exp in the past → "token has expired"', async () => {
      expectUnauthorized(await list(await idp.sign(claims({ aud: 'api://data', exp: nowSeconds() - 3600, iat: nowSeconds() - 7200 }))), MESSAGES.expired);
      expectUnauthorized(await list(await idp.sign(claims({ aud: 'api://data', exp: nowSeconds() - 90 }), { alg: 'ES256' })), MESSAGES.expired);
    });

    it('a few seconds past exp is inside the 30 s clock tolerance', async () => {
      expectAccepted(await list(await idp.sign(claims({ aud: 'api://data', exp: nowSeconds() - 5 }))));
    });

    it('missing sub → "token is missing required claim: sub"', async () => {
      const { sub: _sub, ...rest } = claims({ aud: 'api://data' });
      expectUnauthorized(await list(await idp.sign(rest)), MESSAGES.missingSub);
      expectUnauthorized(await list(await idp.sign({ ...rest, sub: '' })), MESSAGES.missingSub);
    });

    it('missing exp → "token is missing required claim: exp"', async () => {
      const { exp: _exp, ...rest } = claims({ aud: 'api://data' });
      expectUnauthorized(await list(await idp.sign(rest, { alg: 'ES256' })), MESSAGES.missingExp);
    });

    it('JWKS not discoverable: nothing listens at the issuer → "failed to discover JWKS endpoint for issuer"', async () => {
      const nowhere = `http://127.0.0.1:${await deadPort()}/realm`;
      await configureIdp(ws, { issuerUrl: nowhere, defaultPermissions: 'READ_ONLY', enabled: true });
      expectUnauthorized(await list(await idp.sign(claims({ iss: nowhere }))), MESSAGES.discovery);
    });

    it('JWKS not discoverable: the discovery document has no jwks_uri', async () => {
      const bare = idp.registerIssuer('/no-jwks-uri', { withoutJwksUri: true });
      await configureIdp(ws, { issuerUrl: bare, defaultPermissions: 'READ_ONLY', enabled: true });
      expectUnauthorized(await list(await idp.sign(claims({ iss: bare }))), MESSAGES.discovery);
      expect(idp.count(idp.discoveryPath('/no-jwks-uri'))).toBeGreaterThanOrEqual(1);
    });

    it('JWKS not discoverable: the issuer has no discovery document (404)', async () => {
      const unknown = `${idp.origin}/never-registered`;
      await configureIdp(ws, { issuerUrl: unknown, defaultPermissions: 'READ_ONLY', enabled: true });
      expectUnauthorized(await list(await idp.sign(claims({ iss: unknown }))), MESSAGES.discovery);
    });
  });

  describe('configuration payload', () => {
    it.each([
      [{ issuerUrl: 'not a url', defaultPermissions: 'READ_ONLY', enabled: true }, 'issuerUrl'],
      [{ issuerUrl: 'ftp://idp.example/', defaultPermissions: 'READ_ONLY', enabled: true }, 'issuerUrl'],
      [{ defaultPermissions: 'READ_ONLY', enabled: true }, 'issuerUrl'],
      [{ issuerUrl: 'https://idp.example/', defaultPermissions: 'READ_EVERYTHING', enabled: true }, 'defaultPermissions'],
      [{ issuerUrl: 'https://idp.example/', enabled: true }, 'defaultPermissions'],
      [{ issuerUrl: 'https://idp.example/', jwksUri: 'file:///etc/passwd', defaultPermissions: 'READ_ONLY', enabled: true }, 'jwksUri'],
    ])('%j is 400 VALIDATION_FAILED naming %s', async (body, field) => {
      expectValidation(await ws.call('PUT', ws.admin('/identity-provider'), { token: ADMIN_TOKEN, body }), field);
    });
  });
});
