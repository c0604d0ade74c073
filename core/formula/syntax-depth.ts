/**
 * Syntax depth, the limit a `where` formula is held to (DESIGN "§13–14 exact answers"): every
 * parenthesis, NOT, operator and call adds a level; literals and field references add none.
 * The AST drops parentheses, so the parser marks each node with the number of parentheses
 * around it, as a hidden property like positions (errors.ts): trees stay plain data.
 */
import { childrenOf, type Expr } from './ast.ts';

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

/**
 * The first node (in source order) whose level exceeds `limit`, or null when the tree fits. Stops
 * descending once past the limit, so a hostile tree costs no more than `limit` levels of recursion.
 */
export function nodeBeyondDepth(node: Expr, limit: number, above = 0): Expr | null {
  const level = above + parenthesesAround(node) + (isLeaf(node) ? 0 : 1);
  if (level > limit) return node;
  for (const child of childrenOf(node)) {
    const found = nodeBeyondDepth(child, limit, level);
    if (found) return found;
  }
  return null;
}

/** The syntax depth of a parsed tree (0 for a lone literal or field). */
export function syntaxDepth(node: Expr): number {
  const own = parenthesesAround(node) + (isLeaf(node) ? 0 : 1);
  return own + Math.max(0, ...childrenOf(node).map(syntaxDepth));
}
