/**
 * AggregateRequest + schema → AggregatePlan (DESIGN §14 "Aggregates"). Group keys and metric
 * fields resolve like sort and filter paths (many-to-one hops, computed columns of the view read);
 * the rows grouped are exactly the rows the list would return: row policy, filters and `where`.
 */
import { badRequest } from '../errors.ts';
import type { ColumnType } from '../schema/introspection.ts';
import { migrationBlocksReads } from './expand.ts';
import { targetName, targetType } from './filter-values.ts';
import { JoinRegistry } from './joins.ts';
import type { JoinNode, Predicate, ReadScope, Target, ViewShape } from './plan.ts';
import { rowConditions } from './plan-filter.ts';
import { requireFormulaJoins, resolveTarget, viewAt } from './resolve.ts';
import type { SortDirection } from './request.ts';
import { metricKey, type AggregateRequest, type AggregateSortRequest, type MetricKind, type MetricRequest } from './aggregate-request.ts';

export interface GroupKey {
  /** The key in `group` of the answer: the path as requested (`customer.regionId`). */
  readonly name: string;
  readonly target: Target;
}

export interface MetricPlan {
  readonly kind: MetricKind;
  /** The key under the metric family (`sum: {amount: …}`); null for `count`. */
  readonly name: string | null;
  /** The value aggregated; null for `count` (rows). */
  readonly target: Target | null;
}

/** An ORDER BY term: a group key or a metric, by index into the plan's lists. */
export interface AggregateOrderTerm {
  readonly ref: { readonly kind: 'group' | 'metric'; readonly index: number };
  readonly direction: SortDirection;
}

export interface AggregatePlan {
  readonly root: ViewShape;
  readonly joins: ReadonlyMap<string, JoinNode>;
  readonly where: readonly Predicate[];
  readonly groups: readonly GroupKey[];
  readonly metrics: readonly MetricPlan[];
  /** The requested order, then every group key not yet in it (ascending): pages never overlap. */
  readonly order: readonly AggregateOrderTerm[];
  readonly page: number;
  readonly size: number;
}

const NUMERIC: ReadonlySet<ColumnType> = new Set(['integer', 'bigint', 'decimal', 'float']);
/** What MIN and MAX order on every vendor (no MIN of a boolean or a uuid in PostgreSQL). */
const ORDERED: ReadonlySet<ColumnType> = new Set([...NUMERIC, 'date', 'timestamp', 'time', 'text']);
/** What equality groups on every vendor (PostgreSQL's json has no equality). */
const UNCOMPARABLE: ReadonlySet<ColumnType> = new Set(['json', 'binary', 'unknown']);

/** Resolves a path for `what`, registering its joins; refuses a value the operation cannot take. */
function valueTarget(scope: ReadScope, joins: JoinRegistry, path: readonly string[], what: string): Target {
  const target = resolveTarget(scope, joins, [], path, what);
  if (target.kind === 'computed') requireFormulaJoins(joins, target.hops, target.computed);
  // A value read from a related entity is output of that entity: its migration blocks it as an expansion would.
  migrationBlocksReads(viewAt(scope, joins, target.hops));
  return target;
}

function requireType(target: Target, allowed: (type: ColumnType) => boolean, what: string, needs: string): void {
  const type = targetType(target);
  if (!allowed(type)) throw badRequest(`${what}: '${targetName(target)}' is ${type === 'float' && target.kind === 'computed' ? 'a number' : type}; ${needs}`);
}

function planGroup(scope: ReadScope, joins: JoinRegistry, path: readonly string[]): GroupKey {
  const target = valueTarget(scope, joins, path, 'groupBy');
  requireType(target, (t) => !UNCOMPARABLE.has(t), 'groupBy', 'only values that compare for equality can be grouped');
  return { name: path.join('.'), target };
}

const NEEDS: Record<Exclude<MetricKind, 'count'>, [allowed: (type: ColumnType) => boolean, needs: string]> = {
  countDistinct: [(t) => !UNCOMPARABLE.has(t), 'only values that compare for equality can be counted distinctly'],
  sum: [(t) => NUMERIC.has(t), 'sum takes a numeric field'],
  avg: [(t) => NUMERIC.has(t), 'avg takes a numeric field'],
  min: [(t) => ORDERED.has(t), 'min takes a number, text, date, time or timestamp'],
  max: [(t) => ORDERED.has(t), 'max takes a number, text, date, time or timestamp'],
};

function planMetric(scope: ReadScope, joins: JoinRegistry, metric: MetricRequest): MetricPlan {
  if (metric.kind === 'count' || !metric.path) return { kind: 'count', name: null, target: null };
  const what = `metrics: ${metricKey(metric)}`;
  const target = valueTarget(scope, joins, metric.path, what);
  const [allowed, needs] = NEEDS[metric.kind];
  requireType(target, allowed, what, needs);
  return { kind: metric.kind, name: metric.path.join('.'), target };
}

function sortKeyOf(term: AggregateSortRequest): string {
  return term.key.kind === 'group' ? term.key.path.join('.') : metricKey(term.key.metric);
}

/** Which group key or requested metric a sort term names; anything else is a 400. */
function orderRef(groups: readonly GroupKey[], metrics: readonly MetricRequest[], term: AggregateSortRequest): AggregateOrderTerm['ref'] {
  const key = sortKeyOf(term);
  const metric = metrics.findIndex((m) => metricKey(m) === key);
  if (term.key.kind === 'metric' && metric >= 0) return { kind: 'metric', index: metric };
  // `count` is the metric when it is requested; otherwise it may still be a field named count.
  const group = groups.findIndex((g) => g.name === key);
  if (group >= 0) return { kind: 'group', index: group };
  const keys = [...groups.map((g) => g.name), ...metrics.map(metricKey)];
  throw badRequest(`sort: '${key}' is neither a group key nor a requested metric; sort by one of: ${keys.join(', ') || '(none)'}`);
}

function planOrder(groups: readonly GroupKey[], metrics: readonly MetricRequest[], sort: readonly AggregateSortRequest[]): AggregateOrderTerm[] {
  // A key sorted twice is sorted by its first mention, as in the list (SQL Server refuses a repeat).
  const keys = sort.map(sortKeyOf);
  const order = sort.filter((_t, i) => keys.indexOf(keys[i] ?? '') === i).map((term) => ({ ref: orderRef(groups, metrics, term), direction: term.direction }));
  groups.forEach((_g, index) => {
    if (!order.some((t) => t.ref.kind === 'group' && t.ref.index === index)) order.push({ ref: { kind: 'group', index }, direction: 'asc' });
  });
  return order;
}

export function planAggregate(scope: ReadScope, request: AggregateRequest): AggregatePlan {
  migrationBlocksReads(scope.root);
  const joins = new JoinRegistry(scope);
  const groups = request.groupBy.map((path) => planGroup(scope, joins, path));
  const metrics = request.metrics.map((metric) => planMetric(scope, joins, metric));
  const where = rowConditions(scope, joins, { filters: request.filters, where: request.where });
  return {
    root: scope.root,
    joins: joins.joins,
    where,
    groups,
    metrics,
    order: planOrder(groups, request.metrics, request.sort),
    page: request.page,
    size: request.size,
  };
}
