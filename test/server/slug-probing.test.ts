/**
 * Unknown and forbidden look alike (docs/security.md): a caller whose credential is not valid for
 * a workspace gets the same answer whether or not what the path names exists, for organizations,
 * workspaces, entities, views and import jobs. Only a credential entitled to see it (the
 * instance admin; an owner inside its own workspace) learns that something does not exist.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, type TestWorkspace, startWorkspace } from '../support/harness.ts';
import { pgliteTarget } from '../support/vendors.ts';
import { defaultViews, secondWorkspace } from '../support/auth.ts';
import { doneOf, importFile } from '../support/import-calls.ts';

const NO_UUID = '00000000-0000-4000-8000-000000000000';
const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** Each pair: [what exists, the same with a name that does not]; method and body are shared. */
interface Probe {
  readonly name: string;
  readonly method: string;
  readonly existing: string;
  readonly missing: string;
  readonly body?: unknown;
}

describe('unknown and forbidden look alike', () => {
  let ws: TestWorkspace;
  let otherKey: string;
  let probes: Probe[];

  beforeAll(async () => {
    ws = await startWorkspace(pgliteTarget);
    otherKey = (await secondWorkspace(ws, 'elsewhere')).apiKey;
    const views = await defaultViews(ws);
    const regions = views.regions!;
    const jobId = String(doneOf(await importFile(ws, regions.uuid, 'name\nProbed\n')).jobId);
    const { org, ws: slug } = ws;
    probes = [
      { name: 'org (data)', method: 'GET', existing: `/api/v1/${org}/${slug}/orders`, missing: `/api/v1/nosuch/${slug}/orders` },
      { name: 'org (admin)', method: 'GET', existing: `/api/admin/v1/orgs/${org}`, missing: '/api/admin/v1/orgs/nosuch' },
      { name: 'org (admin workspaces)', method: 'GET', existing: `/api/admin/v1/orgs/${org}/workspaces`, missing: '/api/admin/v1/orgs/nosuch/workspaces' },
      { name: 'workspace (data)', method: 'GET', existing: `/api/v1/${org}/${slug}/orders/1`, missing: `/api/v1/${org}/nosuch/orders/1` },
      { name: 'workspace (write)', method: 'POST', existing: `/api/v1/${org}/${slug}/regions`, missing: `/api/v1/${org}/nosuch/regions`, body: { name: 'x' } },
      { name: 'workspace (openapi)', method: 'GET', existing: `/api/v1/${org}/${slug}/openapi.json`, missing: `/api/v1/${org}/nosuch/openapi.json` },
      { name: 'workspace (admin record)', method: 'GET', existing: `/api/admin/v1/orgs/${org}/workspaces/${slug}`, missing: `/api/admin/v1/orgs/${org}/workspaces/nosuch` },
      { name: 'workspace (admin views)', method: 'GET', existing: `/api/admin/v1/orgs/${org}/workspaces/${slug}/views`, missing: `/api/admin/v1/orgs/${org}/workspaces/nosuch/views` },
      { name: 'workspace (api keys)', method: 'GET', existing: `/api/admin/v1/orgs/${org}/workspaces/${slug}/api-keys`, missing: `/api/admin/v1/orgs/${org}/workspaces/nosuch/api-keys` },
      { name: 'workspace (import jobs)', method: 'GET', existing: `/api/imports?org=${org}&ws=${slug}`, missing: `/api/imports?org=${org}&ws=nosuch` },
      { name: 'entity', method: 'GET', existing: `/api/v1/${org}/${slug}/orders`, missing: `/api/v1/${org}/${slug}/nosuch` },
      { name: 'entity (admin)', method: 'PATCH', existing: `/api/admin/v1/orgs/${org}/workspaces/${slug}/entities/orders`, missing: `/api/admin/v1/orgs/${org}/workspaces/${slug}/entities/nosuch`, body: {} },
      { name: 'view (data by slug)', method: 'GET', existing: `/api/data/${regions.slug}`, missing: '/api/data/nosuch-view' },
      { name: 'view (columns)', method: 'GET', existing: `/api/views/${regions.uuid}/columns`, missing: `/api/views/${NO_UUID}/columns` },
      { name: 'view (rls rules)', method: 'GET', existing: `/api/views/${regions.uuid}/rls-rules`, missing: `/api/views/${NO_UUID}/rls-rules` },
      { name: 'view (bulk)', method: 'POST', existing: `/api/data/bulk/${regions.uuid}/insert`, missing: `/api/data/bulk/${NO_UUID}/insert`, body: { rows: [{ name: 'x' }] } },
      { name: 'view (import mappings)', method: 'GET', existing: `/api/views/${regions.uuid}/import-mappings`, missing: `/api/views/${NO_UUID}/import-mappings` },
      { name: 'import job', method: 'GET', existing: `/api/imports/${jobId}`, missing: `/api/imports/${NO_UUID}` },
      { name: 'import job (report)', method: 'GET', existing: `/api/imports/${jobId}/report`, missing: `/api/imports/${NO_UUID}/report` },
    ];
  });
  afterAll(async () => ws?.close());

  const answer = async (probe: Probe, path: string, token: string | null) => {
    const res = await ws.call(probe.method, path, { token, ...(probe.body !== undefined ? { body: probe.body } : {}) });
    return { status: res.status, code: res.body?.error?.code, message: res.body?.error?.message };
  };

  it.each([
    ['no credential', () => null],
    ['a garbage bearer', () => 'abc'],
    ['an unknown API key', () => 'wdk_0123456789abcdef_aaaaaaaaaaaaaaaaaaaaaaaa'],
    ['a wrong admin token', () => 'wda_not-the-admin-token-0123456789'],
    ['a JWT-shaped string', () => 'aaa.bbb.ccc'],
    ['a foreign unsigned JWT', () => `${b64({ alg: 'none' })}.${b64({ sub: 'x', iss: 'http://evil.example', exp: 1 })}.`],
    ['a key of another workspace', () => otherKey],
  ])('%s: the same answer whether it exists or not, never 404', async (_label, token) => {
    const differ: unknown[] = [];
    for (const probe of probes) {
      const [existing, missing] = [await answer(probe, probe.existing, token()), await answer(probe, probe.missing, token())];
      if (JSON.stringify(existing) !== JSON.stringify(missing) || missing.status === 404) differ.push({ probe: probe.name, existing, missing });
    }
    expect(differ).toEqual([]);
  });

  it('the instance admin is told what does not exist (404)', async () => {
    for (const probe of probes) {
      const res = await answer(probe, probe.missing, ADMIN_TOKEN);
      expect({ probe: probe.name, status: res.status }).toEqual({ probe: probe.name, status: 404 });
    }
  });

  it("an owner is told an entity of its own workspace does not exist (404)", async () => {
    expect((await ws.call('GET', ws.records('/nosuch'))).status).toBe(404);
    expect((await ws.call('GET', ws.records('/orders'))).status).toBe(200);
  });
});
