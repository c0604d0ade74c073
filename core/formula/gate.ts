/**
 * Gate 1 (spec rule 8): refuses forbidden constructs by name and position before parsing, so
 * an author reads "comments are not allowed" rather than a syntax error. Also bounds the work
 * a formula can cause: its length and its nesting (recursive descent uses the call stack).
 */
import type { ILexingError, IToken } from 'chevrotain';
import { formulaError, type FormulaPosition } from './errors.ts';
import { Case, End, forbiddenTokens, formulaLexer, LParen, Minus, Not, RParen } from './tokens.ts';

export const MAX_FORMULA_LENGTH = 10_000;
/** Parentheses, CASE and prefix-operator nesting allowed; deeper formulas are refused. */
export const MAX_NESTING = 64;

function positionOfToken(token: IToken): FormulaPosition {
  return { offset: token.startOffset, line: token.startLine ?? 1, column: token.startColumn ?? 1 };
}

function lexingProblem(error: ILexingError, text: string): Error {
  const char = text.charAt(error.offset);
  const hint = char === '%' ? '; use MOD(a, b)' : char === ':' ? '; use CAST(x AS type)' : '';
  const position = { offset: error.offset, line: error.line ?? 1, column: error.column ?? 1 };
  return formulaError('syntax', `unexpected character '${char}' at column ${position.column}${hint}`, position);
}

function checkForbidden(tokens: readonly IToken[], lexErrors: readonly ILexingError[], text: string): void {
  const firstLexError = lexErrors[0];
  for (const token of tokens) {
    if (firstLexError && firstLexError.offset < token.startOffset) break;
    const rule = forbiddenTokens.get(token.tokenType);
    if (!rule) continue;
    const position = positionOfToken(token);
    throw formulaError(rule.reason, rule.message(token.image, position.column), position);
  }
  if (firstLexError) throw lexingProblem(firstLexError, text);
}

function checkBalance(tokens: readonly IToken[]): void {
  const parens: IToken[] = [];
  const cases: IToken[] = [];
  let prefixRun = 0;
  for (const token of tokens) {
    const type = token.tokenType;
    prefixRun = type === Minus || type === Not ? prefixRun + 1 : 0;
    if (type === LParen) parens.push(token);
    else if (type === Case) cases.push(token);
    else if (type === RParen && !parens.pop()) {
      const position = positionOfToken(token);
      throw formulaError('unbalanced_parentheses', `unbalanced parentheses: ')' at column ${position.column} has no matching '('`, position);
    } else if (type === End && !cases.pop()) {
      const position = positionOfToken(token);
      throw formulaError('unbalanced_case', `unbalanced CASE/END: END at column ${position.column} has no matching CASE`, position);
    }
    if (parens.length + cases.length > MAX_NESTING || prefixRun > MAX_NESTING) {
      throw formulaError('too_deep', `formula nests too deeply (more than ${MAX_NESTING} levels)`, positionOfToken(token));
    }
  }
  const open = parens.pop();
  if (open) {
    const position = positionOfToken(open);
    throw formulaError('unbalanced_parentheses', `unbalanced parentheses: '(' at column ${position.column} is never closed`, position);
  }
  const openCase = cases.pop();
  if (openCase) {
    const position = positionOfToken(openCase);
    throw formulaError('unbalanced_case', `unbalanced CASE/END: CASE at column ${position.column} has no matching END`, position);
  }
}

/** Tokenizes `text` and applies gate 1; returns the tokens for the parser. */
export function lexFormula(text: string): IToken[] {
  if (text.length > MAX_FORMULA_LENGTH) {
    throw formulaError('too_long', `formula is longer than ${MAX_FORMULA_LENGTH} characters`);
  }
  const { tokens, errors } = formulaLexer.tokenize(text);
  checkForbidden(tokens, errors, text);
  checkBalance(tokens);
  if (tokens.length === 0) throw formulaError('syntax', 'formula is empty');
  return tokens;
}
