/**
 * Sorting is served by indexes (issue 19): on every live vendor, the page statement the service
 * compiles for a list sorted by the primary key, or by an indexed NOT NULL column with the id
 * tiebreak, reads one page of rows from an index instead of sorting the whole table.
 *
 * The table has enough rows (20,000) that a sort of all of them is what a planner would do
 * only if the ORDER BY could not be read from an index. The statement is the real one: the
 * table is introspected through the product's dialect, and the request goes through
 * parseReadRequest → planRead → compileRead. Each plan is executed (EXPLAIN ANALYZE), so the
 * rows counted were read, not estimated.
 *
 * The secondary sort is `seq` ascending: the id tiebreak is always ascending (plan-read.ts), so
 * an index on (seq, id) serves `seq` and `seq,desc` needs (seq DESC, id) — an index a user
 * creates for the sort they use, as with any database.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildModel } from '../../core/schema/build-model.ts';
import type { Entity } from '../../core/schema/model.ts';
import type { ReadScope, ViewShape } from '../../core/query/plan.ts';
import { compileRead } from '../../core/query/compile-read.ts';
import { parseReadRequest } from '../../core/query/parse-request.ts';
import { planRead } from '../../core/query/plan-read.ts';
import { planSeek } from '../../core/query/seek.ts';
import { OPEN_POLICY } from './fixture.ts';
import { PLAN_TARGETS, type PlanTarget } from './plan-targets.ts';

const ROWS = 20_000;
const PAGE = 20;
/** A scan may read a row or two past the page before the LIMIT stops it. */
const SLACK = 5;

/** The generated rows 1..ROWS as a SELECT of one column `n`, in each vendor's generator. */
const SERIES: Record<string, string> = {
  pglite: `SELECT g AS n FROM generate_series(1, ${ROWS}) g`,
  postgres: `SELECT g AS n FROM generate_series(1, ${ROWS}) g`,
  // A recursive CTE stops at max_recursive_iterations (1000 by default): five digits crossed instead.
  mariadb: digitsSeries(5),
};

function digitsSeries(places: number): string {
  const digits = `(${Array.from({ length: 10 }, (_, d) => `SELECT ${d} AS d`).join(' UNION ALL ')})`;
  const names = Array.from({ length: places }, (_, i) => `p${i}`);
  const n = names.map((p, i) => `${p}.d * ${10 ** i}`).join(' + ');
  const from = names.map((p) => `${digits} ${p}`).join(' CROSS JOIN ');
  return `SELECT ${n} + 1 AS n FROM ${from} WHERE ${n} < ${ROWS}`;
}

const ANALYZE: Record<string, string> = {
  pglite: 'ANALYZE sort_plan',
  postgres: 'ANALYZE sort_plan',
  mariadb: 'ANALYZE TABLE sort_plan',
};

async function loadTable(target: PlanTarget): Promise<void> {
  await target.exec('CREATE TABLE sort_plan (id integer NOT NULL PRIMARY KEY, seq integer NOT NULL, note varchar(40) NULL)');
  // seq is a permutation of 0..ROWS-1 unrelated to id, so neither index follows the other's order.
  await target.exec(`INSERT INTO sort_plan (id, seq, note) SELECT n, (n * 7919) % ${ROWS}, CASE WHEN n % 3 = 0 THEN NULL ELSE 'note' END FROM (${SERIES[target.name]}) s`);
  await target.exec('CREATE INDEX sort_plan_seq_id ON sort_plan (seq, id)');
  await target.exec(ANALYZE[target.name]!);
}

/** The same values as DEFAULT_ENTITY_OPTIONS (core/control/types.ts), as test/query/fixture.ts writes them. */
const DEFAULT_OPTIONS: ViewShape['options'] = {
  defaultExpand: null, expandable: null, maxExpandDepth: 3, defaultFields: null, countMode: null, constraints: null, validators: null,
};

/** The table as the service sees it: introspected by the product's dialect, read with no policy. */
async function sortPlanScope(target: PlanTarget): Promise<ReadScope> {
  const model = buildModel(await target.dialect.introspect(target.driver));
  const entity = [...model.entities.values()].find((e) => e.table === 'sort_plan');
  if (!entity) throw new Error('sort_plan was not introspected');
  const shape = (e: Entity): ViewShape => ({ entity: e, computed: [], options: DEFAULT_OPTIONS, migration: null });
  const defaultView = (name: string): ViewShape => {
    const found = model.entities.get(name);
    if (!found) throw new Error(`no entity ${name}`);
    return shape(found);
  };
  return { model, root: shape(entity), defaultView, policy: OPEN_POLICY };
}

for (const opener of PLAN_TARGETS) {
  describe.skipIf(!(await opener.available()))(`sorting is served by an index on ${opener.name}`, () => {
    let target: PlanTarget;
    let scope: ReadScope;
    beforeAll(async () => {
      target = await opener.open();
      await loadTable(target);
      scope = await sortPlanScope(target);
    }, 120_000);
    afterAll(async () => target?.close());

    function pageFor(sort: string) {
      return compileRead(planRead(scope, parseReadRequest({ sort, size: String(PAGE) })), target.dialect).page;
    }

    /** A later cursor page: the seek after the row whose sort keys are `values` (core/query/seek.ts). */
    function cursorPageFor(sort: string, values: readonly unknown[]) {
      const plan = planRead(scope, parseReadRequest({ sort, size: String(PAGE) }));
      return compileRead({ ...plan, keyset: { after: planSeek(plan.order, values) } }, target.dialect).page;
    }

    it.each(['id,desc', 'id', 'seq'])('sort=%s reads one page without sorting', async (sort) => {
      const facts = await target.explain(pageFor(sort));
      expect(facts.rowsRead).toBeLessThanOrEqual(PAGE + SLACK);
      expect(facts.sorted).toBe(false);
    });

    // The seek of a later page compares the plain keys, so the index serves it as a range.
    it.each([
      ['id,desc', [10_000]],
      ['id', [10_000]],
      ['seq', [5_000, 7_000]],
    ] as const)('a cursor page of sort=%s after %j reads one page without sorting', async (sort, values) => {
      const facts = await target.explain(cursorPageFor(sort, values));
      expect(facts.rowsRead).toBeLessThanOrEqual(PAGE + 1 + SLACK);
      expect(facts.sorted).toBe(false);
    });

    // The control: without an index on the sort key the plan does show a sort of every row, so
    // the facts above are read from the plan, not defaulted.
    it('sort=note (no index) sorts every row', async () => {
      const facts = await target.explain(pageFor('note'));
      expect(facts.sorted).toBe(true);
      expect(facts.rowsRead).toBe(ROWS);
    });
  });
}
