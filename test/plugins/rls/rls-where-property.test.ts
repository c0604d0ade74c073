/**
 * RLS and `where` (DESIGN §13): for random users, rows, rules and `where` formulas, an
 * external user's list never shows a row the rules hide, and shows exactly the user's rows that
 * the in-process evaluator accepts. `project.name`/`project.orgId` read through the projects'
 * own rule: a hidden project reads as NULL, so a `where` cannot probe it. An example shows the
 * formula never runs on a hidden row (a CAST that fails there would otherwise answer an error).
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkFormula, evaluateFormula, parseFormula } from '../../../core/formula/index.ts';
import type { Entity, SchemaModel } from '../../../core/schema/model.ts';
import { ADMIN_TOKEN } from '../../support/harness.ts';
import { idsOf, query } from '../../support/http-expect.ts';
import { vendorsToRun } from '../../support/vendors.ts';
import { addRule } from '../../support/auth.ts';
import { startRlsWorkspace, type ProjectRow, type RlsContext, type TaskRow } from './rls-fixture.ts';

const vendors = await vendorsToRun();

const SUBS = ['ann', 'ben', 'cy'] as const;
const PROJECTS: ProjectRow[] = [1, 2, 3].map((id) => ({ id, org_id: id, name: `p${id}` }));

interface Claims {
  sub: string;
  proj?: { id: number };
  org?: number;
}

const ATOMS = [
  "owner = 'ann'",
  "owner <> 'ben'",
  'title IS NULL',
  "title = 'g1'",
  'projectId = 2',
  'projectId IN (1, 3)',
  "project.name = 'p2'",
  'project.name IS NULL',
  'project.orgId > 1',
  "note LIKE 'orig%'",
  'TRUE',
];

const whereArb: fc.Arbitrary<string> = fc.letrec<{ w: string }>((tie) => ({
  w: fc.oneof(
    { depthSize: 'small' },
    fc.constantFrom(...ATOMS),
    tie('w').map((a) => `NOT (${a})`),
    fc.tuple(tie('w'), fc.constantFrom('AND', 'OR'), tie('w')).map(([a, op, b]) => `(${a}) ${op} (${b})`),
  ),
})).w;

const scenarioArb = fc.record({
  rows: fc.array(
    fc.record({
      project_id: fc.constantFrom<number | null>(null, 1, 2, 3),
      owner: fc.constantFrom(...SUBS),
      title: fc.constantFrom<string | null>(null, 'g1', 'g2'),
    }),
    { minLength: 0, maxLength: 10 },
  ),
  ownerRule: fc.boolean(),
  projectRule: fc.boolean(),
  /** The projects' own rule: orgId ← claim org. */
  projectsRule: fc.boolean(),
  user: fc.record({ sub: fc.constantFrom(...SUBS), proj: fc.record({ id: fc.constantFrom(1, 2, 3) }), org: fc.constantFrom(1, 2, 3) }, { requiredKeys: ['sub'] }),
  where: whereArb,
});

type Scenario = typeof scenarioArb extends fc.Arbitrary<infer S> ? S : never;

function taskVisible(row: TaskRow, s: Scenario): boolean {
  if (s.ownerRule && row.owner !== s.user.sub) return false;
  if (s.projectRule && (s.user.proj === undefined || row.project_id !== s.user.proj.id)) return false;
  return true;
}

function projectOf(row: TaskRow, s: Scenario): ProjectRow | null {
  const project = PROJECTS.find((p) => p.id === row.project_id) ?? null;
  if (!project || !s.projectsRule) return project;
  return s.user.org !== undefined && project.org_id === s.user.org ? project : null;
}

describe.each(vendors)('RLS and where on $name', (target) => {
  let c: RlsContext;
  let model: SchemaModel;
  let tasks: Entity;
  let viewUuids: { tasks: string; projects: string };

  beforeAll(async () => {
    c = await startRlsWorkspace(target, '/where-prop');
    const runtime = await c.ws.service.services.workspaces.bySlug(c.ws.org, c.ws.ws);
    model = runtime.model;
    tasks = runtime.entity('tasks');
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

  function expectedIds(rows: readonly TaskRow[], s: Scenario): number[] {
    const checked = checkFormula(parseFormula(s.where), { entity: tasks, model });
    return rows
      .filter((row) => taskVisible(row, s))
      .filter((row) => {
        const project = projectOf(row, s);
        const values = { id: row.id, owner: row.owner, title: row.title, note: row.note ?? null, projectId: row.project_id, 'project.name': project?.name ?? null, 'project.orgId': project?.org_id ?? null };
        return evaluateFormula(checked, values) === true;
      })
      .map((row) => row.id);
  }

  it('a where never reveals another user\'s rows, and keeps exactly the user\'s matching rows', { timeout: 180_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(scenarioArb, async (s) => {
        const rows: TaskRow[] = s.rows.map((r, i) => ({ id: i + 1, ...r, note: 'original' }));
        await c.load(PROJECTS, rows);
        await setRules(viewUuids.tasks, [
          ...(s.ownerRule ? [{ column: 'owner', claim: 'sub' }] : []),
          ...(s.projectRule ? [{ column: 'projectId', claim: 'proj.id' }] : []),
        ]);
        await setRules(viewUuids.projects, s.projectsRule ? [{ column: 'orgId', claim: 'org' }] : []);
        const token = await c.token({ ...s.user });
        const res = await c.ws.call('GET', c.ws.records(`/tasks${query([['where', s.where], ['size', '100']])}`), { token });
        const seen = idsOf(res) as number[];
        for (const id of seen) expect(taskVisible(rows[id - 1]!, s), `row ${id} is not the user's`).toBe(true);
        const expected = expectedIds(rows, s);
        expect(seen, `where=${s.where}`).toEqual(expected);
        expect(res.body.meta.totalElements).toBe(expected.length);
      }),
      { numRuns: 25, endOnFailure: true },
    );
  });

  it('the formula is evaluated only on the user\'s rows: a CAST that fails on a hidden row is no oracle', async () => {
    await c.load(PROJECTS, [
      { id: 1, project_id: 1, owner: 'ann', title: '7', note: null },
      { id: 2, project_id: 1, owner: 'ben', title: 'not a number', note: null },
    ]);
    await setRules(viewUuids.tasks, [{ column: 'owner', claim: 'sub' }]);
    await setRules(viewUuids.projects, []);
    const token = await c.token({ sub: 'ann' });
    for (const where of ['CAST(title AS INTEGER) = 7', 'CAST(title AS INTEGER) > 0 AND owner IS NOT NULL']) {
      const res = await c.ws.call('GET', c.ws.records(`/tasks${query([['where', where]])}`), { token });
      expect(idsOf(res), JSON.stringify(res.body)).toEqual([1]);
    }
  });

  it('a filter on a computed column is evaluated only on the user\'s rows, like where', async () => {
    await c.load(PROJECTS, [
      { id: 1, project_id: 1, owner: 'ann', title: '7', note: null },
      { id: 2, project_id: 1, owner: 'ben', title: 'not a number', note: null },
    ]);
    await setRules(viewUuids.tasks, [{ column: 'owner', claim: 'sub' }]);
    await setRules(viewUuids.projects, []);
    const column = await c.ws.call('POST', '/api/columns', { token: ADMIN_TOKEN, body: { viewUuid: viewUuids.tasks, kind: 'COMPUTED', displayName: 'Title Number', formula: 'CAST(title AS INTEGER)', widgetType: 'NUMBER' } });
    expect(column.status, JSON.stringify(column.body)).toBe(201);
    try {
      const token = await c.token({ sub: 'ann' });
      for (const filter of [['filter[titleNumber.eq]', '7'], ['filter[titleNumber.gt]', '0'], ['filter[titleNumber.isNull]', 'false']] as const) {
        const res = await c.ws.call('GET', c.ws.records(`/tasks${query([filter])}`), { token });
        expect(idsOf(res), JSON.stringify(res.body)).toEqual([1]);
      }
    } finally {
      await c.ws.call('DELETE', `/api/columns/item/${column.body.data.uuid}`, { token: ADMIN_TOKEN });
    }
  });
});
