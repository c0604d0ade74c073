/**
 * Key rotation at the provider (DESIGN §10: key sets cached, refetched on an unknown `kid`,
 * rate-limited): after the provider replaces its keys, tokens signed with the new key are accepted
 * without a restart once the refetch cooldown (30 s) has passed, and the removed key stops working.
 * This file waits out the cooldown once (~31 s); it runs beside the other files.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorkspace, type TestWorkspace } from '../../support/harness.ts';
import { pgliteTarget } from '../../support/vendors.ts';
import { configureIdp, expectUnauthorized } from '../../support/auth.ts';
import { nowSeconds, TestIdp } from '../../support/test-idp.ts';

const COOLDOWN_MS = 30_000;

describe('JWKS key rotation', () => {
  let ws: TestWorkspace;
  let idp: TestIdp;
  let issuer: string;
  const jwksPath = '/rotating/jwks.json';

  const claims = () => ({ iss: issuer, sub: 'rotating-user', exp: nowSeconds() + 600 });
  const get = (token: string) => ws.call('GET', ws.records('/regions'), { token });

  beforeAll(async () => {
    [ws, idp] = await Promise.all([startWorkspace(pgliteTarget), TestIdp.start()]);
    issuer = idp.registerIssuer('/rotating');
    await configureIdp(ws, { issuerUrl: issuer, defaultPermissions: 'READ_ONLY', enabled: true });
  });
  afterAll(async () => {
    await ws?.close();
    await idp?.close();
  });

  it('replaced keys: the new key is picked up after the cooldown, the removed key is refused', { timeout: 90_000 }, async () => {
    const old = idp.key('RS256');
    const oldToken = await idp.sign(claims(), { key: old });
    expect((await get(oldToken)).status).toBe(200);
    expect(idp.count(jwksPath)).toBe(1);

    const [fresh] = await idp.replaceKeys('ES256');
    if (!fresh) throw new Error('no key');
    const freshToken = await idp.sign(claims(), { key: fresh });
    // Right after the last fetch a refetch is rate-limited: the new kid is not known yet.
    expectUnauthorized(await get(freshToken));
    expect(idp.count(jwksPath)).toBe(1);

    await new Promise((resolve) => setTimeout(resolve, COOLDOWN_MS + 1500));
    const res = await get(freshToken);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(idp.count(jwksPath)).toBe(2);
    // The refetched set no longer holds the old key.
    expectUnauthorized(await get(await idp.sign(claims(), { key: old })));
    expect(idp.count(jwksPath)).toBe(2);
    // The discovery document was read once for all of this.
    expect(idp.count(idp.discoveryPath('/rotating'))).toBe(1);
  });
});
