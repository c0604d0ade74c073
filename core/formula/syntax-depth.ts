/**
 * Syntax depth, the one nesting limit every formula is held to (DESIGN §11 and "§13–14 exact
 * answers"): every parenthesis, NOT, operator and call adds a level; literals and field references
 * add none; an associative chain (`a OR b OR c`, `a AND b`, `a + b + c`, `a * b`, `a || b`) is one
 * level, since it is a list written flat, not a nesting. The AST drops parentheses, so the parser
 * marks each node with the number of parentheses around it, as a hidden property like positions
 * (errors.ts): trees stay plain data.
 */
import { childrenOf, type Expr } from './ast.ts';
import { formulaError, START, type FormulaPosition } from './errors.ts';

/** Levels of nesting allowed; deeper formulas are refused with `nestingError`. */
export const MAX_NESTING = 64;

/** The one refusal for a formula nested beyond MAX_NESTING, from gate 1 and from the tree alike. */
export function nestingError(position: FormulaPosition = START): Error {
  return formulaError('too_deep', `formula nests too deeply (more than ${MAX_NESTING} levels)`, position);
}

const PARENTHESES = Symbol('formula.parentheses');

type Marked = { [PARENTHESES]?: number };

/** Records one more pair of parentheses around `node` (the parser's `( expression )`). */
export function markParenthesized<T extends Expr>(node: T): T {
  const count = (node as unknown as Marked)[PARENTHESES] ?? 0;
  Object.defineProperty(node, PARENTHESES, { value: count + 1, enumerable: false, configurable: true });
  return node;
}

function parenthesesAround(node: Expr): number {
  return (node as unknown as Marked)[PARENTHESES] ?? 0;
}

function isLeaf(node: Expr): boolean {
  return node.kind === 'Number' || node.kind === 'String' || node.kind === 'Boolean' || node.kind === 'Null' || node.kind === 'Field';
}

/** The operator of an associative chain link, or null for any other node. */
function chainOperator(node: Expr): string | null {
  if (node.kind === 'Logical') return node.op;
  if (node.kind === 'Concat') return '||';
  if (node.kind === 'Arithmetic' && (node.op === '+' || node.op === '*')) return node.op;
  return null;
}

/** Whether `child`, unparenthesized and the same associative operator as `parent`, continues its chain. */
function continuesChain(parent: Expr | null, child: Expr): boolean {
  if (!parent || parenthesesAround(child) > 0) return false;
  const op = chainOperator(child);
  return op !== null && op === chainOperator(parent);
}

function ownLevels(node: Expr, parent: Expr | null): number {
  if (isLeaf(node)) return parenthesesAround(node);
  return parenthesesAround(node) + (continuesChain(parent, node) ? 0 : 1);
}

/**
 * The first node (in source order) whose level exceeds `limit`, or null when the tree fits. Stops
 * descending once past the limit; the caller bounds the raw tree depth first (parse.ts), so a
 * long chain costs no more recursion than the parser already accepted.
 */
export function nodeBeyondDepth(node: Expr, limit: number, above = 0, parent: Expr | null = null): Expr | null {
  const level = above + ownLevels(node, parent);
  if (level > limit) return node;
  for (const child of childrenOf(node)) {
    const found = nodeBeyondDepth(child, limit, level, node);
    if (found) return found;
  }
  return null;
}

/** The syntax depth of a parsed tree (0 for a lone literal or field). */
export function syntaxDepth(node: Expr, parent: Expr | null = null): number {
  const below = childrenOf(node).map((child) => syntaxDepth(child, node));
  return ownLevels(node, parent) + Math.max(0, ...below);
}
