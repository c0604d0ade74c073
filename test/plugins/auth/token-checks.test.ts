/**
 * Small token checks: an opaque bearer on a workspace with an identity provider
 * is told that a JWT access token is expected (an API-key-looking one keeps the API key message),
 * and a token issued in the future beyond the 30 s clock tolerance is refused, external and
 * internal alike.
 */
import { decodeJwt, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, startWorkspace, type TestWorkspace } from '../../support/harness.ts';
import { pgliteTarget } from '../../support/vendors.ts';
import { configureIdp, expectUnauthorized } from '../../support/auth.ts';
import { nowSeconds, TestIdp } from '../../support/test-idp.ts';

const JWT_EXPECTED = 'a JWT access token from the identity provider (or an API key) is expected';
const ISSUED_IN_FUTURE = 'token was issued in the future (iat)';

describe('token checks', () => {
  let ws: TestWorkspace;
  let idp: TestIdp;
  let issuer: string;
  const list = (token: string) => ws.call('GET', ws.records('/regions'), { token });
  const claims = (extra: Record<string, unknown> = {}) => ({ iss: issuer, sub: 'user-1', iat: nowSeconds(), exp: nowSeconds() + 600, ...extra });

  beforeAll(async () => {
    [ws, idp] = await Promise.all([startWorkspace(pgliteTarget), TestIdp.start()]);
    issuer = idp.registerIssuer('/checks');
  });
  afterAll(async () => {
    await ws?.close();
    await idp?.close();
  });

  describe('an opaque bearer', () => {
    it('without an identity provider keeps the generic message', async () => {
      expectUnauthorized(await list('opaque-session-token-0123456789'), 'invalid or unknown credential');
    });

    it('with an identity provider is told that a JWT access token is expected; API-key-looking tokens keep the API key message', async () => {
      await configureIdp(ws, { issuerUrl: issuer, defaultPermissions: 'READ_ONLY', enabled: true });
      for (const opaque of ['opaque-session-token-0123456789', 'ya29.a0AfH6SMBx', 'gho_16C7e42F292c6912E7710c838347Ae178B4a', 'a.b']) {
        expectUnauthorized(await list(opaque), JWT_EXPECTED);
      }
      expectUnauthorized(await list('wdk_0123456789abcdef_AAAAAAAAAAAAAAAAAAAAAAAA'), 'invalid API key');
      expectUnauthorized(await list('wdk_garbage'), 'invalid API key');
      // A real JWT and an API key still work.
      expect((await list(await idp.sign(claims()))).status).toBe(200);
      expect((await list(ws.apiKey)).status).toBe(200);
    });
  });

  describe('iat in the future', () => {
    it('an external token issued more than 30 s ahead is refused; within the tolerance it is accepted', async () => {
      await configureIdp(ws, { issuerUrl: issuer, defaultPermissions: 'READ_ONLY', enabled: true });
      expectUnauthorized(await list(await idp.sign(claims({ iat: nowSeconds() + 120 }))), ISSUED_IN_FUTURE);
      expectUnauthorized(await list(await idp.sign(claims({ iat: nowSeconds() + 86_400 * 365 }))), ISSUED_IN_FUTURE);
      expect((await list(await idp.sign(claims({ iat: nowSeconds() + 10 })))).status).toBe(200);
      expect((await list(await idp.sign(claims({ iat: undefined })))).status).toBe(200);
    });

    it('an internal token issued more than 30 s ahead is refused', async () => {
      const key = await ws.call('POST', ws.admin('/api-keys'), { token: ADMIN_TOKEN, body: {} });
      const grant = await fetch(`${ws.url}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'client_credentials', client_id: key.body.data.id, client_secret: key.body.data.key }).toString(),
      });
      const { access_token: real } = (await grant.json()) as { access_token: string };
      expect((await list(real)).status).toBe(200);
      // The same claims signed with the instance's own key (this test runs the service in process).
      const signing = ws.service.services.issuer.key;
      const resign = (iat: number) =>
        new SignJWT({ ...decodeJwt(real), iat }).setProtectedHeader({ alg: 'ES256', kid: signing.kid, typ: 'JWT' }).sign(signing.privateKey);
      expectUnauthorized(await list(await resign(nowSeconds() + 120)), ISSUED_IN_FUTURE);
      expect((await list(await resign(nowSeconds() + 10))).status).toBe(200);
    });
  });
});
