/**
 * Organizations and workspaces can be listed, read, changed and deleted through
 * the admin API; a workspace database that cannot be used is a 400 naming the field, and the slug
 * stays free. Runs on every vendor: the workspace database is the vendor's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, fetchJson, startWorkspace, type ApiResponse, type TestWorkspace } from '../support/harness.ts';
import { uniqueName } from '../support/names.ts';
import { vendorsToRun, type ProvisionedDatabase } from '../support/vendors.ts';

const vendors = await vendorsToRun();

/** Controls that a response is the error envelope with `code` and, when given, a detail naming `field`. */
function expectError(res: ApiResponse, status: number, code: string, field?: string): void {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body.error.code).toBe(code);
  if (field) expect(res.body.error.details).toEqual(expect.arrayContaining([expect.objectContaining({ field })]));
}

describe.each(vendors)('workspace management on $name', (target) => {
  let ws: TestWorkspace;
  const extra: ProvisionedDatabase[] = [];
  const admin = (method: string, path: string, body?: unknown, token: string | null = ADMIN_TOKEN) =>
    fetchJson(`${ws.url}/api/admin/v1${path}`, method, { token, ...(body === undefined ? {} : { body }) });
  const wsPath = () => `/orgs/${ws.org}/workspaces/${ws.ws}`;

  /** A second database (or schema) of the vendor holding one table `gadgets`. */
  async function otherDatabase(): Promise<ProvisionedDatabase> {
    const db = await target.provision(ws.service, false);
    extra.push(db);
    await db.query(`CREATE TABLE ${db.table('gadgets')} (id integer PRIMARY KEY, label varchar(40))`);
    await db.query(`INSERT INTO ${db.table('gadgets')} (id, label) VALUES (1, 'lever')`);
    return db;
  }

  /** The `database` payload with a schema (PostgreSQL) or database (MySQL) that does not exist. */
  function missingSchema(): Record<string, unknown> {
    return { ...ws.db.database, schema: uniqueName('missing') };
  }

  beforeAll(async () => {
    ws = await startWorkspace(target);
  });
  afterAll(async () => {
    for (const db of extra) await db.drop().catch(() => undefined);
    await ws?.close();
  });

  it('GET /orgs lists organizations for the instance admin only', async () => {
    const res = await admin('GET', '/orgs');
    expect(res.status).toBe(200);
    expect(res.body.meta.totalElements).toBe(res.body.data.length);
    expect(res.body.data).toEqual(expect.arrayContaining([expect.objectContaining({ slug: ws.org, name: ws.org, id: expect.any(String) })]));
    expectError(await admin('GET', '/orgs', undefined, ws.apiKey), 403, 'FORBIDDEN');
    expectError(await admin('GET', '/orgs', undefined, null), 401, 'UNAUTHORIZED');
    expectError(await admin('GET', '/orgs', undefined, 'wda_wrong-token-0123456789abcdef'), 401, 'UNAUTHORIZED');
  });

  it('GET /orgs/{org} reads one organization; an unknown one is 404', async () => {
    const res = await admin('GET', `/orgs/${ws.org}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ slug: ws.org, name: ws.org });
    expectError(await admin('GET', '/orgs/no-such-org'), 404, 'NOT_FOUND');
    expectError(await admin('GET', `/orgs/${ws.org}`, undefined, ws.apiKey), 403, 'FORBIDDEN');
  });

  it('GET /orgs/{org}/workspaces lists its workspaces without credentials; admin only', async () => {
    const res = await admin('GET', `/orgs/${ws.org}/workspaces`);
    expect(res.status).toBe(200);
    expect(res.body.meta).toEqual({ totalElements: 1 });
    expect(res.body.data[0]).toMatchObject({ org: ws.org, slug: ws.ws, name: ws.ws, database: { vendor: ws.db.database.vendor } });
    expect(res.body.data[0]).not.toHaveProperty('introspection');
    expectError(await admin('GET', '/orgs/no-such-org/workspaces'), 404, 'NOT_FOUND');
    expectError(await admin('GET', `/orgs/${ws.org}/workspaces`, undefined, ws.apiKey), 403, 'FORBIDDEN');
    expectError(await admin('GET', `/orgs/${ws.org}/workspaces`, undefined, null), 401, 'UNAUTHORIZED');
  });

  it('GET …/workspaces/{ws} reads the record for the admin and for the workspace owner', async () => {
    const res = await admin('GET', wsPath());
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: expect.any(String), org: ws.org, slug: ws.ws, name: ws.ws, schemaHash: expect.any(String) });
    expect(res.body.data.database.vendor).toBe(ws.db.database.vendor);
    expect((await admin('GET', wsPath(), undefined, ws.apiKey)).status).toBe(200);
    expectError(await admin('GET', `/orgs/${ws.org}/workspaces/no-such-ws`), 404, 'NOT_FOUND');
    expectError(await admin('GET', `/orgs/no-such-org/workspaces/${ws.ws}`), 404, 'NOT_FOUND');
    expectError(await admin('GET', wsPath(), undefined, null), 401, 'UNAUTHORIZED');
  });

  it('creating with a schema that does not exist is 400 naming database.schema, and the slug stays free', async () => {
    const refused = await admin('POST', `/orgs/${ws.org}/workspaces`, { slug: 'typo', name: 'Typo', database: missingSchema() });
    expectError(refused, 400, 'VALIDATION_FAILED', 'database.schema');
    expect((await admin('GET', `/orgs/${ws.org}/workspaces/typo`)).status).toBe(404);
    const db = await otherDatabase();
    const created = await admin('POST', `/orgs/${ws.org}/workspaces`, { slug: 'typo', name: 'Typo', database: db.database });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.data.drift.addedTables).toEqual(['gadgets']);
    expect((await admin('DELETE', `/orgs/${ws.org}/workspaces/typo`)).status).toBe(204);
  });

  it('PATCH changes the name; an API key may not PATCH; bad payloads and unknown workspaces', async () => {
    const res = await admin('PATCH', wsPath(), { name: 'Shop Renamed' });
    expect(res.status).toBe(200);
    expect(res.body.data.name).toBe('Shop Renamed');
    expect((await admin('GET', wsPath())).body.data.name).toBe('Shop Renamed');
    expectError(await admin('PATCH', wsPath(), { name: 'Owner Rename' }, ws.apiKey), 403, 'FORBIDDEN');
    expectError(await admin('PATCH', wsPath(), { slug: 'other' }), 400, 'VALIDATION_FAILED', 'slug');
    expectError(await admin('PATCH', wsPath(), { name: 42 }), 400, 'VALIDATION_FAILED', 'name');
    expectError(await admin('PATCH', `/orgs/${ws.org}/workspaces/no-such-ws`, { name: 'x' }), 404, 'NOT_FOUND');
  });

  it('a PATCH to a schema that does not exist is 400 naming database.schema and changes nothing', async () => {
    const before = (await admin('GET', wsPath())).body.data;
    expectError(await admin('PATCH', wsPath(), { database: { schema: uniqueName('missing') } }), 400, 'VALIDATION_FAILED', 'database.schema');
    expect((await admin('GET', wsPath())).body.data).toEqual(before);
    expect((await ws.call('GET', ws.records('/customers?size=1'))).status).toBe(200);
  });

  // The embedded vendor has no URL.
  it.skipIf(target.name === 'pglite')('a PATCH to a database that cannot be reached is 400 naming database.url, without the driver text', async () => {
    const res = await admin('PATCH', wsPath(), { database: { url: ws.db.database.vendor === 'mysql' ? 'mysql://root@127.0.0.1:1/x' : 'postgres://postgres@127.0.0.1:1/x' } });
    expectError(res, 400, 'VALIDATION_FAILED', 'database.url');
    expect(res.body.error.message).toContain('could not connect');
    expect(JSON.stringify(res.body)).not.toMatch(/ECONNREFUSED|127\.0\.0\.1:1/);
    expect((await ws.call('GET', ws.records('/customers?size=1'))).status).toBe(200);
  });

  // Only the PostgreSQL server here accepts any password (trust), so a URL can carry one and still work.
  it.runIf(target.name === 'postgres')('the database URL is shown with its password masked; sending it back keeps the password', async () => {
    const url = String(ws.db.database.url).replace('postgres@', 'postgres:Sekrit-Pw@');
    const patched = await admin('PATCH', wsPath(), { database: { url } });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    const read = await admin('GET', wsPath());
    expect(read.body.data.database.url).toBe(url.replace('Sekrit-Pw', '***'));
    for (const res of [patched, read, await admin('GET', `/orgs/${ws.org}/workspaces`)]) expect(JSON.stringify(res.body)).not.toContain('Sekrit-Pw');
    expect((await admin('PATCH', wsPath(), { database: read.body.data.database })).status).toBe(200);
    expect((await ws.service.services.store.findWorkspace(ws.org, ws.ws))?.database.url).toBe(url);
  });

  it('a PATCH to another database re-syncs the workspace from it', async () => {
    const db = await otherDatabase();
    const res = await admin('PATCH', wsPath(), { database: db.database });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await ws.call('GET', ws.records('/gadgets/1'))).body.data).toMatchObject({ id: 1, label: 'lever' });
    expect((await ws.call('GET', ws.records('/customers'))).status).toBe(404);
    expect((await admin('PATCH', wsPath(), { database: ws.db.database })).status).toBe(200);
    expect((await ws.call('GET', ws.records('/customers?size=1'))).status).toBe(200);
  });

  it('DELETE is admin only, answers 204, and removes everything the control store held for it', async () => {
    const db = await otherDatabase();
    const path = `/orgs/${ws.org}/workspaces/doomed`;
    const created = await admin('POST', `/orgs/${ws.org}/workspaces`, { slug: 'doomed', name: 'Doomed', database: db.database });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.data.id;
    const key = (await admin('POST', `${path}/api-keys`, { name: 'k' })).body.data.key;
    const records = `/api/v1/${ws.org}/doomed/gadgets/1`;
    expect((await fetchJson(`${ws.url}${records}`, 'GET', { token: key })).status).toBe(200);
    // The key of one workspace cannot read another's record.
    expectError(await admin('GET', wsPath(), undefined, key), 403, 'FORBIDDEN');
    expectError(await admin('DELETE', path, undefined, key), 403, 'FORBIDDEN');
    expectError(await admin('DELETE', path, undefined, ws.apiKey), 403, 'FORBIDDEN');

    expect((await admin('DELETE', path)).status).toBe(204);
    expectError(await admin('GET', path), 404, 'NOT_FOUND');
    // The path names a workspace that is gone: the admin is told (404); its key is gone with it, so
    // it is unknown there and everywhere else (401, not 403 and not 404: docs/security.md).
    expectError(await fetchJson(`${ws.url}${records}`, 'GET', { token: ADMIN_TOKEN }), 404, 'NOT_FOUND');
    expectError(await fetchJson(`${ws.url}${records}`, 'GET', { token: key }), 401, 'UNAUTHORIZED');
    expectError(await ws.call('GET', ws.records('/customers?size=1'), { token: key }), 401, 'UNAUTHORIZED');
    expectError(await admin('DELETE', path), 404, 'NOT_FOUND');
    const control = ws.service.services.store.executor;
    for (const table of ['entities', 'views', 'api_keys', 'import_jobs']) {
      const rows = (await control.query({ text: `SELECT count(*)::int AS n FROM wdapi_control.${table} WHERE workspace_id = $1`, params: [id] })).rows;
      expect(rows[0]?.n, table).toBe(0);
    }
    // The slug is free again.
    expect((await admin('POST', `/orgs/${ws.org}/workspaces`, { slug: 'doomed', name: 'Again', database: db.database })).status).toBe(201);
    expect((await admin('DELETE', path)).status).toBe(204);
  });
});

describe('workspace database payloads that cannot work', () => {
  let ws: TestWorkspace;
  const create = (database: unknown) =>
    fetchJson(`${ws.url}/api/admin/v1/orgs/${ws.org}/workspaces`, 'POST', { token: ADMIN_TOKEN, body: { slug: 'bad', name: 'Bad', database } });

  beforeAll(async () => {
    const [pglite] = await vendorsToRun();
    if (!pglite) throw new Error('PGlite always runs');
    ws = await startWorkspace(pglite, { fixture: false });
  });
  afterAll(async () => ws?.close());

  it.each([
    ['postgres', 'not a url'],
    ['postgres', 'postgres://[broken'],
    ['postgres', 'mysql://root@127.0.0.1:3306/test'],
    ['mysql', 'http://x y'],
    ['mssql', 'just words'],
  ])('a %s url %j that does not parse is 400 naming database.url', async (vendor, url) => {
    expectError(await create({ vendor, url }), 400, 'VALIDATION_FAILED', 'database.url');
    expect((await fetchJson(`${ws.url}/api/admin/v1/orgs/${ws.org}/workspaces/bad`, 'GET', { token: ADMIN_TOKEN })).status).toBe(404);
  });

  it.each(['postgres', 'mysql', 'mssql'])('a %s workspace without a url is 400 naming database.url (only the embedded vendor needs none)', async (vendor) => {
    expectError(await create({ vendor }), 400, 'VALIDATION_FAILED', 'database.url');
  });

  it('an unreachable host is 400 naming database.url with "could not connect", never the driver text', async () => {
    const res = await create({ vendor: 'postgres', url: 'postgres://postgres:sekrit@127.0.0.1:1/x' });
    expectError(res, 400, 'VALIDATION_FAILED', 'database.url');
    expect(res.body.error.message).toContain('could not connect');
    expect(JSON.stringify(res.body)).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|sekrit/);
  });
});
