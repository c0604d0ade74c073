/**
 * Big tokens: an IdP token with many group claims (40 KB) passes the header
 * limit and is verified like any other; the header limit, not the auth layer, bounds its size.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorkspace, type TestWorkspace } from '../support/harness.ts';
import { pgliteTarget } from '../support/vendors.ts';
import { configureIdp } from '../support/auth.ts';
import { nowSeconds, TestIdp } from '../support/test-idp.ts';

describe('a 40 KB IdP token', () => {
  let ws: TestWorkspace;
  let idp: TestIdp;
  let issuer: string;

  beforeAll(async () => {
    [ws, idp] = await Promise.all([startWorkspace(pgliteTarget), TestIdp.start()]);
    issuer = idp.registerIssuer('/groups');
    await configureIdp(ws, { issuerUrl: issuer, jwksUri: idp.jwksUri('/groups'), defaultPermissions: 'READ_ONLY', enabled: true });
  });
  afterAll(async () => {
    await ws?.close();
    await idp?.close();
  });

  it('is accepted', async () => {
    const groups = Array.from({ length: 1200 }, (_, i) => `group-with-a-long-name-${i}`);
    const token = await idp.sign({ iss: issuer, sub: 'user-1', iat: nowSeconds(), exp: nowSeconds() + 600, groups });
    expect(token.length).toBeGreaterThan(40 * 1024);
    expect(token.length).toBeLessThan(60 * 1024);
    const res = await ws.call('GET', ws.records('/orders?size=1'), { token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  });
});
