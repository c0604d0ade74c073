/**
 * Sorting is served by indexes: on every live vendor, the page statement the service
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
import type { ReadScope } from '../../core/query/plan.ts';
import { compileRead } from '../../core/query/compile-read.ts';
import { LIST_QUERY, parseReadRequest } from '../../core/query/parse-request.ts';
import { planRead } from '../../core/query/plan-read.ts';
import { planSeek } from '../../core/query/seek.ts';
import { PLAN_TARGETS, type PlanTarget } from './plan-targets.ts';
import { analyze, introspectedScope, seriesOf } from './plan-tables.ts';

const ROWS = 20_000;
const PAGE = 20;
/** A scan may read a row or two past the page before the LIMIT stops it. */
const SLACK = 5;

async function loadTable(target: PlanTarget): Promise<void> {
  await target.exec('CREATE TABLE sort_plan (id integer NOT NULL PRIMARY KEY, seq integer NOT NULL, note varchar(40) NULL)');
  // seq is a permutation of 0..ROWS-1 unrelated to id, so neither index follows the other's order.
  await target.exec(`INSERT INTO sort_plan (id, seq, note) SELECT n, (n * 7919) % ${ROWS}, CASE WHEN n % 3 = 0 THEN NULL ELSE 'note' END FROM (${seriesOf(target, ROWS)}) s`);
  await target.exec('CREATE INDEX sort_plan_seq_id ON sort_plan (seq, id)');
  await analyze(target, ['sort_plan']);
}

for (const opener of PLAN_TARGETS) {
  describe.skipIf(!(await opener.available()))(`sorting is served by an index on ${opener.name}`, () => {
    let target: PlanTarget;
    let scope: ReadScope;
    beforeAll(async () => {
      target = await opener.open();
      await loadTable(target);
      scope = await introspectedScope(target, 'sort_plan');
    }, 120_000);
    afterAll(async () => target?.close());

    function pageFor(sort: string) {
      return compileRead(planRead(scope, parseReadRequest({ sort, size: String(PAGE) })), target.dialect).page;
    }

    /** A later cursor page: the seek after the row whose sort keys are `values` (core/query/seek.ts). */
    function cursorPageFor(sort: string, values: readonly unknown[]) {
      const plan = planRead(scope, parseReadRequest({ sort, size: String(PAGE) }));
      return compileRead({ ...plan, keyset: planSeek(plan.order, values) }, target.dialect).page;
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

    // `where` compares an integer column with a number literal in the column's own type
    // (compareInColumnType), so the index on (seq, id) serves it instead of a double of every row.
    it('where=seq >= 19990 and where=seq = 4242 read their rows from the index', async () => {
      expect(target.dialect.formula.compareInColumnType).toBeDefined();
      const whereFor = (where: string, sort: string) => compileRead(planRead(scope, parseReadRequest({ where, sort, size: String(PAGE) }, LIST_QUERY)), target.dialect).page;
      // Ten rows; PostgreSQL's bitmap scan counts them in the index and again in the table.
      expect((await target.explain(whereFor('seq >= 19990', 'seq'))).rowsRead).toBeLessThanOrEqual(2 * 10 + SLACK);
      expect((await target.explain(whereFor('4242 = seq', 'id'))).rowsRead).toBeLessThanOrEqual(1 + SLACK);
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
