/**
 * Name resolution: a field of the formula's entity, or `rel.field` through many-to-one
 * relationships (DESIGN §7). API names first, then table column names, then a unique
 * case-insensitive match; the result carries the API names so formulas are stored normalised.
 */
import type { Entity, Field, Relationship, SchemaModel } from '../schema/model.ts';
import type { ColumnType } from '../schema/introspection.ts';
import { formulaError, type FormulaPosition } from './errors.ts';
import type { ValueType } from './types.ts';

export interface ResolvedField {
  /** API names: relationships then the field. */
  readonly path: readonly string[];
  readonly entity: Entity;
  readonly field: Field;
  readonly type: ValueType;
}

export const DEFAULT_MAX_DEPTH = 3;

/** Formula type of a column type; null when formulas cannot use the column. */
export function formulaTypeOf(type: ColumnType): ValueType | null {
  switch (type) {
    case 'integer':
    case 'bigint':
    case 'decimal':
    case 'float':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'date':
      return 'date';
    case 'timestamp':
      return 'timestamp';
    case 'text':
    case 'uuid':
    case 'time':
    case 'json':
      return 'text';
    case 'binary':
    case 'unknown':
      return null;
  }
}

function uniqueMatch<T>(items: Iterable<T>, keys: (item: T) => string[], name: string): T | undefined {
  const lower = name.toLowerCase();
  const found = [...items].filter((item) => keys(item).some((k) => k.toLowerCase() === lower));
  return found.length === 1 ? found[0] : undefined;
}

function findField(entity: Entity, name: string): Field | undefined {
  return (
    entity.fieldsByName.get(name) ??
    entity.fields.find((f) => f.column === name) ??
    uniqueMatch(entity.fields, (f) => [f.name, f.column], name)
  );
}

function findRelationship(entity: Entity, name: string): Relationship | undefined {
  return entity.relationships.get(name) ?? uniqueMatch(entity.relationships.values(), (r) => [r.name], name);
}

function targetEntity(model: SchemaModel, rel: Relationship): Entity | undefined {
  return model.entities.get(rel.target) ?? [...model.entities.values()].find((e) => e.table === rel.target);
}

function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let previous = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const current = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, previous + (a[i - 1] === b[j - 1] ? 0 : 1));
      previous = current;
    }
  }
  return row[b.length]!;
}

function suggestion(entity: Entity, name: string): string {
  const names = [...entity.fields.map((f) => f.name), ...entity.relationships.keys()];
  const close = names.filter((n) => distance(n.toLowerCase(), name.toLowerCase()) <= 2);
  return close.length > 0 ? `; did you mean ${close.map((n) => `'${n}'`).join(' or ')}?` : '';
}

function followRelationship(model: SchemaModel, entity: Entity, name: string, position: FormulaPosition): [Relationship, Entity] {
  const rel = findRelationship(entity, name);
  if (!rel) {
    throw formulaError('unknown_field', `unknown relationship '${name}' on entity '${entity.name}'${suggestion(entity, name)}`, position);
  }
  if (rel.kind !== 'manyToOne') {
    throw formulaError('unknown_field', `'${rel.name}' is a one-to-many relationship; formulas follow only many-to-one relationships`, position);
  }
  const target = targetEntity(model, rel);
  if (!target) throw formulaError('unknown_field', `relationship '${rel.name}' leads to an entity that is not exposed`, position);
  return [rel, target];
}

export function resolveField(
  path: readonly string[],
  context: { entity: Entity; model: SchemaModel; maxDepth: number },
  position: FormulaPosition,
): ResolvedField {
  const hops = path.length - 1;
  if (hops > context.maxDepth) {
    throw formulaError(
      'relationship_depth',
      `'${path.join('.')}' follows ${hops} relationships; the maximum is ${context.maxDepth}`,
      position,
    );
  }
  let entity = context.entity;
  const names: string[] = [];
  for (const segment of path.slice(0, -1)) {
    const [rel, target] = followRelationship(context.model, entity, segment, position);
    names.push(rel.name);
    entity = target;
  }
  const last = path[path.length - 1] ?? '';
  const field = findField(entity, last);
  if (!field) {
    const rel = findRelationship(entity, last);
    const message = rel
      ? `'${last}' is a relationship; name one of its fields, e.g. ${[...names, rel.name].join('.')}.id`
      : `unknown field '${last}' on entity '${entity.name}'${suggestion(entity, last)}`;
    throw formulaError('unknown_field', message, position);
  }
  const type = formulaTypeOf(field.type);
  if (!type) throw formulaError('unsupported_field', `field '${field.name}' has type ${field.type}, which formulas cannot use`, position);
  return { path: [...names, field.name], entity, field, type };
}
