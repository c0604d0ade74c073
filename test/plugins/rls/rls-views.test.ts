/**
 * RLS rules protect the entity, not one view (DESIGN §10): every view of an
 * entity applies the rules of the entity's default view, and may add rules of its own but never
 * drop the entity's. A second view created without rules must not open the table to an external
 * user through the view data query, expansion, bulk upsert or CSV import.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN } from '../../support/harness.ts';
import { expectList } from '../../support/http-expect.ts';
import { vendorsToRun } from '../../support/vendors.ts';
import { doneOf, importFile, reportOf } from '../../support/import-calls.ts';
import { addRule } from '../../support/auth.ts';
import { startRlsWorkspace, type ProjectRow, type RlsContext, type TaskRow } from './rls-fixture.ts';

const vendors = await vendorsToRun();

const PROJECTS: ProjectRow[] = [
  { id: 1, org_id: 1, name: 'Apollo' },
  { id: 2, org_id: 2, name: 'Borealis' },
];

const TASKS: TaskRow[] = [
  { id: 1, project_id: 1, owner: 'alice', title: 'a1' },
  { id: 2, project_id: 2, owner: 'alice', title: 'a2' },
  { id: 3, project_id: 2, owner: 'bob', title: 'b1' },
  { id: 4, project_id: 1, owner: 'bob', title: 'b2' },
];

interface ViewRef {
  uuid: string;
  slug: string;
}

describe.each(vendors)('RLS rules of the entity apply to every view on $name', (target) => {
  let c: RlsContext;
  let alice: string;
  /** Views created after the rules, without rules of their own. */
  let openTasks: ViewRef;
  let openProjects: ViewRef;

  const taskRows = async (): Promise<TaskRow[]> =>
    (await c.ws.db.query(`SELECT id, project_id, owner, title FROM ${c.tasks} ORDER BY id`)).map((r) => ({
      id: Number(r.id),
      project_id: r.project_id === null ? null : Number(r.project_id),
      owner: String(r.owner),
      title: r.title === null ? null : String(r.title),
    }));
  const viewData = (view: ViewRef, query: string, token = alice) => c.ws.call('GET', `/api/data/${view.slug}${query}`, { token });

  async function createView(entity: string, name: string): Promise<ViewRef> {
    const res = await c.ws.call('POST', c.ws.admin('/views'), { token: ADMIN_TOKEN, body: { entity, name, slug: `${name}-${target.name}` } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.data as ViewRef;
  }

  beforeAll(async () => {
    c = await startRlsWorkspace(target, '/rls-views');
    alice = await c.token({ sub: 'alice', org: { id: 1 } });
    await addRule(c.ws, c.views.tasks?.uuid ?? '', { column: 'owner', claim: 'sub' });
    await addRule(c.ws, c.views.projects?.uuid ?? '', { column: 'orgId', claim: 'org.id' });
    openTasks = await createView('tasks', 'open-tasks');
    openProjects = await createView('projects', 'open-projects');
  });
  afterAll(async () => c?.close());
  beforeEach(async () => c.load(PROJECTS, TASKS));

  it('the view data query of a view without rules shows only the user\'s rows (list, count, by id, filters)', async () => {
    const list = await viewData(openTasks, '?sort=id&size=100');
    expect(expectList(list).map((r) => r.id)).toEqual([1, 2]);
    expect(list.body.meta.totalElements).toBe(2);
    expect(expectList(await viewData(openTasks, '?filter[id.eq]=3'))).toEqual([]);
    expect(expectList(await viewData(openTasks, '?filter[owner.eq]=bob'))).toEqual([]);
    expect(expectList(await viewData(openProjects, '?sort=id')).map((r) => r.id)).toEqual([1]);
    // Owners still see the whole view.
    expect((await c.ws.call('GET', `/api/data/${openTasks.slug}`)).body.meta.totalElements).toBe(TASKS.length);
  });

  it('expansion through a view without rules hides related rows of other orgs', async () => {
    const res = await viewData(openTasks, '?expand=project&sort=id');
    expect(expectList(res).map((r) => [r.id, (r.project as { id: number } | null)?.id ?? null])).toEqual([
      [1, 1],
      [2, null],
    ]);
    const hidden = await viewData(openTasks, '?filter[project.name.eq]=Borealis');
    expect(expectList(hidden)).toEqual([]);
  });

  it('bulk upsert through a view without rules cannot write or touch other users\' rows', async () => {
    const res = await c.ws.call('POST', `/api/data/bulk/${openTasks.uuid}/insert`, {
      token: alice,
      body: {
        onConflict: 'UPDATE',
        rows: [
          { id: 3, title: 'hijacked', owner: 'alice' },
          { id: 4, title: 'stolen', owner: 'bob' },
          { id: 1, title: 'a1 edited' },
          { title: 'new for bob', owner: 'bob' },
          { title: 'new, owner from the claim' },
        ],
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data).toMatchObject({ totalCount: 5, successCount: 2, failureCount: 3 });
    expect((res.body.data.errors as { row: number; code: string }[]).map((e) => [e.row, e.code]).sort()).toEqual([
      [0, 'FORBIDDEN'],
      [1, 'FORBIDDEN'],
      [3, 'FORBIDDEN'],
    ]);
    const rows = await taskRows();
    expect(rows.filter((r) => r.owner === 'bob')).toEqual([
      { id: 3, project_id: 2, owner: 'bob', title: 'b1' },
      { id: 4, project_id: 1, owner: 'bob', title: 'b2' },
    ]);
    expect(rows.filter((r) => r.owner === 'alice').map((r) => r.title).sort()).toEqual(['a1 edited', 'a2', 'new, owner from the claim']);
  });

  it('CSV import through a view without rules sets the owner from the claim and cannot update other users\' rows', async () => {
    const insert = doneOf(await importFile(c.ws, openTasks.uuid, 'title,owner\nmine,\nfor bob,bob\n', { token: alice }));
    expect(insert).toMatchObject({ totalCount: 2, successCount: 1, failureCount: 1 });
    expect((await reportOf(c.ws, insert.jobId)).rows).toEqual([{ row: 2, line: 3, code: 'FORBIDDEN', message: expect.any(String) }]);
    const update = doneOf(await importFile(c.ws, openTasks.uuid, 'id,title\n3,hijacked\n2,a2 edited\n', { token: alice, query: { method: 'UPDATE' } }));
    expect(update).toMatchObject({ successCount: 1, failureCount: 1 });
    const rows = await taskRows();
    expect(rows.filter((r) => r.owner === 'bob').map((r) => r.title)).toEqual(['b1', 'b2']);
    expect(rows.filter((r) => r.owner === 'alice').map((r) => r.title)).toEqual(['a1', 'a2 edited', 'mine']);
  });

  it('a view with a rule of its own applies both its rule and the entity\'s', async () => {
    const byProject = await createView('tasks', 'by-project');
    await addRule(c.ws, byProject.uuid, { column: 'project_id', claim: 'project' });
    const aliceP1 = await c.token({ sub: 'alice', project: 1 });
    // alice's task 1 is in project 1; bob's task 4 is too, but the entity's owner rule still applies.
    const res = await viewData(byProject, '?sort=id', aliceP1);
    expect(expectList(res).map((r) => r.id)).toEqual([1]);
    expect(res.body.meta.totalElements).toBe(1);
    // Without the view's claim, the view's own rule matches nothing.
    expect((await viewData(byProject, '')).body.meta.totalElements).toBe(0);
    // The view's rule does not leak into the record endpoints or the other views.
    expect(expectList(await c.ws.call('GET', c.ws.records('/tasks?sort=id'), { token: alice })).map((r) => r.id)).toEqual([1, 2]);
    expect(expectList(await viewData(openTasks, '?sort=id')).map((r) => r.id)).toEqual([1, 2]);
  });
});
