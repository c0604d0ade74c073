/**
 * RLS and one-to-many expansion (DESIGN §13 "RLS: array items are rows of their own
 * entity and obey its rules"): for random users, rows and rules on tasks and on projects, an
 * external user's `projects?expand=tasks` arrays hold exactly the user's tasks of each visible
 * project (cut at expandSize after the rules, never before), `filter[tasks.x.op]` keeps a project
 * only for a task the user may see, and `tasks?expand=project,project.tasks` and
 * `projects/N?expand=tasks` show no other task either (nor does an `expandWhere` that raises on
 * a hidden task). The model is computed here.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, type ApiResponse } from '../../support/harness.ts';
import { expectList, query } from '../../support/http-expect.ts';
import { vendorsToRun } from '../../support/vendors.ts';
import { addRule } from '../../support/auth.ts';
import { startRlsWorkspace, type ProjectRow, type RlsContext, type TaskRow } from './rls-fixture.ts';

const vendors = await vendorsToRun();

const SUBS = ['ann', 'ben', 'cy'] as const;
const PROJECTS: ProjectRow[] = [1, 2, 3].map((id) => ({ id, org_id: id, name: `p${id}` }));

type Row = Record<string, unknown>;

/** `filter[tasks.<field>.<op>]=<value>` on projects, and the same test on a task row. */
const TASK_FILTERS: readonly { readonly param: string; readonly value: string; readonly keeps: (t: TaskRow) => boolean }[] = [
  ...SUBS.map((sub) => ({ param: 'filter[tasks.owner.eq]', value: sub, keeps: (t: TaskRow) => t.owner === sub })),
  { param: 'filter[tasks.title.eq]', value: 'g1', keeps: (t) => t.title === 'g1' },
  { param: 'filter[tasks.title.isNull]', value: 'true', keeps: (t) => t.title === null },
  { param: 'filter[tasks.id.gt]', value: '0', keeps: () => true },
];

const scenarioArb = fc.record({
  rows: fc.array(
    fc.record({
      project_id: fc.constantFrom<number | null>(null, 1, 2, 3),
      owner: fc.constantFrom(...SUBS),
      title: fc.constantFrom<string | null>(null, 'g1', 'g2'),
    }),
    { minLength: 0, maxLength: 12 },
  ),
  ownerRule: fc.boolean(),
  titleRule: fc.boolean(),
  /** The projects' own rule: orgId ← claim org. */
  projectsRule: fc.boolean(),
  user: fc.record({ sub: fc.constantFrom(...SUBS), grp: fc.constantFrom('g1', 'g2'), org: fc.constantFrom(1, 2, 3) }, { requiredKeys: ['sub'] }),
  expandSize: fc.integer({ min: 1, max: 4 }),
  filter: fc.nat({ max: TASK_FILTERS.length - 1 }),
});

type Scenario = typeof scenarioArb extends fc.Arbitrary<infer S> ? S : never;

function taskVisible(row: TaskRow, s: Scenario): boolean {
  if (s.ownerRule && row.owner !== s.user.sub) return false;
  if (s.titleRule && (s.user.grp === undefined || row.title !== s.user.grp)) return false;
  return true;
}

function projectVisible(project: ProjectRow, s: Scenario): boolean {
  return !s.projectsRule || (s.user.org !== undefined && project.org_id === s.user.org);
}

/** The ids of the user's tasks of a project, by id. */
function visibleTaskIds(rows: readonly TaskRow[], projectId: unknown, s: Scenario): number[] {
  return rows.filter((t) => t.project_id === projectId && taskVisible(t, s)).map((t) => t.id);
}

const idsIn = (array: unknown): number[] => (array as Row[]).map((t) => t.id as number);

describe.each(vendors)('RLS and one-to-many expansion on $name', (target) => {
  let c: RlsContext;
  let viewUuids: { tasks: string; projects: string };

  beforeAll(async () => {
    c = await startRlsWorkspace(target, '/arrays-prop');
    viewUuids = { tasks: c.views.tasks?.uuid ?? '', projects: c.views.projects?.uuid ?? '' };
  });
  afterAll(async () => c?.close());

  async function setRules(view: string, rules: { column: string; claim: string }[]): Promise<void> {
    const existing = await c.ws.call('GET', `/api/views/${view}/rls-rules`, { token: ADMIN_TOKEN });
    for (const rule of existing.body.data as { id: string }[]) {
      expect((await c.ws.call('DELETE', `/api/views/${view}/rls-rules/${rule.id}`, { token: ADMIN_TOKEN })).status).toBe(204);
    }
    for (const rule of rules) await addRule(c.ws, view, { ...rule, enabled: true });
  }

  async function apply(s: Scenario): Promise<{ rows: TaskRow[]; get: (path: string) => Promise<ApiResponse> }> {
    const rows: TaskRow[] = s.rows.map((r, i) => ({ id: i + 1, ...r, note: null }));
    await c.load(PROJECTS, rows);
    await setRules(viewUuids.tasks, [...(s.ownerRule ? [{ column: 'owner', claim: 'sub' }] : []), ...(s.titleRule ? [{ column: 'title', claim: 'grp' }] : [])]);
    await setRules(viewUuids.projects, s.projectsRule ? [{ column: 'orgId', claim: 'org' }] : []);
    const token = await c.token({ ...s.user });
    return { rows, get: (path) => c.ws.call('GET', c.ws.records(path), { token }) };
  }

  it('arrays, filter[tasks…] and nested arrays never show a task the rules hide', { timeout: 180_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(scenarioArb, async (s) => {
        const { rows, get } = await apply(s);
        const shown = PROJECTS.filter((p) => projectVisible(p, s));

        // Each visible project's array: the user's tasks only, then cut at expandSize.
        const expanded = expectList(await get(`/projects${query([['expand', 'tasks'], ['expandSize[tasks]', s.expandSize], ['sort', 'id']])}`));
        expect(expanded.map((p) => p.id)).toEqual(shown.map((p) => p.id));
        for (const project of expanded) {
          expect(idsIn(project.tasks), `project ${String(project.id)}`).toEqual(visibleTaskIds(rows, project.id, s).slice(0, s.expandSize));
        }

        // EXISTS: a project is kept only for a matching task the user may see.
        const filter = TASK_FILTERS[s.filter]!;
        const kept = expectList(await get(`/projects${query([[filter.param, filter.value], ['sort', 'id']])}`));
        const keptExpected = shown.filter((p) => rows.some((t) => t.project_id === p.id && taskVisible(t, s) && filter.keeps(t)));
        expect(kept.map((p) => p.id), `${filter.param}=${filter.value}`).toEqual(keptExpected.map((p) => p.id));

        // Many-to-one then one-to-many: the project's array under each task is the user's tasks too.
        const tasks = expectList(await get('/tasks?expand=project,project.tasks&size=100&sort=id'));
        for (const task of tasks) {
          const project = task.project as Row | null;
          if (project === null) continue;
          expect(idsIn(project.tasks), `task ${String(task.id)} → project ${String(project.id)}`).toEqual(visibleTaskIds(rows, project.id, s));
        }

        // Get by id: the same array, 404 for a hidden project.
        for (const p of PROJECTS) {
          const res = await get(`/projects/${p.id}?expand=tasks`);
          if (!projectVisible(p, s)) expect(res.status).toBe(404);
          else expect(idsIn(res.body.data?.tasks), `project ${p.id}: ${JSON.stringify(res.body)}`).toEqual(visibleTaskIds(rows, p.id, s));
        }
      }),
      { numRuns: 25, endOnFailure: true },
    );
  });

  it('GET /projects/N?expand=tasks under a rule on tasks shows only the user\'s tasks', async () => {
    await c.load(PROJECTS, [
      { id: 1, project_id: 1, owner: 'ann', title: 'a' },
      { id: 2, project_id: 1, owner: 'ben', title: 'b' },
      { id: 3, project_id: 1, owner: 'ann', title: 'c' },
      { id: 4, project_id: 2, owner: 'ben', title: 'd' },
    ]);
    await setRules(viewUuids.tasks, [{ column: 'owner', claim: 'sub' }]);
    await setRules(viewUuids.projects, []);
    const token = await c.token({ sub: 'ann' });
    const one = await c.ws.call('GET', c.ws.records('/projects/1?expand=tasks'), { token });
    expect(one.status, JSON.stringify(one.body)).toBe(200);
    expect((one.body.data.tasks as Row[]).map((t) => [t.id, t.owner])).toEqual([[1, 'ann'], [3, 'ann']]);
    const two = await c.ws.call('GET', c.ws.records('/projects/2?expand=tasks'), { token });
    expect(two.body.data.tasks).toEqual([]);
    // Only ben's task 4 would keep project 2.
    const byOwner = await c.ws.call('GET', c.ws.records('/projects?filter[tasks.title.eq]=d'), { token });
    expect(expectList(byOwner)).toEqual([]);
  });

  it('an expandWhere is evaluated only on the user\'s tasks: a CAST that fails on a hidden task is no oracle', async () => {
    await c.load(PROJECTS, [
      { id: 1, project_id: 1, owner: 'ann', title: '7' },
      { id: 2, project_id: 1, owner: 'ben', title: 'not a number' },
    ]);
    await setRules(viewUuids.tasks, [{ column: 'owner', claim: 'sub' }]);
    await setRules(viewUuids.projects, []);
    const token = await c.token({ sub: 'ann' });
    const res = await c.ws.call('GET', c.ws.records(`/projects${query([['expand', 'tasks'], ['expandWhere[tasks]', 'CAST(title AS INTEGER) = 7'], ['sort', 'id']])}`), { token });
    expect(expectList(res).map((p) => idsIn(p.tasks)), JSON.stringify(res.body)).toEqual([[1], [], []]);
  });
});
