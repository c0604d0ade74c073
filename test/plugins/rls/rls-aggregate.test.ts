/**
 * Row-level security under aggregates (DESIGN §14: "RLS applies before grouping"): an external
 * user's aggregate counts and sums only the rows the list would show them, and a value read
 * through a related row they may not see groups as NULL, on the record and view data endpoints.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiResponse } from '../../support/harness.ts';
import { query } from '../../support/http-expect.ts';
import { vendorsToRun } from '../../support/vendors.ts';
import { addRule } from '../../support/auth.ts';
import { startRlsWorkspace, type ProjectRow, type RlsContext, type TaskRow } from './rls-fixture.ts';

const vendors = await vendorsToRun();

const PROJECTS: ProjectRow[] = [
  { id: 1, org_id: 1, name: 'Apollo' },
  { id: 2, org_id: 2, name: 'Borealis' },
  { id: 3, org_id: 1, name: 'Cygnus' },
];

const TASKS: TaskRow[] = [
  { id: 1, project_id: 1, owner: 'alice', title: 'a1' },
  { id: 2, project_id: 2, owner: 'alice', title: 'a2' },
  { id: 3, project_id: 3, owner: 'alice', title: 'a3' },
  { id: 4, project_id: null, owner: 'alice', title: 'a4' },
  { id: 5, project_id: 2, owner: 'bob', title: 'b1' },
  { id: 6, project_id: 1, owner: 'bob', title: 'b2' },
  { id: 7, project_id: 3, owner: 'carol', title: 'c1' },
];

describe.each(vendors)('row-level security under aggregates on $name', (target) => {
  let c: RlsContext;
  let alice: string;
  let dave: string;

  beforeAll(async () => {
    c = await startRlsWorkspace(target, '/rls-aggregate');
    await c.load(PROJECTS, TASKS);
    alice = await c.token({ sub: 'alice', org: { id: 1 } });
    dave = await c.token({ sub: 'dave', org: { id: 1 } });
    await addRule(c.ws, c.views.tasks?.uuid ?? '', { column: 'owner', claim: 'sub' });
    await addRule(c.ws, c.views.projects?.uuid ?? '', { column: 'orgId', claim: 'org.id' });
  });
  afterAll(async () => c?.close());

  const aggregate = async (params: [string, string][], token?: string): Promise<ApiResponse> => {
    const res = await c.ws.call('GET', c.ws.records(`/tasks/aggregate${query(params)}`), token === undefined ? {} : { token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res;
  };

  it('counts only the rows the user may see; the owner (API key) counts every row', async () => {
    expect((await aggregate([['metrics', 'count,countDistinct:owner,max:id']], alice)).body.data).toEqual([{ group: {}, count: 4, countDistinct: { owner: 1 }, max: { id: 4 } }]);
    expect((await aggregate([['groupBy', 'owner']], alice)).body).toEqual({ data: [{ group: { owner: 'alice' }, count: 4 }], meta: { page: 0, size: 20, totalElements: 1 } });
    expect((await aggregate([['groupBy', 'owner']])).body.data).toEqual([{ group: { owner: 'alice' }, count: 4 }, { group: { owner: 'bob' }, count: 2 }, { group: { owner: 'carol' }, count: 1 }]);
  });

  it('a user who may see no row gets one empty row without groupBy, and no group with it', async () => {
    expect((await aggregate([['metrics', 'count,sum:id']], dave)).body.data).toEqual([{ group: {}, count: 0, sum: { id: null } }]);
    expect((await aggregate([['groupBy', 'owner']], dave)).body).toEqual({ data: [], meta: { page: 0, size: 20, totalElements: 0 } });
  });

  it('a value read through a hidden related row groups as NULL', async () => {
    const res = await aggregate([['groupBy', 'project.name'], ['metrics', 'count']], alice);
    expect(res.body.data).toEqual([{ group: { 'project.name': 'Apollo' }, count: 1 }, { group: { 'project.name': 'Cygnus' }, count: 1 }, { group: { 'project.name': null }, count: 2 }]);
  });

  it('applies on the view data aggregate too', async () => {
    const res = await c.ws.call('GET', `/api/data/${c.views.tasks?.slug}/aggregate${query([['groupBy', 'owner'], ['metrics', 'count']])}`, { token: alice });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toEqual([{ group: { owner: 'alice' }, count: 4 }]);
  });
});
