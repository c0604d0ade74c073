/**
 * One-to-many arrays are read through the foreign key's index: on every live vendor,
 * the items statement the service compiles for a page of parents (core/query/compile-items.ts)
 * reads only those parents' items, not the whole item table. The tables are real and
 * introspected by the product's dialect; each plan is executed (EXPLAIN ANALYZE), so the rows
 * counted were read.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileItems } from '../../core/query/compile-items.ts';
import { compileRead } from '../../core/query/compile-read.ts';
import { parseReadRequest } from '../../core/query/parse-request.ts';
import { planRead } from '../../core/query/plan-read.ts';
import type { ReadScope } from '../../core/query/plan.ts';
import { PLAN_TARGETS, type PlanTarget } from './plan-targets.ts';
import { analyze, introspectedScope, seriesOf } from './plan-tables.ts';

const PARENTS = 2_000;
const ITEMS_EACH = 20;
const ITEMS = PARENTS * ITEMS_EACH;
const PAGE = 20;

async function loadTables(target: PlanTarget): Promise<void> {
  await target.exec('CREATE TABLE plan_parent (id integer NOT NULL PRIMARY KEY, name varchar(40) NOT NULL)');
  await target.exec(`CREATE TABLE plan_item (id integer NOT NULL PRIMARY KEY, parent_id integer NOT NULL, seq integer NOT NULL,
    CONSTRAINT plan_item_parent_fkey FOREIGN KEY (parent_id) REFERENCES plan_parent (id))`);
  // MariaDB indexes a foreign key by itself; PostgreSQL needs the index a user would create.
  if (target.name !== 'mariadb') await target.exec('CREATE INDEX plan_item_parent_id ON plan_item (parent_id)');
  await target.exec(`INSERT INTO plan_parent (id, name) SELECT n, 'parent' FROM (${seriesOf(target, PARENTS)}) s`);
  // Items are spread over the table: a parent's items are never next to each other.
  await target.exec(`INSERT INTO plan_item (id, parent_id, seq) SELECT n, (n % ${PARENTS}) + 1, n FROM (${seriesOf(target, ITEMS)}) s`);
  await analyze(target, ['plan_parent', 'plan_item']);
}

for (const opener of PLAN_TARGETS) {
  describe.skipIf(!(await opener.available()))(`one-to-many arrays read through the foreign key's index on ${opener.name}`, () => {
    let target: PlanTarget;
    let scope: ReadScope;
    let arrayName: string;
    beforeAll(async () => {
      target = await opener.open();
      await loadTables(target);
      scope = await introspectedScope(target, 'plan_parent');
      const relation = [...scope.root.entity.relationships.values()].find((r) => r.kind === 'oneToMany');
      if (!relation) throw new Error('plan_parent has no one-to-many relationship');
      arrayName = relation.name;
    }, 180_000);
    afterAll(async () => target?.close());

    /** The items statement for parents 1..`parents`, `size` items each, as the list route runs it. */
    function itemsOf(parents: number, size: number) {
      const query = { size: String(PAGE), expand: arrayName, [`expandSize[${arrayName}]`]: String(size) };
      const [array] = compileRead(planRead(scope, parseReadRequest(query)), target.dialect).arrays;
      if (!array) throw new Error('the plan has no array');
      return compileItems(array.node, Array.from({ length: parents }, (_, i) => i + 1), target.dialect).page;
    }

    it(`a page of ${PAGE} parents reads their ${PAGE * ITEMS_EACH} items, not all ${ITEMS}`, async () => {
      const facts = await target.explain(itemsOf(PAGE, 5));
      expect(facts.rowsRead).toBeGreaterThanOrEqual(PAGE * 5);
      // The index gives each parent's items; the per-parent cut comes after them.
      expect(facts.rowsRead).toBeLessThanOrEqual(PAGE * ITEMS_EACH * 2);
    });

    // The control: the same statement over every parent reads every item, so the count above
    // is read from the plan, not defaulted.
    it('the same statement over every parent reads every item', async () => {
      const facts = await target.explain(itemsOf(PARENTS, 5));
      expect(facts.rowsRead).toBeGreaterThanOrEqual(ITEMS);
    });
  });
}
