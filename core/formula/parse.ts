/** parseFormula: gate 1, then the grammar, then the AST. Every refusal is INVALID_FORMULA. */
import type { IRecognitionException } from 'chevrotain';
import { EOF } from './chevrotain.ts';
import { childrenOf, type Expr } from './ast.ts';
import { endPosition, formulaError, positionOf, type FormulaPosition } from './errors.ts';
import { lexFormula } from './gate.ts';
import { formulaParser } from './parser.ts';
import { MAX_NESTING, nestingError, nodeBeyondDepth } from './syntax-depth.ts';
import { cstToAst } from './to-ast.ts';

/**
 * Deepest raw tree accepted. Checking, emission and evaluation recurse over the tree, and an
 * associative chain (one level of syntax depth) is as deep as it is long: this bounds the
 * recursion well inside the call stack (about 3,000 levels fail) while every OR/AND chain of a
 * 4,096-character `where` (at most about 820 terms) fits.
 */
export const MAX_TREE_DEPTH = 1000;

function errorPosition(error: IRecognitionException, text: string): FormulaPosition {
  const token = error.token;
  if (token.tokenType === EOF || Number.isNaN(token.startOffset)) return endPosition(text);
  return { offset: token.startOffset, line: token.startLine ?? 1, column: token.startColumn ?? 1 };
}

function depthOf(node: Expr, limit: number): number {
  if (limit <= 0) return 1;
  let deepest = 0;
  for (const child of childrenOf(node)) deepest = Math.max(deepest, depthOf(child, limit - 1));
  return deepest + 1;
}

export function parseFormula(text: string): Expr {
  const tokens = lexFormula(text);
  formulaParser.input = tokens;
  const cst = formulaParser.formula();
  const error = formulaParser.errors[0];
  if (error) {
    const position = errorPosition(error, text);
    throw formulaError('syntax', `${error.message} (column ${position.column})`, position);
  }
  const ast = cstToAst(cst);
  if (depthOf(ast, MAX_TREE_DEPTH + 1) > MAX_TREE_DEPTH) {
    throw formulaError('too_long', `formula chains more than ${MAX_TREE_DEPTH} operators one after another`);
  }
  const deep = nodeBeyondDepth(ast, MAX_NESTING);
  if (deep) throw nestingError(positionOf(deep));
  return ast;
}
