/**
 * AggregatePlan → SQL through the dialect. The filtered rows are projected once (group keys and
 * metric arguments under plain aliases) in a derived table, which the outer query groups:
 *
 *   SELECT g.g0, COUNT(*) AS m0, SUM(g.v1) AS m1 FROM (SELECT <key> AS g0, <value> AS v1 FROM … WHERE …) g
 *   GROUP BY g.g0 ORDER BY … <page>
 *
 * Grouping by the derived columns, not by the expressions, matters: a computed key's formula binds
 * its literals, and neither PostgreSQL nor MySQL (ONLY_FULL_GROUP_BY) can tell that `$1 + x` in
 * SELECT and `$2 + x` in GROUP BY are one expression. The outer query binds nothing.
 */
import { ident, join, raw, sql, type Sql } from '../sql.ts';
import type { BoundDialect } from '../../dialects/dialect.ts';
import type { ColumnType } from '../schema/introspection.ts';
import { toWireValue } from '../schema/values.ts';
import { conjunction, fromTables, targetExpr, type CompileContext } from './compile-read.ts';
import { canBeNull, targetType } from './filter-values.ts';
import { ROOT_ALIAS } from './joins.ts';
import type { AggregateOrderTerm, AggregatePlan, MetricPlan } from './plan-aggregate.ts';

export type AggregateRow = Record<string, unknown>;

export interface CompiledAggregate {
  readonly page: Sql;
  /** The number of groups; null without groupBy (there is exactly one). */
  readonly count: Sql | null;
  readonly assemble: (rows: readonly Record<string, unknown>[]) => AggregateRow[];
}

const DERIVED = 'g';
const groupAlias = (i: number): string => `g${i}`;
const valueAlias = (i: number): string => `v${i}`;
const metricAlias = (i: number): string => `m${i}`;

function derived(ctx: CompileContext, plan: AggregatePlan, withValues: boolean): Sql {
  const keys = plan.groups.map((g, i) => sql`${targetExpr(ctx, g.target)} AS ${ident(groupAlias(i))}`);
  const values = withValues ? plan.metrics.flatMap((m, i) => (m.target ? [sql`${targetExpr(ctx, m.target)} AS ${ident(valueAlias(i))}`] : [])) : [];
  // A SELECT needs one column even when nothing is grouped or aggregated by value (count only).
  const columns = [...keys, ...values];
  const list = columns.length > 0 ? join(columns) : sql`1 AS ${ident('one')}`;
  const from = fromTables(ctx, plan.root.entity, [...plan.joins.values()]);
  const where = plan.where.length > 0 ? sql` WHERE ${conjunction(ctx, plan.where)}` : raw('');
  return sql`(SELECT ${list} FROM ${from}${where}) ${ident(DERIVED)}`;
}

function column(alias: string): Sql {
  return ident(DERIVED, alias);
}

/** The metric's aggregate over the derived table; `avg` as a double, the same number on every vendor. */
function metricSql(dialect: BoundDialect, metric: MetricPlan, i: number): Sql {
  const value = column(valueAlias(i));
  const type = metric.target ? targetType(metric.target) : 'integer';
  switch (metric.kind) {
    case 'count':
      return raw('COUNT(*)');
    case 'countDistinct':
      return sql`COUNT(DISTINCT ${value})`;
    case 'sum':
      return dialect.sql.sum(value, type);
    case 'avg':
      // The exact sum as a double, divided by the count: two correctly rounded steps on every vendor.
      return sql`${dialect.sql.toDouble(dialect.sql.sum(value, type))} / NULLIF(COUNT(${value}), 0)`;
    case 'min':
      return sql`MIN(${value})`;
    case 'max':
      return sql`MAX(${value})`;
  }
}

/**
 * Whether a sorted-by group key or metric can be NULL: a group key as its target can; a count
 * never is; sum, avg, min and max are NULL when every value of the group is.
 */
function orderedCanBeNull(plan: AggregatePlan, term: AggregateOrderTerm): boolean {
  const { kind, index } = term.ref;
  if (kind === 'group') {
    const group = plan.groups[index];
    return group ? canBeNull(group.target) : true;
  }
  const metric = plan.metrics[index];
  return !(metric?.kind === 'count' || metric?.kind === 'countDistinct');
}

function orderSql(dialect: BoundDialect, plan: AggregatePlan, term: AggregateOrderTerm): Sql {
  const { kind, index } = term.ref;
  const metric = plan.metrics[index];
  // An aggregate is repeated rather than named by its alias: T-SQL takes no alias inside an ORDER BY expression.
  const expr = kind === 'group' || !metric ? column(groupAlias(index)) : metricSql(dialect, metric, index);
  return dialect.sql.orderTerm(expr, term.direction, orderedCanBeNull(plan, term));
}

/** The wire type of each metric's value (DESIGN §4): counts and integer sums as numbers, avg a double. */
function metricType(metric: MetricPlan): ColumnType {
  if (metric.kind === 'count' || metric.kind === 'countDistinct') return 'bigint';
  if (metric.kind === 'avg') return 'float';
  const type = metric.target ? targetType(metric.target) : 'bigint';
  return metric.kind === 'sum' && type === 'integer' ? 'bigint' : type;
}

function assembler(plan: AggregatePlan, jsonAsText: boolean): CompiledAggregate['assemble'] {
  const types = plan.metrics.map(metricType);
  return (rows) =>
    rows.map((row) => {
      const group = Object.fromEntries(plan.groups.map((g, i) => [g.name, toWireValue(targetType(g.target), row[groupAlias(i)], jsonAsText)]));
      const out: AggregateRow = { group };
      plan.metrics.forEach((metric, i) => {
        const value = toWireValue(types[i] ?? 'float', row[metricAlias(i)], jsonAsText);
        if (metric.name === null) out[metric.kind] = value;
        else out[metric.kind] = { ...((out[metric.kind] as Record<string, unknown> | undefined) ?? {}), [metric.name]: value };
      });
      return out;
    });
}

export function compileAggregate(plan: AggregatePlan, dialect: BoundDialect): CompiledAggregate {
  const ctx: CompileContext = { dialect, root: plan.root.entity, rootAlias: ROOT_ALIAS, joins: plan.joins };
  const keys = plan.groups.map((_g, i) => column(groupAlias(i)));
  const select = join([...keys, ...plan.metrics.map((m, i) => sql`${metricSql(dialect, m, i)} AS ${ident(metricAlias(i))}`)]);
  const assemble = assembler(plan, dialect.capabilities.jsonArrivesAsText);
  // Without groupBy there is exactly one row (an aggregate over no rows still answers one): no paging in SQL.
  if (keys.length === 0) return { page: sql`SELECT ${select} FROM ${derived(ctx, plan, true)}`, count: null, assemble };
  const grouped = sql`FROM ${derived(ctx, plan, true)} GROUP BY ${join(keys)}`;
  const order = join(plan.order.map((term) => orderSql(dialect, plan, term)));
  const page = sql`SELECT ${select} ${grouped} ORDER BY ${order}${dialect.sql.paginate(plan.size, plan.page * plan.size)}`;
  const groups = sql`SELECT ${join(keys)} FROM ${derived(ctx, plan, false)} GROUP BY ${join(keys)}`;
  return { page, count: sql`SELECT COUNT(*) AS ${ident('total')} FROM (${groups}) ${ident('n')}`, assemble };
}
