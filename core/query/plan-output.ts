/**
 * The shape of each returned record: which relationships are expanded (spec "Expansion rules",
 * DESIGN §13) and which fields are kept (spec "Field selection rules", DESIGN §12). Field paths
 * are relative to the request root and may run through arrays (`fields=id,orders.amount`).
 */
import { badRequest } from '../errors.ts';
import type { ArrayNode, ComputedField, OutputNode, ViewShape } from './plan.ts';
import { manyToOne, oneToMany, type JoinRegistry } from './joins.ts';
import { findComputed, requireFormulaJoins, valueNames } from './resolve.ts';
import type { Expansions } from './expand.ts';
import type { Relationship } from '../schema/model.ts';

type Paths = readonly (readonly string[])[];

export interface Selection {
  all: boolean;
  names: Set<string>;
  children: Map<string, Selection>;
}

export function emptySelection(all: boolean): Selection {
  return { all, names: new Set(), children: new Map() };
}

type ViewOf = (path: readonly string[]) => ViewShape;

function addFieldPath(selection: Selection, path: readonly string[], at: readonly string[], expanded: ReadonlySet<string>, viewOf: ViewOf, requested: string): void {
  const [head, ...rest] = path;
  if (head === undefined) return;
  const view = viewOf(at);
  const childKey = [...at, head].join('.');
  const isRelationship = view.entity.relationships.has(head);
  if (isRelationship && !expanded.has(childKey)) {
    throw badRequest(`fields: '${requested}' needs expand=${childKey}`);
  }
  if (rest.length === 0) {
    if (isRelationship) selection.children.set(head, emptySelection(true));
    else if (view.entity.fieldsByName.has(head) || findComputed(view, head)) selection.names.add(head);
    else throw badRequest(`fields: unknown field '${requested}'; fields of '${view.entity.name}': ${valueNames(view).join(', ')}`);
    return;
  }
  if (!isRelationship) throw badRequest(`fields: '${requested}' is not a field; '${head}' is not a relationship of '${view.entity.name}'`);
  const child = selection.children.get(head) ?? emptySelection(false);
  selection.children.set(head, child);
  if (!child.all) addFieldPath(child, rest, [...at, head], expanded, viewOf, requested);
}

/** `fields` (null: everything) as a selection tree over the expanded paths. */
export function planSelection(expansions: Expansions, viewOf: ViewOf, fields: Paths | null): Selection {
  const selection = emptySelection(fields === null);
  for (const path of fields ?? []) addFieldPath(selection, path, [], expansions.paths, viewOf, path.join('.'));
  return selection;
}

/** What one statement needs to build its output tree. */
export interface OutputContext {
  readonly joins: JoinRegistry;
  /** The path of the statement's root from the request root ([] or an array path). */
  readonly base: readonly string[];
  readonly expansions: Expansions;
  readonly viewOf: (path: readonly string[]) => ViewShape;
  /** Plans the items of an expanded one-to-many relationship of the node at `path`. */
  readonly planArray: (path: readonly string[], relationship: Relationship, selection: Selection) => ArrayNode;
}

function childSelection(selection: Selection, name: string): Selection | undefined {
  return selection.all ? emptySelection(true) : selection.children.get(name);
}

export function buildNode(ctx: OutputContext, path: readonly string[], selection: Selection): OutputNode {
  const view = ctx.viewOf(path);
  const keep = (name: string): boolean => selection.all || selection.names.has(name);
  const computed: ComputedField[] = view.computed.filter((c) => keep(c.fieldName));
  for (const column of computed) requireFormulaJoins(ctx.joins, path, column);
  const expanded = (name: string): boolean => ctx.expansions.paths.has([...ctx.base, ...path, name].join('.'));
  const children = new Map<string, OutputNode>();
  for (const relationship of manyToOne(view.entity)) {
    const child = expanded(relationship.name) ? childSelection(selection, relationship.name) : undefined;
    if (child) children.set(relationship.name, buildNode(ctx, [...path, relationship.name], child));
  }
  const arrays = new Map<string, ArrayNode>();
  for (const relationship of oneToMany(view.entity)) {
    const child = expanded(relationship.name) ? childSelection(selection, relationship.name) : undefined;
    if (child) arrays.set(relationship.name, ctx.planArray(path, relationship, child));
  }
  return {
    alias: ctx.joins.aliasAt(path),
    view,
    fields: view.entity.fields.filter((f) => keep(f.name)),
    computed,
    children,
    arrays,
  };
}
