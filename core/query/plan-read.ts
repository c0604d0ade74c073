/**
 * ReadRequest + schema → ReadPlan. Every name is checked here; nothing unknown reaches SQL. A
 * one-to-many expansion becomes a plan of its own (an ArrayNode) for the items' statement.
 */
import type { CountMode } from '../schema/entity-options.ts';
import type { Field, Relationship } from '../schema/model.ts';
import { badRequest } from '../errors.ts';
import { arrayLink, JoinRegistry } from './joins.ts';
import type { ArrayNode, OrderTerm, Predicate, ReadPlan, ReadScope } from './plan.ts';
import { buildNode, planSelection, type Selection } from './plan-output.ts';
import { joinsUnder, migrationBlocksReads, planExpansions, viewAlong, type Expansions } from './expand.ts';
import { DEFAULT_ARRAY_SIZE, type ArrayRequests, type FilterRequest, type ReadRequest, type SortRequest } from './request.ts';
import { relatedScope, requireFormulaJoins, resolveTarget, viewAt } from './resolve.ts';
import { refuseArraySort, rowConditions } from './plan-filter.ts';
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

/** `what` names the parameter in messages: `sort`, or `expandSort[orders]` for an array's items. */
function planOrder(scope: ReadScope, joins: JoinRegistry, sort: readonly SortRequest[], what = 'sort'): OrderTerm[] {
  // A key sorted twice is sorted by its first mention (SQL Server refuses a repeated ORDER BY key).
  const keys = sort.map((term) => term.path.join('.'));
  const terms = sort.filter((_term, i) => keys.indexOf(keys[i] ?? '') === i);
  for (const term of terms) refuseArraySort(scope, term.path, what);
  const order: OrderTerm[] = terms.map((term) => ({
    target: resolveTarget(scope, joins, [], term.path, what),
    direction: term.direction,
  }));
  for (const term of order) if (term.target.kind === 'computed') requireFormulaJoins(joins, term.target.hops, term.target.computed);
  const idField = scope.root.entity.idField;
  const sortsById = order.some((t) => t.target.kind === 'field' && t.target.hops.length === 0 && t.target.field === idField);
  // A stable tiebreak so that pages never overlap (DESIGN §6).
  if (!sortsById) order.push({ target: { kind: 'field', hops: [], field: idField }, direction: 'asc' });
  return order;
}

/** What one statement reads: the request for the root, the array options for items. */
interface StatementRead {
  readonly sort: readonly SortRequest[];
  readonly filters: readonly FilterRequest[];
  readonly where: string | undefined;
  readonly extra: readonly Predicate[];
  readonly page: number;
  readonly size: number;
  readonly countMode: CountMode;
}

/** The whole request's expansions and array options, shared by every statement it plans. */
interface Tree {
  readonly expansions: Expansions;
  readonly arrays: ArrayRequests;
  /** The path of the statement being planned from the request root. */
  readonly base: readonly string[];
}

function planStatement(scope: ReadScope, tree: Tree, read: StatementRead, selection: Selection): ReadPlan {
  const joins = new JoinRegistry(scope);
  for (const path of joinsUnder(tree.expansions, tree.base)) joins.require(path);
  const output = buildNode({
    joins,
    base: tree.base,
    expansions: tree.expansions,
    viewOf: (path) => viewAt(scope, joins, path),
    planArray: (path, relationship, items) => planArray(scope, joins, tree, path, relationship, items),
  }, [], selection);
  const whereLabel = tree.base.length > 0 ? `expandWhere[${tree.base.join('.')}]` : 'where';
  const where = rowConditions(scope, joins, { extra: read.extra, filters: read.filters, where: read.where, whereLabel });
  return {
    root: scope.root,
    joins: joins.joins,
    output,
    where,
    order: planOrder(scope, joins, read.sort, tree.base.length > 0 ? `expandSort[${tree.base.join('.')}]` : 'sort'),
    page: read.page,
    size: read.size,
    countMode: read.countMode,
  };
}

/** The items of `relationship` of the node at `path` of the statement: a statement of their own. */
function planArray(scope: ReadScope, joins: JoinRegistry, tree: Tree, path: readonly string[], relationship: Relationship, selection: Selection): ArrayNode {
  const base = [...tree.base, ...path, relationship.name];
  const key = base.join('.');
  const parent = joins.entityAt(path);
  const itemScope = relatedScope(scope, relationship.target);
  const itemView = itemScope.root;
  const size = tree.arrays.size.get(key) ?? DEFAULT_ARRAY_SIZE;
  const read: StatementRead = { sort: tree.arrays.sort.get(key) ?? [], filters: [], where: tree.arrays.where.get(key), extra: [], page: 0, size, countMode: 'none' };
  const { parentField, itemField } = arrayLink(parent, itemView.entity, relationship);
  return { name: relationship.name, key, parentField, itemField, size, plan: planStatement(itemScope, { ...tree, base }, read, selection) };
}

const NO_ARRAYS: ArrayRequests = { size: new Map(), sort: new Map(), where: new Map() };

/** Every `expandSize/expandSort/expandWhere[path]` must name an expanded one-to-many path. */
function checkArrayRequests(arrays: ArrayRequests, expansions: Expansions): void {
  const named = [...arrays.size.keys()].map((k) => ['expandSize', k]).concat([...arrays.sort.keys()].map((k) => ['expandSort', k]), [...arrays.where.keys()].map((k) => ['expandWhere', k]));
  for (const [name, key] of named) {
    if (!expansions.arrays.has(key ?? '')) {
      const known = [...expansions.arrays].join(', ') || '(none)';
      throw badRequest(`'${name}[${key}]' names no expanded one-to-many path; expanded arrays: ${known}`);
    }
  }
}

/**
 * Every expandSort and expandWhere is checked like sort and where, also for an array that
 * `fields` leaves out (no statement reads its items): a bad one is 400 whether or not the array
 * is returned.
 */
function checkArrayOptions(scope: ReadScope, arrays: ArrayRequests): void {
  for (const key of new Set([...arrays.sort.keys(), ...arrays.where.keys()])) {
    const itemScope = relatedScope(scope, viewAlong(scope, key.split('.')).entity.name);
    const joins = new JoinRegistry(itemScope);
    planOrder(itemScope, joins, arrays.sort.get(key) ?? [], `expandSort[${key}]`);
    planWhere(itemScope, joins, arrays.where.get(key), `expandWhere[${key}]`);
  }
}

function expandSizes(expansions: Expansions, arrays: ArrayRequests): { expandSizes?: Record<string, number> } {
  if (expansions.arrays.size === 0) return {};
  return { expandSizes: Object.fromEntries([...expansions.arrays].map((key) => [key, arrays.size.get(key) ?? DEFAULT_ARRAY_SIZE])) };
}

export interface PlanReadOptions {
  /** Extra root predicates (get by id). */
  readonly where?: readonly Predicate[];
}

export function planRead(scope: ReadScope, request: ReadRequest, options: PlanReadOptions = {}): ReadPlan {
  migrationBlocksReads(scope.root);
  const expand = request.expand ?? splitPaths(scope.root.options.defaultExpand) ?? [];
  const expansions = planExpansions(scope, expand);
  const arrays = request.arrays ?? NO_ARRAYS;
  checkArrayRequests(arrays, expansions);
  checkArrayOptions(scope, arrays);
  const selection = planSelection(expansions, (path) => viewAlong(scope, path), request.fields ?? defaultFields(scope, expansions.paths));
  const read: StatementRead = {
    sort: request.sort,
    filters: request.filters,
    where: request.where,
    extra: options.where ?? [],
    page: request.page,
    size: request.size,
    countMode: request.count ?? scope.root.options.countMode ?? 'exact',
  };
  return { ...planStatement(scope, { expansions, arrays, base: [] }, read, selection), ...expandSizes(expansions, arrays) };
}

/** The predicate `id = value` on the root entity. */
export function idPredicate(idField: Field, id: unknown): Predicate {
  return { target: { kind: 'field', hops: [], field: idField }, op: 'eq', value: id };
}
