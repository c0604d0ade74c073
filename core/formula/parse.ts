/** parseFormula: gate 1, then the grammar, then the AST. Every refusal is INVALID_FORMULA. */
import type { IRecognitionException } from 'chevrotain';
import { EOF } from './chevrotain.ts';
import { childrenOf, type Expr } from './ast.ts';
import { endPosition, formulaError, type FormulaPosition } from './errors.ts';
import { lexFormula } from './gate.ts';
import { formulaParser } from './parser.ts';
import { cstToAst } from './to-ast.ts';

/** Deepest AST accepted; evaluation, checking and emission recurse over the tree. */
export const MAX_AST_DEPTH = 200;

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
  if (depthOf(ast, MAX_AST_DEPTH + 1) > MAX_AST_DEPTH) {
    throw formulaError('too_deep', `formula nests too deeply (more than ${MAX_AST_DEPTH} levels)`);
  }
  return ast;
}
