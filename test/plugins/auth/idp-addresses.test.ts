/**
 * The private-address rule on identity-provider URLs (docs/security.md): at save, a URL that is,
 * or resolves to, a loopback, link-local or private address is 400 naming the field, and a URL with
 * a user name or password is refused without being repeated; at fetch time the address connected
 * to is checked again (a name whose DNS answer changed after save is refused), unless the
 * deployment opted in (IDP_ALLOW_PRIVATE).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isNonPublicAddress } from '../../../core/outbound-address.ts';
import { fetchJsonDocument, FetchFailed } from '../../../plugins/auth/external-jwt/fetch-json.ts';
import { ADMIN_TOKEN, startWorkspace, type TestWorkspace } from '../../support/harness.ts';
import { pgliteTarget } from '../../support/vendors.ts';
import { expectUnauthorized } from '../../support/auth.ts';
import { nowSeconds, TestIdp } from '../../support/test-idp.ts';

const REFUSED = 'must not point at a loopback, link-local or private address';

describe('identity-provider addresses', () => {
  let ws: TestWorkspace;
  let idp: TestIdp;
  const put = (body: Record<string, unknown>) =>
    ws.call('PUT', ws.admin('/identity-provider'), { token: ADMIN_TOKEN, body: { defaultPermissions: 'READ_ONLY', enabled: true, ...body } });

  beforeAll(async () => {
    [ws, idp] = await Promise.all([startWorkspace(pgliteTarget, { settings: { idpAllowPrivate: false } }), TestIdp.start()]);
  });
  afterAll(async () => {
    await ws?.close();
    await idp?.close();
  });

  it.each([
    ['issuerUrl', 'http://169.254.169.254/latest/meta-data/'],
    ['issuerUrl', 'http://127.0.0.1:8080/'],
    ['issuerUrl', 'http://[::1]/'],
    ['issuerUrl', 'http://[::ffff:127.0.0.1]/'],
    ['issuerUrl', 'http://2130706433/'],
    ['issuerUrl', 'https://10.1.2.3/realms/x'],
    ['issuerUrl', 'http://localhost:9999/'],
    ['jwksUri', 'https://192.168.0.10/jwks.json'],
    ['jwksUri', 'http://[fe80::1]/jwks.json'],
  ])('%s %s is refused at save with a 400 naming the field', async (field, url) => {
    const body = field === 'issuerUrl' ? { issuerUrl: url } : { issuerUrl: 'https://93.184.215.14/', jwksUri: url };
    const res = await put(body);
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_FAILED');
    expect(res.body.error.details).toContainEqual(expect.objectContaining({ field, message: REFUSED }));
  });

  it('a URL with a user name or password is refused and not repeated', async () => {
    const res = await put({ issuerUrl: 'https://admin:hunter2-secret@idp.example.com/' });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toContainEqual(expect.objectContaining({ field: 'issuerUrl', message: 'must not contain a user name or password' }));
    expect(JSON.stringify(res.body)).not.toMatch(/hunter2|admin:/);
  });

  it('a public address is saved', async () => {
    const res = await put({ issuerUrl: 'https://93.184.215.14/realms/x' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  });

  it('at fetch time a name that resolves to a private address is refused: the provider is never asked', async () => {
    // As if DNS answered with a public address at save and a loopback one now: written past the save check.
    const issuer = `http://localhost:${new URL(idp.origin).port}/rebound`;
    const { services } = ws.service;
    const workspace = await services.workspaces.bySlug(ws.org, ws.ws);
    await services.workspaces.change(workspace.workspace.id, (tx) =>
      tx.saveIdentityProvider(workspace.workspace.id, { issuerUrl: issuer, jwksUri: null, audience: null, defaultPermissions: 'READ_ONLY', enabled: true }));
    idp.registerIssuer('/rebound');
    idp.resetCounts();
    const token = await idp.sign({ iss: issuer, sub: 'user-1', exp: nowSeconds() + 600 });
    expectUnauthorized(await ws.call('GET', ws.records('/regions'), { token }), 'failed to discover JWKS endpoint for issuer');
    expect(idp.count('/rebound/.well-known/openid-configuration')).toBe(0);
  });

  it('the fetch checks the connected address; the opt-in lets a self-hosted provider through', async () => {
    idp.registerIssuer('/direct');
    idp.resetCounts();
    const viaName = `http://localhost:${new URL(idp.origin).port}/direct/jwks.json`;
    await expect(fetchJsonDocument(viaName, { allowPrivate: false })).rejects.toBeInstanceOf(FetchFailed);
    await expect(fetchJsonDocument(`${idp.origin}/direct/jwks.json`, { allowPrivate: false })).rejects.toBeInstanceOf(FetchFailed);
    expect(idp.count('/direct/jwks.json')).toBe(0);
    const document = (await fetchJsonDocument(viaName, { allowPrivate: true })) as { keys: unknown[] };
    expect(document.keys.length).toBeGreaterThan(0);
  });

  it('classifies addresses', () => {
    for (const address of ['127.0.0.1', '10.0.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::1', '::', 'fd00::1', 'fe80::1', '::ffff:7f00:1', '::ffff:10.0.0.1']) {
      expect(isNonPublicAddress(address), address).toBe(true);
    }
    for (const address of ['93.184.215.14', '8.8.8.8', '172.32.0.1', '2606:4700::1111', '::ffff:8.8.8.8']) {
      expect(isNonPublicAddress(address), address).toBe(false);
    }
  });
});
