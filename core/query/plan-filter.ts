/**
 * One `filter[path.op]=value` → one predicate. A path through a one-to-many relationship
 * (`filter[orders.status.eq]=paid` on customers) keeps the parents having at least one such
 * related row that the row policy lets the caller see: an EXISTS subquery (DESIGN §13).
 */
import { badRequest } from '../errors.ts';
import type { Entity, Relationship } from '../schema/model.ts';
import { coerceFilterValue } from './filter-values.ts';
import { arrayLink, type JoinRegistry } from './joins.ts';
import type { ExistsPlan, Predicate, ReadScope } from './plan.ts';
import type { FilterRequest } from './request.ts';
import { relatedScope, requireFormulaJoins, resolveTarget } from './resolve.ts';
import { planWhere } from './where.ts';

/** The first one-to-many hop of `path` reached through many-to-one hops only, or null. */
function firstArrayHop(scope: ReadScope, path: readonly string[]): { at: number; relationship: Relationship } | null {
  let entity: Entity = scope.root.entity;
  for (let i = 0; i < path.length - 1; i++) {
    const relationship = entity.relationships.get(path[i] ?? '');
    if (!relationship) return null;
    if (relationship.kind === 'oneToMany') return { at: i, relationship };
    entity = scope.defaultView(relationship.target).entity;
  }
  return null;
}

export function planFilter(scope: ReadScope, joins: JoinRegistry, filter: FilterRequest): Predicate {
  const hop = firstArrayHop(scope, filter.path);
  if (hop) return planExists(scope, joins, filter, hop.at, hop.relationship);
  const target = resolveTarget(scope, joins, [], filter.path, 'filter');
  const value = coerceFilterValue(target, filter.op, filter.value);
  if (target.kind !== 'computed') return { target, op: filter.op, value };
  requireFormulaJoins(joins, target.hops, target.computed);
  return { target, op: filter.op, value, ...guardsAt(scope, joins, target.hops) };
}

/** The row policy of the entity at `hops`, re-rooted there: what a computed column's formula runs behind. */
function guardsAt(scope: ReadScope, joins: JoinRegistry, hops: readonly string[]): { guards?: readonly Predicate[] } {
  const guards = scope.policy.rowPredicates(joins.entityAt(hops)).map((p) => ({ ...p, target: { ...p.target, hops: [...hops, ...p.target.hops] } }));
  return guards.length > 0 ? { guards } : {};
}

function planExists(scope: ReadScope, joins: JoinRegistry, filter: FilterRequest, at: number, relationship: Relationship): Predicate {
  const hops = filter.path.slice(0, at);
  const parent = joins.entityAt(hops);
  const itemScope = relatedScope(scope, relationship.target);
  const itemView = itemScope.root;
  const itemJoins = joins.subquery(itemScope);
  const { parentField, itemField } = arrayLink(parent, itemView.entity, relationship);
  const inner = planFilter(itemScope, itemJoins, { ...filter, path: filter.path.slice(at + 1) });
  const exists: ExistsPlan = {
    entity: itemView.entity,
    rootAlias: itemJoins.rootAlias,
    joins: itemJoins.joins,
    itemField,
    where: [...scope.policy.rowPredicates(itemView.entity), inner],
  };
  return { target: { kind: 'field', hops, field: parentField }, op: 'exists', value: exists };
}

/** Sorting needs one value per row; a one-to-many path has many (DESIGN §13). */
export function refuseArraySort(scope: ReadScope, path: readonly string[], what: string): void {
  const hop = firstArrayHop(scope, path);
  if (hop) {
    throw badRequest(`${what}: '${path.join('.')}' runs through the one-to-many relationship '${hop.relationship.name}'; sort by fields of the record or of its many-to-one relationships`);
  }
}

/** What narrows the rows of a read besides the row policy. `whereLabel` names `where` in messages. */
export interface RowNarrowing {
  readonly extra?: readonly Predicate[];
  readonly filters: readonly FilterRequest[];
  readonly where: string | undefined;
  readonly whereLabel?: string;
}

/** The conditions every row of a read (list, array items, aggregate) must meet, ANDed: policy first. */
export function rowConditions(scope: ReadScope, joins: JoinRegistry, narrowing: RowNarrowing): Predicate[] {
  return [
    ...scope.policy.rowPredicates(scope.root.entity),
    ...(narrowing.extra ?? []),
    ...narrowing.filters.map((filter) => planFilter(scope, joins, filter)),
    ...planWhere(scope, joins, narrowing.where, narrowing.whereLabel),
  ];
}
