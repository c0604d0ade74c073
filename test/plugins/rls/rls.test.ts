/**
 * Row-level security (spec "Row-level security rule", "Authentication" rules 7-8, the 403/404 rows
 * of "Errors"; DESIGN §10, §12 "RLS"), on every vendor, black-box over HTTP with tokens from a
 * real test IdP and the database checked directly.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN } from '../../support/harness.ts';
import { expectError, expectList } from '../../support/http-expect.ts';
import { vendorsToRun } from '../../support/vendors.ts';
import { addRule, deleteRule, expectForbidden } from '../../support/auth.ts';
import { startRlsWorkspace, type ProjectRow, type RlsContext, type TaskRow } from './rls-fixture.ts';

const vendors = await vendorsToRun();

const PROJECTS: ProjectRow[] = [
  { id: 1, org_id: 1, name: 'Apollo' },
  { id: 2, org_id: 2, name: 'Borealis' },
  { id: 3, org_id: 1, name: 'Cygnus' },
  { id: 4, org_id: null, name: 'Orphan' },
];

const TASKS: TaskRow[] = [
  { id: 1, project_id: 1, owner: 'alice', title: 'a1' },
  { id: 2, project_id: 2, owner: 'alice', title: 'a2' },
  { id: 3, project_id: 3, owner: 'alice', title: 'a3' },
  { id: 4, project_id: null, owner: 'alice', title: 'a4' },
  { id: 5, project_id: 2, owner: 'bob', title: 'b1' },
  { id: 6, project_id: 1, owner: 'bob', title: 'b2' },
  { id: 7, project_id: null, owner: 'bob', title: 'b3' },
  { id: 8, project_id: 3, owner: 'carol', title: 'c1' },
];

const idsOwnedBy = (owner: string) => TASKS.filter((t) => t.owner === owner).map((t) => t.id);

describe.each(vendors)('row-level security on $name', (target) => {
  let c: RlsContext;
  let alice: string;
  let bob: string;
  let dave: string;
  let taskRuleId: string;
  let projectRuleId: string;

  const tasksPath = (suffix = '') => c.ws.records(`/tasks${suffix}`);
  const projectsPath = (suffix = '') => c.ws.records(`/projects${suffix}`);
  const taskRow = async (id: number) => (await c.ws.db.query(`SELECT id, project_id, owner, title FROM ${c.tasks} WHERE id = ${c.ws.db.sql.param(1)}`, [id]))[0];
  const taskCount = async () => Number((await c.ws.db.query(`SELECT COUNT(*) AS n FROM ${c.tasks}`))[0]?.n);

  beforeAll(async () => {
    c = await startRlsWorkspace(target);
    alice = await c.token({ sub: 'alice', org: { id: 1 }, email: 'alice@example.com' });
    bob = await c.token({ sub: 'bob', org: { id: 2 } });
    dave = await c.token({ sub: 'dave' });
    taskRuleId = (await addRule(c.ws, c.views.tasks?.uuid ?? '', { column: 'owner', claim: 'sub' })).id;
    projectRuleId = (await addRule(c.ws, c.views.projects?.uuid ?? '', { column: 'orgId', claim: 'org.id' })).id;
  });
  afterAll(async () => c?.close());
  beforeEach(async () => c.load(PROJECTS, TASKS));

  describe('rules', () => {
    it('a rule named by the API field name is stored with the table column; the rule record has the documented shape', async () => {
      const res = await c.ws.call('GET', `/api/views/${c.views.projects?.uuid}/rls-rules`, { token: ADMIN_TOKEN });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ data: [{ id: projectRuleId, viewUuid: c.views.projects?.uuid, column: 'org_id', claim: 'org.id', enabled: true }], meta: { totalElements: 1 } });
      const tasks = await c.ws.call('GET', `/api/views/${c.views.tasks?.uuid}/rls-rules`, { token: ADMIN_TOKEN });
      expect(tasks.body.data).toEqual([{ id: taskRuleId, viewUuid: c.views.tasks?.uuid, column: 'owner', claim: 'sub', enabled: true }]);
    });

    it('a rule on an unknown column, or with a malformed claim path, is refused', async () => {
      const unknown = await c.ws.call('POST', `/api/views/${c.views.tasks?.uuid}/rls-rules`, { token: ADMIN_TOKEN, body: { column: 'nope', claim: 'sub' } });
      expect(unknown.status).toBe(400);
      const badClaim = await c.ws.call('POST', `/api/views/${c.views.tasks?.uuid}/rls-rules`, { token: ADMIN_TOKEN, body: { column: 'owner', claim: 'a..b' } });
      expect(badClaim.status).toBe(400);
    });
  });

  describe('list / query', () => {
    it('returns only the user\'s rows, and meta.totalElements is their count', async () => {
      const res = await c.ws.call('GET', tasksPath('?size=100&sort=id'), { token: alice });
      expect(expectList(res).map((r) => r.id)).toEqual(idsOwnedBy('alice'));
      expect(res.body.meta).toMatchObject({ totalElements: 4, totalPages: 1 });
      const b = await c.ws.call('GET', tasksPath('?size=100&sort=id'), { token: bob });
      expect(expectList(b).map((r) => r.id)).toEqual(idsOwnedBy('bob'));
      expect(b.body.meta.totalElements).toBe(3);
    });

    it('paging counts only the user\'s rows', async () => {
      const page0 = await c.ws.call('GET', tasksPath('?size=3&sort=id'), { token: alice });
      const page1 = await c.ws.call('GET', tasksPath('?size=3&page=1&sort=id'), { token: alice });
      expect([...expectList(page0), ...expectList(page1)].map((r) => r.id)).toEqual(idsOwnedBy('alice'));
      expect(page0.body.meta).toMatchObject({ totalElements: 4, totalPages: 2 });
    });

    it('filters cannot widen the scope', async () => {
      const res = await c.ws.call('GET', tasksPath('?filter[owner.eq]=bob'), { token: alice });
      expect(expectList(res)).toEqual([]);
      expect(res.body.meta.totalElements).toBe(0);
      const any = await c.ws.call('GET', tasksPath('?filter[owner.in]=alice,bob,carol&size=100'), { token: alice });
      expect(expectList(any).map((r) => r.owner)).toEqual(['alice', 'alice', 'alice', 'alice']);
    });

    it('selecting fields without the rule column, or sorting by it, does not lift the rule', async () => {
      const res = await c.ws.call('GET', tasksPath('?fields=id,title&sort=owner,desc&size=100'), { token: alice });
      expect(expectList(res).map((r) => r.id).sort()).toEqual(idsOwnedBy('alice'));
      expect(res.body.meta.totalElements).toBe(4);
    });

    it('a user with no rows gets an empty list', async () => {
      const res = await c.ws.call('GET', tasksPath(), { token: dave });
      expect(expectList(res)).toEqual([]);
      expect(res.body.meta).toMatchObject({ totalElements: 0, totalPages: 0 });
    });

    it('a nested numeric claim (org.id) filters the projects', async () => {
      const res = await c.ws.call('GET', projectsPath('?sort=id'), { token: alice });
      expect(expectList(res).map((r) => r.id)).toEqual([1, 3]);
      expect(res.body.meta.totalElements).toBe(2);
      expect(expectList(await c.ws.call('GET', projectsPath(), { token: bob })).map((r) => r.id)).toEqual([2]);
    });

    it('a numeric claim sent as a string is coerced to the column type', async () => {
      const t = await c.token({ sub: 'erin', org: { id: '1' } });
      expect(expectList(await c.ws.call('GET', projectsPath('?sort=id'), { token: t })).map((r) => r.id)).toEqual([1, 3]);
    });
  });

  describe('read by id', () => {
    it('own row 200, another user\'s row 404 NOT_FOUND (as if it did not exist)', async () => {
      const own = await c.ws.call('GET', tasksPath('/1'), { token: alice });
      expect(own.status).toBe(200);
      expect(own.body.data).toMatchObject({ id: 1, owner: 'alice', title: 'a1', projectId: 1 });
      const other = await c.ws.call('GET', tasksPath('/5'), { token: alice });
      expectError(other, 404, 'NOT_FOUND');
      const missing = await c.ws.call('GET', tasksPath('/999'), { token: alice });
      expectError(missing, 404, 'NOT_FOUND');
      expect(other.body.error.message.replace('5', 'N')).toBe(missing.body.error.message.replace('999', 'N'));
    });
  });

  describe('create', () => {
    it('sets the rule column from the claim and returns it', async () => {
      const res = await c.ws.call('POST', tasksPath(), { token: alice, body: { title: 'new one', projectId: 1 } });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(res.body.data).toMatchObject({ owner: 'alice', title: 'new one', projectId: 1 });
      expect(await taskRow(res.body.data.id)).toMatchObject({ owner: 'alice', title: 'new one' });
    });

    it('accepts the rule column when it equals the claim', async () => {
      const res = await c.ws.call('POST', tasksPath(), { token: bob, body: { title: 'explicit', owner: 'bob' } });
      expect(res.status).toBe(201);
      expect(res.body.data.owner).toBe('bob');
    });

    it('another owner is 403 FORBIDDEN and nothing is written', async () => {
      const before = await taskCount();
      expectForbidden(await c.ws.call('POST', tasksPath(), { token: alice, body: { title: 'sneaky', owner: 'bob' } }));
      expectForbidden(await c.ws.call('POST', tasksPath(), { token: alice, body: { title: 'sneaky', owner: 'Alice' } }));
      expect(await taskCount()).toBe(before);
    });

    it('a nested numeric claim sets org_id; another org is 403', async () => {
      const res = await c.ws.call('POST', projectsPath(), { token: alice, body: { name: 'Daedalus' } });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(res.body.data).toMatchObject({ orgId: 1, name: 'Daedalus' });
      const row = (await c.ws.db.query(`SELECT org_id FROM ${c.projects} WHERE id = ${c.ws.db.sql.param(1)}`, [res.body.data.id]))[0];
      expect(Number(row?.org_id)).toBe(1);
      expect((await c.ws.call('POST', projectsPath(), { token: alice, body: { name: 'Same org', orgId: 1 } })).status).toBe(201);
      expectForbidden(await c.ws.call('POST', projectsPath(), { token: alice, body: { name: 'Other org', orgId: 2 } }));
    });
  });

  describe('update', () => {
    it('own row: 200 and changed', async () => {
      const res = await c.ws.call('PUT', tasksPath('/2'), { token: alice, body: { title: 'a2 edited' } });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ id: 2, owner: 'alice', title: 'a2 edited' });
      expect(await taskRow(2)).toMatchObject({ title: 'a2 edited', owner: 'alice' });
    });

    it('another user\'s row is 404, also when the update would change the owner; the row is untouched', async () => {
      expectError(await c.ws.call('PUT', tasksPath('/5'), { token: alice, body: { title: 'hijacked' } }), 404, 'NOT_FOUND');
      expectError(await c.ws.call('PUT', tasksPath('/5'), { token: alice, body: { title: 'hijacked', owner: 'alice' } }), 404, 'NOT_FOUND');
      expectError(await c.ws.call('PUT', tasksPath('/5'), { token: alice, body: { owner: 'carol' } }), 404, 'NOT_FOUND');
      expectError(await c.ws.call('PUT', tasksPath('/5'), { token: alice, body: {} }), 404, 'NOT_FOUND');
      expect(await taskRow(5)).toEqual({ id: 5, project_id: 2, owner: 'bob', title: 'b1' });
    });

    it('own row changing the rule column to another value is 403; the row is untouched', async () => {
      expectForbidden(await c.ws.call('PUT', tasksPath('/1'), { token: alice, body: { owner: 'bob' } }));
      expectForbidden(await c.ws.call('PUT', tasksPath('/1'), { token: alice, body: { title: 'x', owner: 'bob' } }));
      expect(await taskRow(1)).toEqual({ id: 1, project_id: 1, owner: 'alice', title: 'a1' });
      const same = await c.ws.call('PUT', tasksPath('/1'), { token: alice, body: { owner: 'alice', title: 'kept owner' } });
      expect(same.status).toBe(200);
      expect(same.body.data.owner).toBe('alice');
    });

    it('a project of another org is 404; moving one\'s own project to another org is 403', async () => {
      expectError(await c.ws.call('PUT', projectsPath('/2'), { token: alice, body: { name: 'mine now' } }), 404, 'NOT_FOUND');
      expectForbidden(await c.ws.call('PUT', projectsPath('/1'), { token: alice, body: { orgId: 2 } }));
      const rows = await c.ws.db.query(`SELECT id, org_id, name FROM ${c.projects} WHERE id IN (1, 2) ORDER BY id`);
      expect(rows.map((r) => [r.id, Number(r.org_id), r.name])).toEqual([[1, 1, 'Apollo'], [2, 2, 'Borealis']]);
    });
  });

  describe('delete', () => {
    it('another user\'s row is 404 and the row is still there', async () => {
      expectError(await c.ws.call('DELETE', tasksPath('/8'), { token: alice }), 404, 'NOT_FOUND');
      expect(await taskRow(8)).toEqual({ id: 8, project_id: 3, owner: 'carol', title: 'c1' });
    });

    it('own row is 204 and gone', async () => {
      expect((await c.ws.call('DELETE', tasksPath('/4'), { token: alice })).status).toBe(204);
      expect(await taskRow(4)).toBeUndefined();
      expect(await taskCount()).toBe(TASKS.length - 1);
    });
  });

  describe('rule switches and combinations', () => {
    it('a disabled rule does not apply; enabling it applies it at once', async () => {
      const rule = await addRule(c.ws, c.views.tasks?.uuid ?? '', { column: 'title', claim: 'task_title', enabled: false });
      try {
        expect(rule.enabled).toBe(false);
        expect((await c.ws.call('GET', tasksPath(), { token: alice })).body.meta.totalElements).toBe(4);
        const on = await c.ws.call('PATCH', `/api/views/${c.views.tasks?.uuid}/rls-rules/${rule.id}`, { token: ADMIN_TOKEN, body: { enabled: true } });
        expect(on.status).toBe(200);
        // alice has no task_title claim: an enabled rule on a missing claim matches nothing.
        expect((await c.ws.call('GET', tasksPath(), { token: alice })).body.meta.totalElements).toBe(0);
        const withClaim = await c.token({ sub: 'alice', task_title: 'a3' });
        expect(expectList(await c.ws.call('GET', tasksPath(), { token: withClaim })).map((r) => r.id)).toEqual([3]);
      } finally {
        await deleteRule(c.ws, c.views.tasks?.uuid ?? '', rule.id);
      }
      expect((await c.ws.call('GET', tasksPath(), { token: alice })).body.meta.totalElements).toBe(4);
    });

    it('disabling the owner rule lets the external user see all rows (rule 8: no rules, all data)', async () => {
      const off = await c.ws.call('PATCH', `/api/views/${c.views.tasks?.uuid}/rls-rules/${taskRuleId}`, { token: ADMIN_TOKEN, body: { enabled: false } });
      expect(off.status).toBe(200);
      try {
        expect((await c.ws.call('GET', tasksPath(), { token: alice })).body.meta.totalElements).toBe(TASKS.length);
      } finally {
        await c.ws.call('PATCH', `/api/views/${c.views.tasks?.uuid}/rls-rules/${taskRuleId}`, { token: ADMIN_TOKEN, body: { enabled: true } });
      }
      expect((await c.ws.call('GET', tasksPath(), { token: alice })).body.meta.totalElements).toBe(4);
    });

    it('two rules combine with AND (list, get, create, update, delete)', async () => {
      const rule = await addRule(c.ws, c.views.tasks?.uuid ?? '', { column: 'projectId', claim: 'project' });
      try {
        expect(rule.column).toBe('project_id');
        const aliceP1 = await c.token({ sub: 'alice', project: 1 });
        const list = await c.ws.call('GET', tasksPath('?sort=id'), { token: aliceP1 });
        expect(expectList(list).map((r) => r.id)).toEqual([1]);
        expect(list.body.meta.totalElements).toBe(1);
        const bobP1 = await c.token({ sub: 'bob', project: 1 });
        expect(expectList(await c.ws.call('GET', tasksPath(), { token: bobP1 })).map((r) => r.id)).toEqual([6]);
        // alice's own task in project 2 is outside the second rule.
        expectError(await c.ws.call('GET', tasksPath('/2'), { token: aliceP1 }), 404, 'NOT_FOUND');
        expectError(await c.ws.call('PUT', tasksPath('/2'), { token: aliceP1, body: { title: 'x' } }), 404, 'NOT_FOUND');
        expectError(await c.ws.call('DELETE', tasksPath('/2'), { token: aliceP1 }), 404, 'NOT_FOUND');
        const created = await c.ws.call('POST', tasksPath(), { token: aliceP1, body: { title: 'both set' } });
        expect(created.status, JSON.stringify(created.body)).toBe(201);
        expect(created.body.data).toMatchObject({ owner: 'alice', projectId: 1 });
        expectForbidden(await c.ws.call('POST', tasksPath(), { token: aliceP1, body: { title: 'wrong project', projectId: 3 } }));
        expectForbidden(await c.ws.call('PUT', tasksPath('/1'), { token: aliceP1, body: { projectId: 3 } }));
        expect(await taskRow(2)).toMatchObject({ title: 'a2', owner: 'alice' });
      } finally {
        await deleteRule(c.ws, c.views.tasks?.uuid ?? '', rule.id);
      }
    });
  });

  describe('a missing claim', () => {
    it('list empty, get 404, create 403, update 404, delete 404', async () => {
      const list = await c.ws.call('GET', projectsPath(), { token: dave });
      expect(expectList(list)).toEqual([]);
      expect(list.body.meta.totalElements).toBe(0);
      expectError(await c.ws.call('GET', projectsPath('/1'), { token: dave }), 404, 'NOT_FOUND');
      expectError(await c.ws.call('GET', projectsPath('/4'), { token: dave }), 404, 'NOT_FOUND');
      expectForbidden(await c.ws.call('POST', projectsPath(), { token: dave, body: { name: 'no org' } }));
      expectForbidden(await c.ws.call('POST', projectsPath(), { token: dave, body: { name: 'no org', orgId: null } }));
      expectError(await c.ws.call('PUT', projectsPath('/4'), { token: dave, body: { name: 'x' } }), 404, 'NOT_FOUND');
      expectError(await c.ws.call('DELETE', projectsPath('/4'), { token: dave }), 404, 'NOT_FOUND');
      expect(Number((await c.ws.db.query(`SELECT COUNT(*) AS n FROM ${c.projects}`))[0]?.n)).toBe(PROJECTS.length);
    });

    it('a claim that cannot be the column\'s type, or an object, behaves as missing', async () => {
      for (const org of [{ id: 'one' }, { id: { nested: 1 } }, { id: [1] }, { id: null }, 'flat', 1]) {
        const t = await c.token({ sub: 'mallory', org });
        const list = await c.ws.call('GET', projectsPath(), { token: t });
        expect({ org, total: list.body.meta?.totalElements }).toEqual({ org, total: 0 });
        expectError(await c.ws.call('GET', projectsPath('/1'), { token: t }), 404, 'NOT_FOUND');
        expectForbidden(await c.ws.call('POST', projectsPath(), { token: t, body: { name: 'no org' } }));
      }
    });
  });

  describe('expansion', () => {
    it('a related row hidden by its own view\'s rule expands to null while the foreign key stays', async () => {
      const res = await c.ws.call('GET', tasksPath('?expand=project&sort=id'), { token: alice });
      const rows = expectList(res);
      expect(rows.map((r) => [r.id, r.projectId, (r.project as { id: number } | null)?.id ?? null])).toEqual([
        [1, 1, 1],
        [2, 2, null],
        [3, 3, 3],
        [4, null, null],
      ]);
      expect(res.body.meta.totalElements).toBe(4);
      const one = await c.ws.call('GET', tasksPath('/2?expand=project'), { token: alice });
      expect(one.status).toBe(200);
      expect(one.body.data).toMatchObject({ id: 2, projectId: 2, project: null });
      const visible = await c.ws.call('GET', tasksPath('/1?expand=project'), { token: alice });
      expect(visible.body.data.project).toMatchObject({ id: 1, name: 'Apollo', orgId: 1 });
    });

    it('filtering or sorting through the relationship reads a hidden related row as null (nothing leaks)', async () => {
      const hidden = await c.ws.call('GET', tasksPath('?filter[project.name.eq]=Borealis'), { token: alice });
      expect(expectList(hidden)).toEqual([]);
      expect(hidden.body.meta.totalElements).toBe(0);
      const visible = await c.ws.call('GET', tasksPath('?filter[project.name.eq]=Apollo'), { token: alice });
      expect(expectList(visible).map((r) => r.id)).toEqual([1]);
      const orgTwo = await c.ws.call('GET', tasksPath('?filter[project.orgId.eq]=2'), { token: alice });
      expect(expectList(orgTwo)).toEqual([]);
      const asNull = await c.ws.call('GET', tasksPath('?filter[project.name.isNull]=true&sort=id'), { token: alice });
      expect(expectList(asNull).map((r) => r.id)).toEqual([2, 4]);
      const sorted = await c.ws.call('GET', tasksPath('?sort=project.name,desc&sort=id'), { token: alice });
      // NULLs first descending: the hidden project (task 2) sorts with the task without project.
      expect(expectList(sorted).map((r) => r.id)).toEqual([2, 4, 3, 1]);
    });

    it('the owner sees every related row expanded', async () => {
      const res = await c.ws.call('GET', tasksPath('/2?expand=project'));
      expect(res.body.data.project).toMatchObject({ id: 2, name: 'Borealis' });
    });
  });

  describe('owner credentials bypass RLS', () => {
    it('the API key sees, reads, and changes every row', async () => {
      const res = await c.ws.call('GET', tasksPath('?size=100'));
      expect(res.body.meta.totalElements).toBe(TASKS.length);
      expect((await c.ws.call('GET', tasksPath('/8'))).status).toBe(200);
      expect((await c.ws.call('PUT', tasksPath('/8'), { body: { owner: 'zed' } })).status).toBe(200);
      const created = await c.ws.call('POST', tasksPath(), { body: { title: 'for anyone', owner: 'someone' } });
      expect(created.status).toBe(201);
      expect(created.body.data.owner).toBe('someone');
      expect((await c.ws.call('GET', projectsPath())).body.meta.totalElements).toBe(PROJECTS.length);
    });

    it('an internal OAuth token sees every row', async () => {
      const key = await c.ws.call('POST', c.ws.admin('/api-keys'), { token: ADMIN_TOKEN, body: {} });
      const grant = await fetch(`${c.ws.url}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'client_credentials', client_id: key.body.data.id, client_secret: key.body.data.key }).toString(),
      });
      const { access_token: token } = (await grant.json()) as { access_token: string };
      expect((await c.ws.call('GET', tasksPath(), { token })).body.meta.totalElements).toBe(TASKS.length);
      expect((await c.ws.call('GET', tasksPath('/5'), { token })).status).toBe(200);
    });

    it('the instance admin token sees every row', async () => {
      expect((await c.ws.call('GET', tasksPath(), { token: ADMIN_TOKEN })).body.meta.totalElements).toBe(TASKS.length);
    });
  });

  describe('view data query', () => {
    it('GET /api/data/{viewSlug} applies the entity\'s rules and those of that view', async () => {
      const viaDefault = await c.ws.call('GET', `/api/data/${c.views.tasks?.slug}?sort=id`, { token: alice });
      expect(expectList(viaDefault).map((r) => r.id)).toEqual(idsOwnedBy('alice'));
      expect(viaDefault.body.meta.totalElements).toBe(4);

      const created = await c.ws.call('POST', c.ws.admin('/views'), { token: ADMIN_TOKEN, body: { entity: 'tasks', name: 'By project', slug: `by-project-${target.name}` } });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const view = created.body.data as { uuid: string; slug: string };
      await addRule(c.ws, view.uuid, { column: 'project_id', claim: 'project' });
      const aliceP1 = await c.token({ sub: 'alice', project: 1 });
      // That view's rule (project) applies on top of the entity's (owner): bob's task 6 in project 1 stays hidden.
      const viaOther = await c.ws.call('GET', `/api/data/${view.slug}?sort=id`, { token: aliceP1 });
      expect(expectList(viaOther).map((r) => r.id)).toEqual([1]);
      expect(viaOther.body.meta.totalElements).toBe(1);
      // The record endpoints keep using the default view's rules.
      expect(expectList(await c.ws.call('GET', tasksPath('?sort=id'), { token: aliceP1 })).map((r) => r.id)).toEqual(idsOwnedBy('alice'));
      // Without the claim the other view shows nothing.
      expect((await c.ws.call('GET', `/api/data/${view.slug}`, { token: alice })).body.meta.totalElements).toBe(0);
      // Owners see the whole view.
      expect((await c.ws.call('GET', `/api/data/${view.slug}`)).body.meta.totalElements).toBe(TASKS.length);
    });
  });
});
