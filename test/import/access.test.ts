/**
 * Who may import and what they see (spec "CSV import" rule 8, "Authentication" rules 5 and 7;
 * DESIGN §12): saved mappings and their visibility, READ_ONLY external users, RLS applied to
 * every imported row, jobs visible to their creator.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, startWorkspace, type TestWorkspace } from '../support/harness.ts';
import { vendorsToRun } from '../support/vendors.ts';
import { nowSeconds, TestIdp } from '../support/test-idp.ts';
import { count, doneOf, importFile, reportOf, serialId, sync, viewUuidOf } from '../support/import-calls.ts';

const vendors = await vendorsToRun();

describe.each(vendors)('import access and saved mappings on $name', (target) => {
  let ws: TestWorkspace;
  let idp: TestIdp;
  let issuer: string;
  let customers: string;
  let notes: string;
  let otherKey: string;
  const mappings = (view: string) => `/api/views/${view}/import-mappings`;
  const external = (sub: string) => idp.sign({ iss: issuer, sub, exp: nowSeconds() + 600 });
  const permissions = (defaultPermissions: 'READ_ONLY' | 'READ_WRITE') =>
    ws.call('PUT', ws.admin('/identity-provider'), { token: ADMIN_TOKEN, body: { issuerUrl: issuer, jwksUri: idp.jwksUri('/imp'), defaultPermissions, enabled: true } });

  beforeAll(async () => {
    [ws, idp] = await Promise.all([startWorkspace(target), TestIdp.start()]);
    issuer = idp.registerIssuer('/imp');
    await ws.db.query(`CREATE TABLE ${ws.db.table('notes')} (${serialId(ws)}, owner varchar(40), body text NOT NULL)`);
    await ws.db.query(`INSERT INTO ${ws.db.table('notes')} (owner, body) VALUES ('alice', 'a1'), ('bob', 'b1')`);
    await sync(ws);
    customers = await viewUuidOf(ws, 'customers');
    notes = await viewUuidOf(ws, 'notes');
    otherKey = (await ws.call('POST', ws.admin('/api-keys'), { token: ADMIN_TOKEN, body: { name: 'other' } })).body.data.key;
    const rule = await ws.call('POST', `/api/views/${notes}/rls-rules`, { token: ADMIN_TOKEN, body: { column: 'owner', claim: 'sub' } });
    expect(rule.status).toBe(201);
  });
  afterAll(async () => {
    await ws?.close();
    await idp?.close();
  });

  it('saves mappings; PRIVATE ones are seen by their creator only, SHARED ones by everyone', async () => {
    const own = await ws.call('POST', mappings(customers), { body: { name: 'mine', visibility: 'PRIVATE', mapping: { 'Full name': 'name', Mail: 'email' } } });
    expect(own.status, JSON.stringify(own.body)).toBe(201);
    expect(own.body.data).toEqual({ id: expect.any(String), viewUuid: customers, name: 'mine', visibility: 'PRIVATE', mapping: { 'Full name': 'name', Mail: 'email' }, header: true, method: 'INSERT', createdBy: expect.any(String) });
    const shared = await ws.call('POST', mappings(customers), { body: { name: 'team', visibility: 'SHARED', mapping: { 1: 'name', 2: 'email' }, header: false } });
    expect(shared.status).toBe(201);
    const mine = await ws.call('GET', mappings(customers));
    expect(mine.body.data.map((m: { name: string }) => m.name)).toEqual(['mine', 'team']);
    expect(mine.body.meta).toEqual({ totalElements: 2 });
    const theirs = await ws.call('GET', mappings(customers), { token: otherKey });
    expect(theirs.body.data.map((m: { name: string }) => m.name)).toEqual(['team']);
    expect((await ws.call('DELETE', `${mappings(customers)}/${own.body.data.id}`, { token: otherKey })).status).toBe(404);

    const used = await importFile(ws, customers, 'Full name,Mail\nSaved,saved@example.com\n', { query: { mapping: own.body.data.id } });
    expect(used.events[0].mapping).toEqual({ 'Full name': 'name', Mail: 'email' });
    expect(doneOf(used)).toMatchObject({ successCount: 1 });
    const positional = await importFile(ws, customers, 'Team,team@example.com\n', { query: { mapping: shared.body.data.id }, token: otherKey });
    expect(doneOf(positional)).toMatchObject({ successCount: 1 });
    expect((await importFile(ws, customers, 'a\nb\n', { query: { mapping: own.body.data.id }, token: otherKey })).status).toBe(404);

    expect((await ws.call('DELETE', `${mappings(customers)}/${own.body.data.id}`)).status).toBe(204);
    expect((await ws.call('GET', mappings(customers))).body.data.map((m: { name: string }) => m.name)).toEqual(['team']);
  });

  it('refuses mappings with unknown or read-only targets and bad visibility', async () => {
    const bad = await ws.call('POST', mappings(customers), { body: { name: 'x', visibility: 'PUBLIC', mapping: { a: 'createdAt', b: 'nope' } } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('VALIDATION_FAILED');
    expect(bad.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual(['mapping', 'mapping.a', 'mapping.b', 'visibility']);
  });

  it('an external READ_ONLY user gets 403; writes need write access', async () => {
    await permissions('READ_ONLY');
    const res = await importFile(ws, notes, 'body\nx\n', { token: await external('alice') });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('FORBIDDEN');
    expect((await ws.call('POST', mappings(notes), { token: await external('alice'), body: { name: 'n', mapping: { body: 'body' } } })).status).toBe(403);
  });

  it('RLS applies to every row: the rule column comes from the claim, other owners are refused, UPDATE sees own rows only', async () => {
    await permissions('READ_WRITE');
    const alice = await external('alice');
    const done = doneOf(await importFile(ws, notes, 'body,owner\nmine 1,\nstolen,bob\nmine 2,alice\n', { token: alice }));
    expect(done).toMatchObject({ totalCount: 3, successCount: 2, failureCount: 1 });
    const report = (await ws.call('GET', `/api/imports/${done.jobId}/report`, { token: alice })).body.data;
    expect(report.rows).toEqual([{ row: 2, line: 3, code: 'FORBIDDEN', message: expect.any(String) }]);
    expect(await count(ws, 'notes', "owner = 'alice'")).toBe(3);
    expect(await count(ws, 'notes', "owner = 'bob'")).toBe(1);

    const ids = await ws.db.query(`SELECT id, owner FROM ${ws.db.table('notes')} WHERE body IN ('a1', 'b1') ORDER BY body`);
    const update = doneOf(await importFile(ws, notes, `id,body\n${ids[0]?.id},a1 changed\n${ids[1]?.id},b1 changed\n`, { token: alice, query: { method: 'UPDATE' } }));
    expect(update).toMatchObject({ successCount: 1, failureCount: 1 });
    expect(await count(ws, 'notes', "body = 'b1'")).toBe(1);

    // Jobs are private to their external creator; owners see every job of the workspace.
    expect((await ws.call('GET', `/api/imports/${done.jobId}`, { token: await external('bob') })).status).toBe(404);
    expect((await ws.call('GET', `/api/imports/${done.jobId}`)).status).toBe(200);
    expect((await reportOf(ws, done.jobId)).rows).toHaveLength(1);
  });
});
