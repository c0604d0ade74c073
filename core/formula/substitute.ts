/**
 * Tree rewriting for formulas that reuse other formulas: a `where` that names a computed column
 * reads the column's own tree in its place (core/query/where.ts). Positions are kept, so the
 * checker still points at the text the user wrote.
 */
import type { Expr, ExprKind, ExprOf } from './ast.ts';
import { positionOf, setPosition, type FormulaPosition } from './errors.ts';

type Visit = (node: Expr) => Expr;

const rebuild: { readonly [K in ExprKind]: (node: ExprOf<K>, f: Visit) => Expr } = {
  Number: (n) => ({ ...n }),
  String: (n) => ({ ...n }),
  Boolean: (n) => ({ ...n }),
  Null: (n) => ({ ...n }),
  Field: (n) => ({ ...n }),
  Negate: (n, f) => ({ ...n, operand: f(n.operand) }),
  Not: (n, f) => ({ ...n, operand: f(n.operand) }),
  Arithmetic: (n, f) => ({ ...n, left: f(n.left), right: f(n.right) }),
  Concat: (n, f) => ({ ...n, left: f(n.left), right: f(n.right) }),
  Compare: (n, f) => ({ ...n, left: f(n.left), right: f(n.right) }),
  Logical: (n, f) => ({ ...n, left: f(n.left), right: f(n.right) }),
  IsNull: (n, f) => ({ ...n, operand: f(n.operand) }),
  Like: (n, f) => ({ ...n, operand: f(n.operand), pattern: f(n.pattern) }),
  In: (n, f) => ({ ...n, operand: f(n.operand), list: n.list.map(f) }),
  Between: (n, f) => ({ ...n, operand: f(n.operand), low: f(n.low), high: f(n.high) }),
  Case: (n, f) => ({
    ...n,
    operand: n.operand ? f(n.operand) : null,
    whens: n.whens.map((w) => ({ when: f(w.when), then: f(w.then) })),
    otherwise: n.otherwise ? f(n.otherwise) : null,
  }),
  Call: (n, f) => ({ ...n, args: n.args.map(f) }),
  Cast: (n, f) => ({ ...n, operand: f(n.operand) }),
};

/** A copy of `node` in which `replace` may swap any node (children first); positions are kept. */
export function mapFormula(node: Expr, replace: Visit): Expr {
  const copy = (rebuild[node.kind] as (n: Expr, f: Visit) => Expr)(node, (child) => mapFormula(child, replace));
  return replace(setPosition(copy, positionOf(node)));
}

/** A copy of `node` whose every node sits at `position` (a tree inlined where a name was written). */
export function relocateFormula(node: Expr, position: FormulaPosition): Expr {
  return mapFormula(node, (n) => setPosition({ ...n }, position));
}
