/** ReadRequest + schema → ReadPlan. Every name is checked here; nothing unknown reaches SQL. */
import type { CountMode } from '../schema/entity-options.ts';
import type { Field } from '../schema/model.ts';
import { JoinRegistry } from './joins.ts';
import type { OrderTerm, Predicate, ReadPlan, ReadScope } from './plan.ts';
import { migrationBlocksReads, planExpansions, planOutput } from './plan-output.ts';
import type { ReadRequest } from './request.ts';
import { requireFormulaJoins, resolveTarget } from './resolve.ts';
import { coerceFilterValue } from './filter-values.ts';
import { planWhere } from './where.ts';

function splitPaths(names: readonly string[] | null): string[][] | null {
  return names ? names.map((n) => n.split('.')) : null;
}

/**
 * The configured default selection, less the relationship fields whose expansion the request left
 * out: an explicit `expand` replaces the default expansion, and the default selection must not then
 * fail the request over a parameter the caller never sent.
 */
function defaultFields(scope: ReadScope, expanded: ReadonlySet<string>): string[][] | null {
  const paths = splitPaths(scope.root.options.defaultFields);
  if (!paths) return null;
  const kept = paths.filter((path) => {
    const relationshipHops = path.length > 1 ? path.slice(0, -1) : scope.root.entity.relationships.has(path[0] ?? '') ? path : [];
    return relationshipHops.length === 0 || expanded.has(relationshipHops.join('.'));
  });
  return kept.length > 0 ? kept : null;
}

function planOrder(scope: ReadScope, joins: JoinRegistry, request: ReadRequest): OrderTerm[] {
  // A key sorted twice is sorted by its first mention (SQL Server refuses a repeated ORDER BY key).
  const keys = request.sort.map((term) => term.path.join('.'));
  const terms = request.sort.filter((_term, i) => keys.indexOf(keys[i] ?? '') === i);
  const order: OrderTerm[] = terms.map((term) => ({
    target: resolveTarget(scope, joins, [], term.path, 'sort'),
    direction: term.direction,
  }));
  for (const term of order) if (term.target.kind === 'computed') requireFormulaJoins(joins, term.target.hops, term.target.computed);
  const idField = scope.root.entity.idField;
  const sortsById = order.some((t) => t.target.kind === 'field' && t.target.hops.length === 0 && t.target.field === idField);
  // A stable tiebreak so that pages never overlap (DESIGN §6).
  if (!sortsById) order.push({ target: { kind: 'field', hops: [], field: idField }, direction: 'asc' });
  return order;
}

function planFilters(scope: ReadScope, joins: JoinRegistry, request: ReadRequest): Predicate[] {
  return request.filters.map((filter) => {
    const target = resolveTarget(scope, joins, [], filter.path, 'filter');
    if (target.kind === 'computed') requireFormulaJoins(joins, target.hops, target.computed);
    return { target, op: filter.op, value: coerceFilterValue(target, filter.op, filter.value) };
  });
}

function countModeOf(scope: ReadScope, request: ReadRequest): CountMode {
  return request.count ?? scope.root.options.countMode ?? 'exact';
}

export interface PlanReadOptions {
  /** Extra root predicates (get by id). */
  readonly where?: readonly Predicate[];
}

export function planRead(scope: ReadScope, request: ReadRequest, options: PlanReadOptions = {}): ReadPlan {
  migrationBlocksReads(scope.root);
  const joins = new JoinRegistry(scope);
  const expand = request.expand ?? splitPaths(scope.root.options.defaultExpand) ?? [];
  const expanded = planExpansions(scope, joins, expand);
  const output = planOutput(scope, joins, expanded, request.fields ?? defaultFields(scope, expanded));
  const where = [
    ...scope.policy.rowPredicates(scope.root.entity),
    ...(options.where ?? []),
    ...planFilters(scope, joins, request),
    ...planWhere(scope, joins, request.where),
  ];
  return {
    root: scope.root,
    joins: joins.joins,
    output,
    where,
    order: planOrder(scope, joins, request),
    page: request.page,
    size: request.size,
    countMode: countModeOf(scope, request),
  };
}

/** The predicate `id = value` on the root entity. */
export function idPredicate(idField: Field, id: unknown): Predicate {
  return { target: { kind: 'field', hops: [], field: idField }, op: 'eq', value: id };
}
