/**
 * Secrets at rest (docs/security.md): the control store keeps workspace database URLs, the
 * cursor-signing key and the internal token signing key sealed with SECRETS_KEY. A direct look at
 * the store shows none of them; the service reads them back (across a restart); a clear store from
 * before encryption is sealed at start; a rotation with SECRETS_KEY_PREVIOUS re-seals; a wrong key
 * stops the start with one clear line.
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../../server/start.ts';
import { createControlDatabase, type ControlDatabase } from '../support/control-database.ts';
import { ADMIN_TOKEN, fetchJson } from '../support/harness.ts';
import { postgresTarget, vendorsToRun, type ProvisionedDatabase } from '../support/vendors.ts';
import { runMain, stackLines } from '../ops/child.ts';

const KEY_A = 'a1'.repeat(32);
const KEY_B = Buffer.alloc(32, 7).toString('base64');
const PASSWORD = 'pw-kept-sealed-4711';
const servers = await vendorsToRun([postgresTarget]);

const quiet = () => pino({ level: 'silent' });

describe.each(servers)('secrets at rest on a $name control store', (target) => {
  let control: ControlDatabase;
  let db: ProvisionedDatabase;
  let service: RunningService | undefined;
  let apiKey = '';
  let keyId = '';
  let clearUrl = '';
  const start = (keys: { secretsKey?: string; secretsKeyPrevious?: string }) =>
    startService({ adminToken: ADMIN_TOKEN, logger: quiet(), controlDatabaseUrl: control.url, publicUrl: 'http://wdapi.test', ...keys });
  const controlQuery = async (text: string, params: unknown[] = []): Promise<Record<string, unknown>[]> => {
    const client = new pg.Client({ connectionString: control.url });
    await client.connect();
    try {
      return (await client.query(text, params)).rows;
    } finally {
      await client.end();
    }
  };
  const storedText = async () =>
    JSON.stringify([
      await controlQuery(`SELECT database FROM wdapi_control.workspaces`),
      await controlQuery(`SELECT key, value FROM wdapi_control.instance`),
    ]);
  const list = (s: RunningService, query: string) => fetchJson(`${s.url}/api/v1/acme/shop/orders?${query}`, 'GET', {}, apiKey);
  const token = async (s: RunningService): Promise<string> => {
    const res = await fetchJson(`${s.url}/oauth/token`, 'POST', { body: { grant_type: 'client_credentials', client_id: keyId, client_secret: apiKey } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return String(res.body.access_token);
  };

  beforeAll(async () => {
    control = await createControlDatabase();
    service = await start({ secretsKey: KEY_A });
    db = await target.provision(service, true);
    const url = new URL(db.database.url ?? '');
    // The server trusts local connections: the password is carried, never checked.
    url.password = PASSWORD;
    clearUrl = url.toString();
    const admin = (path: string, body: unknown) => fetchJson(`${service?.url}/api/admin/v1/orgs${path}`, 'POST', { body }, ADMIN_TOKEN);
    expect((await admin('', { slug: 'acme', name: 'acme' })).status).toBe(201);
    const created = await admin('/acme/workspaces', { slug: 'shop', name: 'shop', database: { ...db.database, url: clearUrl } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const key = await admin('/acme/workspaces/shop/api-keys', { name: 'k' });
    apiKey = String(key.body.data.key);
    keyId = String(key.body.data.id);
  });
  afterAll(async () => {
    await service?.close();
    await db?.drop();
    await control?.drop();
  });

  it('a direct look at the store shows no password, cursor secret or private key', async () => {
    const cursorSecret = service?.services.cursorSecret ?? '';
    expect(cursorSecret).toMatch(/^[0-9a-f]{64}$/);
    const stored = await storedText();
    expect(stored).not.toContain(PASSWORD);
    expect(stored).not.toContain(cursorSecret);
    expect(stored).not.toMatch(/"d":|privateJwk/);
    expect(stored).toMatch(/enc:v1:/);
  });

  it('the service reads them back: data, a cursor and an internal token work across a restart', async () => {
    if (!service) throw new Error('no service');
    const first = await list(service, 'paging=cursor&size=5');
    expect(first.status).toBe(200);
    const cursor = encodeURIComponent(String(first.body.meta.nextCursor));
    const bearer = await token(service);
    await service.close();
    service = await start({ secretsKey: KEY_A });
    const next = await fetchJson(`${service.url}/api/v1/acme/shop/orders?after=${cursor}&size=5`, 'GET', {}, bearer);
    expect(next.status, JSON.stringify(next.body)).toBe(200);
    expect(next.body.data.map((r: { id: number }) => r.id)).toEqual([6, 7, 8, 9, 10]);
  });

  it('a clear store from before encryption is sealed at start and keeps working', async () => {
    if (!service) throw new Error('no service');
    const cursorSecret = service.services.cursorSecret;
    const cursor = encodeURIComponent(String((await list(service, 'paging=cursor&size=5')).body.meta.nextCursor));
    const kid = service.services.issuer.key.kid;
    const signingKey = await service.services.store.getSecretSetting<{ privateJwk: { d: string } }>('oauthSigningKey');
    expect(signingKey?.privateJwk.d).toMatch(/^[\w-]{40,}$/);
    await service.close();
    service = undefined;
    // Write the values back in clear, as a store of an earlier release holds them.
    await controlQuery(`UPDATE wdapi_control.instance SET value = $1::jsonb WHERE key = 'oauthSigningKey'`, [JSON.stringify(signingKey)]);
    await controlQuery(`UPDATE wdapi_control.workspaces SET database = jsonb_set(database, '{url}', to_jsonb($1::text))`, [clearUrl]);
    await controlQuery(`UPDATE wdapi_control.instance SET value = to_jsonb($1::text) WHERE key = 'cursorSecret'`, [cursorSecret]);
    expect(await storedText()).toContain(PASSWORD);
    expect(await storedText()).toContain(signingKey?.privateJwk.d);
    service = await start({ secretsKey: KEY_A });
    expect(await storedText()).not.toContain(PASSWORD);
    expect(await storedText()).not.toContain(signingKey?.privateJwk.d);
    expect(await storedText()).not.toContain(cursorSecret);
    expect(service.services.cursorSecret).toBe(cursorSecret);
    expect(service.services.issuer.key.kid).toBe(kid);
    expect((await list(service, `after=${cursor}&size=5`)).status).toBe(200);
  });

  it('a rotation: SECRETS_KEY_PREVIOUS opens the old values, which are sealed again with the new key', async () => {
    if (!service) throw new Error('no service');
    const cursorSecret = service.services.cursorSecret;
    const kid = service.services.issuer.key.kid;
    await service.close();
    service = await start({ secretsKey: KEY_B, secretsKeyPrevious: KEY_A });
    expect(service.services.cursorSecret).toBe(cursorSecret);
    await service.close();
    // The old key is no longer needed: everything is sealed with the new one.
    service = await start({ secretsKey: KEY_B });
    expect(service.services.cursorSecret).toBe(cursorSecret);
    expect(service.services.issuer.key.kid).toBe(kid);
    expect((await list(service, 'size=1')).status).toBe(200);
  });

  it('a wrong key stops the start with one line naming SECRETS_KEY, no stack; none at all is refused', async () => {
    if (!service) throw new Error('no service');
    await service.close();
    service = undefined;
    await expect(start({ secretsKey: KEY_A })).rejects.toThrow(/^SECRETS_KEY: the control store's secrets were sealed with key [0-9a-f]{8}/);
    await expect(start({})).rejects.toThrow(/^SECRETS_KEY: required with CONTROL_DATABASE_URL/);
    const child = runMain({ CONTROL_DATABASE_URL: control.url, ADMIN_TOKEN, SECRETS_KEY: KEY_A, DATA_DIR: mkdtempSync(join(tmpdir(), 'wdapi-secrets-')) });
    expect(await child.exited()).not.toBe(0);
    expect(child.stderr().trim().split('\n')).toHaveLength(1);
    expect(child.stderr()).toMatch(/^SECRETS_KEY: /);
    expect(stackLines(child.stderr())).toEqual([]);
    service = await start({ secretsKey: KEY_B });
  }, 120_000);
});

describe('secrets at rest on the embedded store', () => {
  const dir = mkdtempSync(join(tmpdir(), 'wdapi-secrets-embedded-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('a fresh data folder gets a key file only its owner can read, and the store holds no clear secret', async () => {
    const service = await startService({ adminToken: ADMIN_TOKEN, logger: quiet(), dataDir: dir });
    try {
      const file = join(dir, 'secrets.key');
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(readFileSync(file, 'utf8').trim()).toMatch(/^[0-9a-f]{64}$/);
      const rows = await service.embedded.query<{ value: unknown }>(`SELECT value FROM wdapi_control.instance WHERE key IN ('cursorSecret', 'oauthSigningKey')`);
      const text = JSON.stringify(rows.rows);
      expect(rows.rows).toHaveLength(2);
      expect(text).not.toContain(service.services.cursorSecret);
      expect(text).not.toMatch(/"d":|privateJwk/);
    } finally {
      await service.close();
    }
    // The same folder starts again with the same key.
    const again = await startService({ adminToken: ADMIN_TOKEN, logger: quiet(), dataDir: dir });
    await again.close();
  }, 120_000);

  it('an external control store without SECRETS_KEY is a configuration error (exit 78, one line)', async () => {
    const child = runMain({ CONTROL_DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/test', ADMIN_TOKEN, DATA_DIR: join(dir, 'ext') });
    expect(await child.exited()).toBe(78);
    expect(child.stderr().trim()).toBe('SECRETS_KEY: is required with CONTROL_DATABASE_URL (the same key on every instance; e.g. $(openssl rand -hex 32))');
  }, 60_000);
});

