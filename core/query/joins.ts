/**
 * Join bookkeeping for one read: every many-to-one hop gets one alias, shared by expansion,
 * sorting, filtering and formulas that walk the same path.
 */
import { badRequest } from '../errors.ts';
import type { Entity, Field, Relationship } from '../schema/model.ts';
import type { JoinNode, ReadScope } from './plan.ts';

export const ROOT_ALIAS = 't0';

export function manyToOne(entity: Entity): Relationship[] {
  return [...entity.relationships.values()].filter((r) => r.kind === 'manyToOne');
}

export function findManyToOne(entity: Entity, name: string): Relationship | undefined {
  const relationship = entity.relationships.get(name);
  return relationship?.kind === 'manyToOne' ? relationship : undefined;
}

export function findOneToMany(entity: Entity, name: string): Relationship | undefined {
  const relationship = entity.relationships.get(name);
  return relationship?.kind === 'oneToMany' ? relationship : undefined;
}

/** The two ends of a one-to-many relationship: the referenced field on the parent, the foreign key on the item. */
export function arrayLink(parent: Entity, item: Entity, relationship: Relationship): { parentField: Field; itemField: Field } {
  const parentField = parent.fieldsByName.get(relationship.targetField);
  const itemField = item.fieldsByName.get(relationship.field);
  if (!parentField || !itemField) throw new Error(`relationship ${parent.name}.${relationship.name} refers to unknown fields`);
  return { parentField, itemField };
}

export function oneToMany(entity: Entity): Relationship[] {
  return [...entity.relationships.values()].filter((r) => r.kind === 'oneToMany');
}

export class JoinRegistry {
  readonly joins = new Map<string, JoinNode>();
  readonly rootAlias: string;
  private subqueries = 0;

  /** `prefix` keeps the aliases of a subquery (core/query/exists.ts) apart from its statement's. */
  constructor(private readonly scope: ReadScope, private readonly prefix = '') {
    this.rootAlias = prefix === '' ? ROOT_ALIAS : `${prefix}t0`;
  }

  /** A registry for a correlated subquery inside this statement, rooted at `scope`. */
  subquery(scope: ReadScope): JoinRegistry {
    this.subqueries += 1;
    return new JoinRegistry(scope, `${this.prefix}e${this.subqueries}`);
  }

  entityAt(path: readonly string[]): Entity {
    return path.length === 0 ? this.scope.root.entity : this.require(path).entity;
  }

  aliasAt(path: readonly string[]): string {
    return path.length === 0 ? this.rootAlias : this.require(path).alias;
  }

  /** Registers (once) every hop of `path` and returns the last join. */
  require(path: readonly string[]): JoinNode {
    let parentAlias = this.rootAlias;
    let entity = this.scope.root.entity;
    let node: JoinNode | undefined;
    for (let i = 0; i < path.length; i++) {
      const key = path.slice(0, i + 1).join('.');
      node = this.joins.get(key) ?? this.add(key, path.slice(0, i + 1), parentAlias, entity);
      parentAlias = node.alias;
      entity = node.entity;
    }
    if (!node) throw new Error('require() needs a non-empty path');
    return node;
  }

  private add(key: string, path: readonly string[], parentAlias: string, parent: Entity): JoinNode {
    const name = path[path.length - 1] ?? '';
    const relationship = findManyToOne(parent, name);
    if (!relationship) {
      const names = manyToOne(parent).map((r) => r.name);
      throw badRequest(`'${name}' is not a relationship of '${parent.name}'; relationships: ${names.join(', ') || '(none)'}`);
    }
    const view = this.scope.defaultView(relationship.target);
    const entity = view.entity;
    const parentField = parent.fieldsByName.get(relationship.field);
    const targetField = entity.fieldsByName.get(relationship.targetField);
    if (!parentField || !targetField) throw new Error(`relationship ${parent.name}.${name} refers to unknown fields`);
    const node: JoinNode = {
      alias: `${this.prefix}t${this.joins.size + 1}`,
      path,
      parentAlias,
      entity,
      parentField,
      targetField,
      conditions: this.scope.policy.rowPredicates(entity),
    };
    this.joins.set(key, node);
    return node;
  }
}
