/**
 * The workspace's import jobs (Import screen): `GET /api/imports?org=…&ws=…` lists them
 * newest first with state, counts, who started them and the view; `state` narrows (an interrupted
 * job is found as INTERRUPTED); owners see every job, an external user only its own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, startWorkspace, type TestWorkspace } from '../support/harness.ts';
import { vendorsToRun } from '../support/vendors.ts';
import { nowSeconds, TestIdp } from '../support/test-idp.ts';
import { doneOf, importFile, interruptedImport, viewUuidOf } from '../support/import-calls.ts';

const vendors = await vendorsToRun();

function customerRows(prefix: string, from: number, to: number): string {
  let out = '';
  for (let i = from; i <= to; i++) out += `${prefix} ${i},${prefix}-${i}@example.com\n`;
  return out;
}

describe.each(vendors)('import job list on $name', (target) => {
  let ws: TestWorkspace;
  let idp: TestIdp;
  let issuer: string;
  let customers: string;
  const list = (query: string, token?: string) => ws.call('GET', `/api/imports?org=${ws.org}&ws=${ws.ws}${query}`, token ? { token } : {});

  beforeAll(async () => {
    [ws, idp] = await Promise.all([startWorkspace(target), TestIdp.start()]);
    issuer = idp.registerIssuer('/jobs');
    customers = await viewUuidOf(ws, 'customers');
    const saved = await ws.call('PUT', ws.admin('/identity-provider'), { token: ADMIN_TOKEN, body: { issuerUrl: issuer, jwksUri: idp.jwksUri('/jobs'), defaultPermissions: 'READ_WRITE', enabled: true } });
    expect(saved.status).toBe(200);
  });
  afterAll(async () => {
    await ws?.close();
    await idp?.close();
  });

  it('is an empty list before any import', async () => {
    const res = await list('');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: [], meta: { totalElements: 0, size: 50 } });
  });

  it('lists jobs newest first with state, counts, creator, view and times; an interrupted one as INTERRUPTED', async () => {
    const done = await importFile(ws, customers, `name,email\n${customerRows('Listed', 1, 3)}`);
    const doneId = doneOf(done).jobId;
    const cut = await interruptedImport(ws, customers, `name,email\n${customerRows('Cut', 1, 500)}`, customerRows('Cut', 501, 520));
    const res = await list('');
    expect(res.status).toBe(200);
    expect(res.body.data.map((j: { jobId: string }) => j.jobId)).toEqual([cut, doneId]);
    const keyId = ws.apiKey.split('_')[1];
    expect(res.body.data[0]).toEqual({
      jobId: cut, viewUuid: customers, entity: 'customers', viewName: expect.any(String), state: 'INTERRUPTED', createdBy: keyId,
      createdAt: expect.stringMatching(/Z$/), finishedAt: expect.stringMatching(/Z$/),
      totalCount: 500, successCount: 500, failureCount: 0, skippedCount: 0, batchesDone: 1, error: expect.anything(),
    });
    expect(res.body.data[1]).toMatchObject({ jobId: doneId, state: 'DONE', totalCount: 3, successCount: 3, error: null });
  });

  it('state narrows the list, size limits it, and every bad parameter is 400', async () => {
    expect((await list('&state=INTERRUPTED')).body.data.map((j: { state: string }) => j.state)).toEqual(['INTERRUPTED']);
    expect((await list('&state=done,failed')).body.data.map((j: { state: string }) => j.state)).toEqual(['DONE']);
    expect((await list('&size=1')).body).toMatchObject({ data: [{ state: 'INTERRUPTED' }], meta: { totalElements: 1, size: 1 } });
    for (const bad of ['&state=LOST', '&size=0', '&size=201', '&size=x', '&page=1']) {
      const res = await list(bad);
      expect(res.status, bad).toBe(400);
      expect(res.body.error.code, bad).toBe('BAD_REQUEST');
    }
    const noOrg = await ws.call('GET', `/api/imports?ws=${ws.ws}`);
    expect(noOrg.status).toBe(400);
    expect(noOrg.body.error.message).toContain("'org' is required");
    expect((await ws.call('GET', `/api/imports?org=${ws.org}&ws=elsewhere`, { token: ADMIN_TOKEN })).status).toBe(404);
    expect((await ws.call('GET', `/api/imports?org=${ws.org}&ws=${ws.ws}`, { token: null })).status).toBe(401);
  });

  it('an external user sees only the jobs it started; the admin token and API keys see all', async () => {
    const token = await idp.sign({ iss: issuer, sub: 'importer-1', exp: nowSeconds() + 600 });
    const own = doneOf(await importFile(ws, customers, `name,email\n${customerRows('Theirs', 1, 2)}`, { token }));
    const theirs = await list('', token);
    expect(theirs.status).toBe(200);
    expect(theirs.body.data.map((j: { jobId: string; createdBy: string }) => [j.jobId, j.createdBy])).toEqual([[own.jobId, 'importer-1']]);
    const all = await list('', ADMIN_TOKEN);
    expect(all.body.data).toHaveLength(3);
    expect(all.body.data[0].jobId).toBe(own.jobId);
  });
});
