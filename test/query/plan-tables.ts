/**
 * Generated tables for the plan tests and the read scope the service would build over them:
 * introspected by the product's dialect, default entity options, no row policy.
 */
import { buildModel } from '../../core/schema/build-model.ts';
import type { Entity } from '../../core/schema/model.ts';
import type { ReadScope, ViewShape } from '../../core/query/plan.ts';
import { OPEN_POLICY } from './fixture.ts';
import type { PlanTarget } from './plan-targets.ts';

/** The rows 1..rows as a SELECT of one column `n`, in each vendor's generator. */
export function seriesOf(target: PlanTarget, rows: number): string {
  if (target.name === 'mariadb') return digitsSeries(rows);
  return `SELECT g AS n FROM generate_series(1, ${rows}) g`;
}

/** A recursive CTE stops at max_recursive_iterations (1000 by default): decimal digits crossed instead. */
function digitsSeries(rows: number): string {
  const places = String(rows).length;
  const digits = `(${Array.from({ length: 10 }, (_, d) => `SELECT ${d} AS d`).join(' UNION ALL ')})`;
  const names = Array.from({ length: places }, (_, i) => `p${i}`);
  const n = names.map((p, i) => `${p}.d * ${10 ** i}`).join(' + ');
  const from = names.map((p) => `${digits} ${p}`).join(' CROSS JOIN ');
  return `SELECT ${n} + 1 AS n FROM ${from} WHERE ${n} < ${rows}`;
}

export async function analyze(target: PlanTarget, tables: readonly string[]): Promise<void> {
  const list = tables.join(', ');
  await target.exec(target.name === 'mariadb' ? `ANALYZE TABLE ${list}` : `ANALYZE ${list}`);
}

/** The same values as DEFAULT_ENTITY_OPTIONS (core/control/types.ts), as test/query/fixture.ts writes them. */
const DEFAULT_OPTIONS: ViewShape['options'] = {
  defaultExpand: null, expandable: null, maxExpandDepth: 3, defaultFields: null, countMode: null, constraints: null, validators: null, events: 'off',
};

/** The read scope of `table` as the service sees it: introspected by the product's dialect, no policy. */
export async function introspectedScope(target: PlanTarget, table: string): Promise<ReadScope> {
  const model = buildModel(await target.dialect.introspect(target.driver));
  const entity = [...model.entities.values()].find((e) => e.table === table);
  if (!entity) throw new Error(`${table} was not introspected`);
  const shape = (e: Entity): ViewShape => ({ entity: e, computed: [], options: DEFAULT_OPTIONS, migration: null });
  const defaultView = (name: string): ViewShape => {
    const found = model.entities.get(name);
    if (!found) throw new Error(`no entity ${name}`);
    return shape(found);
  };
  return { workspaceId: 'test', model, root: shape(entity), defaultView, policy: OPEN_POLICY };
}
