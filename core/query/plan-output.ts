/**
 * The shape of each returned record: which relationships are expanded (spec "Expansion rules")
 * and which fields are kept (spec "Field selection rules", DESIGN §12).
 */
import { ApiError, badRequest } from '../errors.ts';
import type { Entity } from '../schema/model.ts';
import type { ComputedField, OutputNode, ReadScope, ViewShape } from './plan.ts';
import { findManyToOne, manyToOne, ROOT_ALIAS, type JoinRegistry } from './joins.ts';
import { findComputed, requireFormulaJoins, valueNames, viewAt } from './resolve.ts';

type Paths = readonly (readonly string[])[];

interface Selection {
  all: boolean;
  names: Set<string>;
  children: Map<string, Selection>;
}

function checkHop(entity: Entity, view: ViewShape, hop: string, expression: string): void {
  const relationship = findManyToOne(entity, hop);
  const allowed = view.options.expandable ?? manyToOne(entity).map((r) => r.name);
  if (!relationship || !allowed.includes(hop)) {
    const list = allowed.length > 0 ? allowed.join(', ') : '(none)';
    throw badRequest(`cannot expand '${expression}': '${hop}' is not an expandable relationship of '${entity.name}'; allowed: ${list}`);
  }
}

export function migrationBlocksReads(view: ViewShape): void {
  const flag = view.migration;
  if (flag?.blocksReads) {
    throw new ApiError('SCHEMA_MIGRATION_IN_PROGRESS', `entity '${view.entity.name}' is being migrated; reads are blocked`, undefined, {
      retryAfterSeconds: flag.retryAfterSeconds,
      blocksReads: flag.blocksReads,
      blocksWrites: flag.blocksWrites,
    });
  }
}

/** Validates and registers every expansion; returns the expanded paths as dotted keys. */
export function planExpansions(scope: ReadScope, joins: JoinRegistry, expand: Paths): Set<string> {
  const maxDepth = scope.root.options.maxExpandDepth;
  const expanded = new Set<string>();
  for (const path of expand) {
    const expression = path.join('.');
    if (path.length > maxDepth) {
      throw badRequest(`expansion '${expression}' is ${path.length} levels deep; the maximum expand depth of '${scope.root.entity.name}' is ${maxDepth}`);
    }
    for (let i = 0; i < path.length; i++) {
      const parentPath = path.slice(0, i);
      const parentView = viewAt(scope, joins, parentPath);
      checkHop(parentView.entity, parentView, path[i] ?? '', expression);
      const node = joins.require(path.slice(0, i + 1));
      migrationBlocksReads(scope.defaultView(node.entity.name));
      expanded.add(path.slice(0, i + 1).join('.'));
    }
  }
  return expanded;
}

function emptySelection(all: boolean): Selection {
  return { all, names: new Set(), children: new Map() };
}

type ViewOf = (path: readonly string[]) => ViewShape;

function addFieldPath(selection: Selection, path: readonly string[], at: readonly string[], expanded: Set<string>, viewOf: ViewOf, requested: string): void {
  const [head, ...rest] = path;
  if (head === undefined) return;
  const view = viewOf(at);
  const childKey = [...at, head].join('.');
  const isRelationship = findManyToOne(view.entity, head) !== undefined;
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

function buildNode(scope: ReadScope, joins: JoinRegistry, path: readonly string[], selection: Selection, expanded: Set<string>): OutputNode {
  const view = viewAt(scope, joins, path);
  const keep = (name: string): boolean => selection.all || selection.names.has(name);
  const computed: ComputedField[] = view.computed.filter((c) => keep(c.fieldName));
  for (const column of computed) requireFormulaJoins(joins, path, column);
  const children = new Map<string, OutputNode>();
  for (const relationship of manyToOne(view.entity)) {
    const childPath = [...path, relationship.name];
    if (!expanded.has(childPath.join('.'))) continue;
    const childSelection = selection.all ? emptySelection(true) : selection.children.get(relationship.name);
    if (childSelection) children.set(relationship.name, buildNode(scope, joins, childPath, childSelection, expanded));
  }
  return {
    alias: path.length === 0 ? ROOT_ALIAS : joins.aliasAt(path),
    view,
    fields: view.entity.fields.filter((f) => keep(f.name)),
    computed,
    children,
  };
}

export function planOutput(scope: ReadScope, joins: JoinRegistry, expanded: Set<string>, fields: Paths | null): OutputNode {
  const selection = emptySelection(fields === null);
  const viewOf: ViewOf = (at) => viewAt(scope, joins, at);
  for (const path of fields ?? []) addFieldPath(selection, path, [], expanded, viewOf, path.join('.'));
  return buildNode(scope, joins, [], selection, expanded);
}
