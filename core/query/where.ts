/**
 * `where=<formula>` (DESIGN §13): a boolean formula of §7 becomes one predicate of the read plan.
 * Same lexer, parser, gate 1 and checker as computed columns, plus the limits of "§13–14 exact
 * answers" (4,096 characters, syntax depth 64). Every refusal is 400 INVALID_FORMULA with the
 * position and reason a column formula gives.
 *
 * Names: fields of the root entity, `rel.field` through many-to-one relationships (up to the
 * entity's maxExpandDepth, as for its computed columns) and the computed columns of the view
 * being read: the same names `filter[...]` accepts, so a `where` can read nothing a filter
 * could not. A computed column is inlined as its own checked tree and checked again in place.
 */
import {
  checkFormula,
  emitFormula,
  formulaError,
  mapFormula,
  MAX_NESTING,
  parseFormula,
  positionOf,
  relocateFormula,
  type CheckedFormula,
  type Expr,
} from '../formula/index.ts';
import type { Entity, SchemaModel } from '../schema/model.ts';
import type { JoinRegistry } from './joins.ts';
import type { ComputedField, Predicate, ReadScope, ViewShape } from './plan.ts';
import { requireFormulaJoins } from './resolve.ts';

export const MAX_WHERE_LENGTH = 4096;
/** The syntax depth every formula is held to (parseFormula refuses beyond it). */
export const MAX_WHERE_DEPTH = MAX_NESTING;

function isEntityField(entity: Entity, name: string): boolean {
  return entity.fieldsByName.has(name) || entity.fields.some((f) => f.column === name);
}

/** The computed column a one-segment name means, when it is not a field of the entity. */
function computedNamed(view: ViewShape, path: readonly string[]): ComputedField | undefined {
  const [name, ...rest] = path;
  if (name === undefined || rest.length > 0 || isEntityField(view.entity, name)) return undefined;
  return view.computed.find((c) => c.fieldName === name);
}

/** Replaces each name of a computed column by the column's tree; a broken column reads as NULL. */
function inlineComputed(ast: Expr, view: ViewShape): Expr {
  if (view.computed.length === 0) return ast;
  return mapFormula(ast, (node) => {
    if (node.kind !== 'Field') return node;
    const column = computedNamed(view, node.path);
    if (!column) return node;
    const tree: Expr = column.broken || !column.ast ? { kind: 'Null' } : column.ast;
    return relocateFormula(tree, positionOf(node));
  });
}

function checkLength(text: string, what: string): void {
  if (text.length > MAX_WHERE_LENGTH) throw formulaError('too_long', `'${what}' is longer than ${MAX_WHERE_LENGTH} characters`);
}

/** Parses and checks a `where` against the view it reads; it must type to boolean. */
export function checkWhere(text: string, view: ViewShape, model: SchemaModel, what = 'where'): CheckedFormula {
  checkLength(text, what);
  const parsed = parseFormula(text);
  const checked = checkFormula(inlineComputed(parsed, view), { entity: view.entity, model, maxDepth: view.options.maxExpandDepth });
  if (checked.type !== 'boolean') {
    throw formulaError('type_mismatch', `'${what}' must be a boolean condition, got ${checked.type}`, positionOf(checked.ast));
  }
  return checked;
}

/**
 * A checked boolean formula rooted at the entity reached by `hops` → a predicate of the read
 * plan. `guards` are the row policy's predicates on that entity: the formula is evaluated only
 * on rows they admit, so an error it raises (a CAST that fails) cannot reveal a hidden row.
 */
export function wherePredicate(checked: CheckedFormula, hops: readonly string[], guards: readonly Predicate[]): Predicate {
  const computed: ComputedField = {
    fieldName: 'where',
    valueType: 'boolean',
    refs: checked.refs,
    emit: (columnRef, formula) => emitFormula(checked, { dialect: formula, columnRef, as: 'predicate' }),
    broken: null,
  };
  return { target: { kind: 'computed', hops, computed }, op: 'holds', value: guards };
}

/**
 * Checked formulas by view and text. Parsing and checking cost about 200 µs a request (bench G),
 * far more than the statement; a view shape lives as long as its workspace's loaded schema, so
 * keying by the shape object drops the entries when the schema changes.
 */
const CHECKED_PER_VIEW = 256;
const checkedByView = new WeakMap<ViewShape, Map<string, CheckedFormula>>();

function checkWhereCached(text: string, view: ViewShape, model: SchemaModel, what: string): CheckedFormula {
  const cache = checkedByView.get(view) ?? new Map<string, CheckedFormula>();
  checkedByView.set(view, cache);
  const hit = cache.get(text);
  if (hit) return hit;
  const checked = checkWhere(text, view, model, what);
  if (cache.size >= CHECKED_PER_VIEW) cache.clear();
  cache.set(text, checked);
  return checked;
}

/** The plan step: the request's `where` on the root, its joins registered. */
/** `what` names the parameter in messages: `where`, or `expandWhere[orders]` for an array's items. */
export function planWhere(scope: ReadScope, joins: JoinRegistry, text: string | undefined, what = 'where'): Predicate[] {
  if (text === undefined) return [];
  const checked = checkWhereCached(text, scope.root, scope.model, what);
  const predicate = wherePredicate(checked, [], scope.policy.rowPredicates(scope.root.entity));
  if (predicate.target.kind === 'computed') requireFormulaJoins(joins, [], predicate.target.computed);
  return [predicate];
}
