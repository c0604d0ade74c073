/** PATCH of entity options (DESIGN §10, §12): each option checked against the entity model. */
import type { Entity, SchemaModel } from '../schema/model.ts';
import { PayloadReader } from '../payload.ts';
import type { CountMode, EntityOptions, EventCapture } from '../schema/entity-options.ts';

const OPTION_KEYS = ['defaultExpand', 'expandable', 'maxExpandDepth', 'defaultFields', 'countMode', 'constraints', 'validators', 'events'];
/** `database` (row triggers) is part of the option's type but not built yet: refused until it is. */
const EVENT_CAPTURES_OFFERED = ['off', 'api'];
const COUNT_MODES: readonly CountMode[] = ['exact', 'estimated', 'none'];

/** Relationships of both directions: one-to-many arrays are expandable too (DESIGN §13). */
function relationshipNames(entity: Entity): string[] {
  return [...entity.relationships.keys()];
}

function checkExpandPath(reader: PayloadReader, model: SchemaModel, entity: Entity, path: string): void {
  let current: Entity | undefined = entity;
  for (const hop of path.split('.')) {
    const relationship = current?.relationships.get(hop);
    if (!current || !relationship) {
      reader.fail('defaultExpand', 'relationship', `'${path}' is not a relationship path of '${entity.name}'`);
      return;
    }
    current = model.entities.get(relationship.target);
  }
}

function checkObjectOption(reader: PayloadReader, key: 'constraints' | 'validators'): unknown {
  const value = reader.body[key];
  if (value === undefined || value === null) return value;
  const ok = key === 'constraints' ? Array.isArray(value) : typeof value === 'object' && !Array.isArray(value);
  if (!ok) return reader.fail(key, 'type', key === 'constraints' ? 'must be an array or null' : 'must be an object or null');
  return value;
}

export function applyEntityOptions(current: EntityOptions, body: unknown, entity: Entity, model: SchemaModel): EntityOptions {
  const reader = new PayloadReader(body, OPTION_KEYS);
  const next: EntityOptions = { ...current };
  const defaultExpand = reader.stringList('defaultExpand');
  if (defaultExpand !== undefined) {
    for (const path of defaultExpand ?? []) checkExpandPath(reader, model, entity, path);
    next.defaultExpand = defaultExpand;
  }
  const expandable = reader.stringList('expandable');
  if (expandable !== undefined) {
    const known = relationshipNames(entity);
    for (const name of expandable ?? []) if (!known.includes(name)) reader.fail('expandable', 'relationship', `'${name}' is not a relationship of '${entity.name}'; relationships: ${known.join(', ') || '(none)'}`);
    next.expandable = expandable;
  }
  if (reader.has('maxExpandDepth')) {
    if (reader.body.maxExpandDepth === null) next.maxExpandDepth = 3;
    else next.maxExpandDepth = reader.integer('maxExpandDepth', 1, 10) ?? next.maxExpandDepth;
  }
  const defaultFields = reader.stringList('defaultFields');
  if (defaultFields !== undefined) next.defaultFields = defaultFields;
  if (reader.has('countMode')) {
    const mode = reader.body.countMode;
    if (mode !== null && !COUNT_MODES.includes(mode as CountMode)) reader.fail('countMode', 'enum', `must be one of ${COUNT_MODES.join(', ')} or null`);
    else next.countMode = mode as CountMode | null;
  }
  const constraints = checkObjectOption(reader, 'constraints');
  if (constraints !== undefined) next.constraints = constraints as EntityOptions['constraints'];
  const validators = checkObjectOption(reader, 'validators');
  if (validators !== undefined) next.validators = validators as EntityOptions['validators'];
  if (reader.has('events')) {
    const capture = reader.body.events;
    if (capture === 'database') reader.fail('events', 'enum', "'database' (row triggers) is not available yet; use 'off' or 'api'");
    else if (!EVENT_CAPTURES_OFFERED.includes(capture as string)) reader.fail('events', 'enum', `must be one of ${EVENT_CAPTURES_OFFERED.join(', ')}`);
    else next.events = capture as EventCapture;
  }
  reader.done();
  return next;
}
