/** Resolves dotted field paths (`customer.region.name`) to targets, registering the joins they need. */
import { badRequest } from '../errors.ts';
import type { ComputedField, ReadScope, Target, ViewShape } from './plan.ts';
import { findManyToOne, type JoinRegistry } from './joins.ts';

export function viewAt(scope: ReadScope, joins: JoinRegistry, hops: readonly string[]): ViewShape {
  return hops.length === 0 ? scope.root : scope.defaultView(joins.entityAt(hops).name);
}

/** A scope rooted at another entity's default view (items of an array, rows of an EXISTS), same policy. */
export function relatedScope(scope: ReadScope, entityName: string): ReadScope {
  return { workspaceId: scope.workspaceId, model: scope.model, root: scope.defaultView(entityName), defaultView: scope.defaultView, policy: scope.policy };
}

export function valueNames(view: ViewShape): string[] {
  return [...view.entity.fields.map((f) => f.name), ...view.computed.map((c) => c.fieldName)];
}

export function findComputed(view: ViewShape, name: string): ComputedField | undefined {
  return view.computed.find((c) => c.fieldName === name);
}

/**
 * `base` is the node the path starts from (relationship names from the root).
 * What: a label for messages ('sort', 'filter').
 */
export function resolveTarget(scope: ReadScope, joins: JoinRegistry, base: readonly string[], path: readonly string[], what: string): Target {
  const hops = path.slice(0, -1);
  const name = path[path.length - 1] ?? '';
  let entity = joins.entityAt(base);
  for (const hop of hops) {
    const relationship = findManyToOne(entity, hop);
    if (!relationship) throw badRequest(`${what}: '${path.join('.')}' is not a field; '${hop}' is not a relationship of '${entity.name}'`);
    entity = scope.defaultView(relationship.target).entity;
  }
  const fullHops = [...base, ...hops];
  if (fullHops.length > 0) joins.require(fullHops);
  const view = viewAt(scope, joins, fullHops);
  const field = view.entity.fieldsByName.get(name);
  if (field) return { kind: 'field', hops: fullHops, field };
  const computed = findComputed(view, name);
  if (computed) return { kind: 'computed', hops: fullHops, computed };
  throw badRequest(`${what}: unknown field '${path.join('.')}'; fields of '${view.entity.name}': ${valueNames(view).join(', ')}`);
}

/** Registers the joins a computed column's formula walks, relative to the node at `base`. */
export function requireFormulaJoins(joins: JoinRegistry, base: readonly string[], computed: ComputedField): void {
  for (const ref of computed.refs) {
    const hops = [...base, ...ref.slice(0, -1)];
    if (hops.length > 0) joins.require(hops);
  }
}
