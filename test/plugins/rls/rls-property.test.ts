/**
 * Property (spec "Authentication" rule 7, DESIGN §12 "RLS"): for random users, rows and rules,
 * an external user's list (every page), get, update and delete never touch a row whose rule
 * column differs from the user's claim, and the list total is the number of the user's rows.
 * Checked against a model computed here and against the database read directly after the writes.
 * A second property reads through a random second view: it shows the rows both the entity's
 * (default view's) rules and the view's own rules allow, never more.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN } from '../../support/harness.ts';
import { vendorsToRun } from '../../support/vendors.ts';
import { addRule } from '../../support/auth.ts';
import { startRlsWorkspace, type RlsContext, type TaskRow } from './rls-fixture.ts';

const vendors = await vendorsToRun();

const SUBS = ['ann', 'ben', 'cy', 'dee'] as const;
const GROUPS = ['g1', 'g2'] as const;
const PROJECT_IDS = [1, 2, 3] as const;

/** The rules a run may set on the tasks view: rule column ← claim path. */
const RULE_KINDS = [
  { key: 'owner', column: 'owner', claim: 'sub' },
  { key: 'project_id', column: 'projectId', claim: 'proj.id' },
  { key: 'title', column: 'title', claim: 'grp' },
] as const;

type RuleKey = (typeof RULE_KINDS)[number]['key'];
type RuleState = 'absent' | 'enabled' | 'disabled';

interface Claims {
  sub: string;
  proj?: { id: number };
  grp?: string;
}

const rowArb = fc.record({
  project_id: fc.constantFrom<number | null>(null, ...PROJECT_IDS),
  owner: fc.constantFrom(...SUBS),
  title: fc.constantFrom<string | null>(null, ...GROUPS),
});

const claimsArb: fc.Arbitrary<Claims> = fc.record(
  {
    sub: fc.constantFrom(...SUBS),
    proj: fc.record({ id: fc.constantFrom(...PROJECT_IDS) }),
    grp: fc.constantFrom(...GROUPS),
  },
  { requiredKeys: ['sub'] },
);

const scenarioArb = fc.record({
  rows: fc.array(rowArb, { minLength: 0, maxLength: 10 }),
  rules: fc.record({
    owner: fc.constantFrom<RuleState>('absent', 'enabled', 'disabled'),
    project_id: fc.constantFrom<RuleState>('absent', 'enabled', 'disabled'),
    title: fc.constantFrom<RuleState>('absent', 'enabled', 'disabled'),
  }),
  user: claimsArb,
  pageSize: fc.integer({ min: 1, max: 5 }),
  /** Per row index: try to update it, delete it, both or neither. */
  writes: fc.array(fc.constantFrom('none', 'update', 'delete', 'both'), { minLength: 10, maxLength: 10 }),
  /** The update body sometimes also sends the rule columns with the user's own values. */
  resendOwn: fc.boolean(),
});

function claimFor(key: RuleKey, claims: Claims): unknown {
  if (key === 'owner') return claims.sub;
  if (key === 'project_id') return claims.proj?.id;
  return claims.grp;
}

type RuleSet = Record<RuleKey, RuleState>;

const ruleSetArb: fc.Arbitrary<RuleSet> = fc.record({
  owner: fc.constantFrom<RuleState>('absent', 'enabled', 'disabled'),
  project_id: fc.constantFrom<RuleState>('absent', 'enabled', 'disabled'),
  title: fc.constantFrom<RuleState>('absent', 'enabled', 'disabled'),
});

const viewScenarioArb = fc.record({
  rows: fc.array(rowArb, { minLength: 0, maxLength: 10 }),
  entityRules: ruleSetArb,
  viewRules: ruleSetArb,
  user: claimsArb,
  pageSize: fc.integer({ min: 1, max: 5 }),
});

/** The model: a row is the user's when every enabled rule's column equals a present claim. */
function visible(row: TaskRow, rules: RuleSet, claims: Claims): boolean {
  return RULE_KINDS.every(({ key }) => {
    if (rules[key] !== 'enabled') return true;
    const claim = claimFor(key, claims);
    return claim !== undefined && row[key] !== null && row[key] === claim;
  });
}

describe.each(vendors)('RLS property on $name', (target) => {
  let c: RlsContext;
  const viewUuid = () => c.views.tasks?.uuid ?? '';

  beforeAll(async () => {
    c = await startRlsWorkspace(target, '/prop');
    await c.load(
      PROJECT_IDS.map((id) => ({ id, org_id: id, name: `p${id}` })),
      [],
    );
  });
  afterAll(async () => c?.close());

  async function setRules(rules: RuleSet, view = viewUuid()): Promise<void> {
    const existing = await c.ws.call('GET', `/api/views/${view}/rls-rules`, { token: ADMIN_TOKEN });
    for (const rule of existing.body.data as { id: string }[]) {
      const res = await c.ws.call('DELETE', `/api/views/${view}/rls-rules/${rule.id}`, { token: ADMIN_TOKEN });
      expect(res.status).toBe(204);
    }
    for (const kind of RULE_KINDS) {
      if (rules[kind.key] === 'absent') continue;
      await addRule(c.ws, view, { column: kind.column, claim: kind.claim, enabled: rules[kind.key] === 'enabled' });
    }
  }

  it('list, get, update and delete stay inside the user\'s rows', { timeout: 120_000 }, async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(scenarioArb, async (scenario) => {
        run += 1;
        const rows: TaskRow[] = scenario.rows.map((r, i) => ({ id: i + 1, ...r, note: 'original' }));
        await c.load(PROJECT_IDS.map((id) => ({ id, org_id: id, name: `p${id}` })), rows);
        await setRules(scenario.rules);
        const token = await c.token({ ...scenario.user });
        const mine = rows.filter((r) => visible(r, scenario.rules, scenario.user));
        const mineIds = new Set(mine.map((r) => r.id));

        // List, every page.
        const seen: number[] = [];
        let totalPages = 1;
        for (let page = 0; page < totalPages; page++) {
          const res = await c.ws.call('GET', c.ws.records(`/tasks?size=${scenario.pageSize}&page=${page}&sort=id`), { token });
          expect(res.status, JSON.stringify(res.body)).toBe(200);
          expect(res.body.meta.totalElements).toBe(mine.length);
          totalPages = res.body.meta.totalPages;
          for (const record of res.body.data as Record<string, unknown>[]) {
            seen.push(record.id as number);
            const row = rows.find((r) => r.id === record.id);
            expect(row && visible(row, scenario.rules, scenario.user)).toBe(true);
            expect(record).toMatchObject({ owner: row?.owner, projectId: row?.project_id, title: row?.title });
          }
        }
        expect(seen).toEqual(mine.map((r) => r.id));

        // Get by id: 200 exactly for the user's rows.
        for (const row of rows) {
          const res = await c.ws.call('GET', c.ws.records(`/tasks/${row.id}`), { token });
          expect({ id: row.id, status: res.status }).toEqual({ id: row.id, status: mineIds.has(row.id) ? 200 : 404 });
        }

        // Updates and deletes over every row, the user's and the others'.
        const expected = new Map(rows.map((r) => [r.id, { ...r }]));
        for (const row of rows) {
          const write = scenario.writes[row.id - 1] ?? 'none';
          if (write === 'update' || write === 'both') {
            const body: Record<string, unknown> = { note: `touched ${run}` };
            if (scenario.resendOwn && scenario.rules.owner === 'enabled') body.owner = scenario.user.sub;
            const res = await c.ws.call('PUT', c.ws.records(`/tasks/${row.id}`), { token, body });
            expect({ id: row.id, status: res.status }).toEqual({ id: row.id, status: mineIds.has(row.id) ? 200 : 404 });
            if (mineIds.has(row.id)) {
              const model = expected.get(row.id);
              if (model) model.note = `touched ${run}`;
            }
          }
          if (write === 'delete' || write === 'both') {
            const res = await c.ws.call('DELETE', c.ws.records(`/tasks/${row.id}`), { token });
            expect({ id: row.id, status: res.status }).toEqual({ id: row.id, status: mineIds.has(row.id) ? 204 : 404 });
            if (mineIds.has(row.id)) expected.delete(row.id);
          }
        }

        // The database holds exactly the model: other users' rows untouched, the user's changed as asked.
        const actual = await c.ws.db.query(`SELECT id, project_id, owner, title, note FROM ${c.tasks} ORDER BY id`);
        expect(actual.map((r) => ({ ...r, project_id: r.project_id === null ? null : Number(r.project_id) }))).toEqual([...expected.values()]);

        // The list total after the writes is the number of the user's remaining rows.
        const after = await c.ws.call('GET', c.ws.records('/tasks?size=1'), { token });
        const remaining = [...expected.values()].filter((r) => visible(r, scenario.rules, scenario.user)).length;
        expect(after.body.meta.totalElements).toBe(remaining);
      }),
      { numRuns: 25, endOnFailure: true },
    );
  });

  it('a second view shows what the entity\'s rules and its own rules both allow', { timeout: 120_000 }, async () => {
    const created = await c.ws.call('POST', c.ws.admin('/views'), { token: ADMIN_TOKEN, body: { entity: 'tasks', name: 'Second', slug: `prop-second-${target.name}` } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const second = created.body.data as { uuid: string; slug: string };
    await fc.assert(
      fc.asyncProperty(viewScenarioArb, async (scenario) => {
        const rows: TaskRow[] = scenario.rows.map((r, i) => ({ id: i + 1, ...r, note: 'original' }));
        await c.load(PROJECT_IDS.map((id) => ({ id, org_id: id, name: `p${id}` })), rows);
        await setRules(scenario.entityRules);
        await setRules(scenario.viewRules, second.uuid);
        const token = await c.token({ ...scenario.user });
        const mine = rows.filter((r) => visible(r, scenario.entityRules, scenario.user) && visible(r, scenario.viewRules, scenario.user));
        const seen: number[] = [];
        let totalPages = 1;
        for (let page = 0; page < totalPages; page++) {
          const res = await c.ws.call('GET', `/api/data/${second.slug}?size=${scenario.pageSize}&page=${page}&sort=id`, { token });
          expect(res.status, JSON.stringify(res.body)).toBe(200);
          expect(res.body.meta.totalElements).toBe(mine.length);
          totalPages = res.body.meta.totalPages;
          seen.push(...(res.body.data as { id: number }[]).map((r) => r.id));
        }
        expect(seen).toEqual(mine.map((r) => r.id));
      }),
      { numRuns: 20, endOnFailure: true },
    );
  });
});
