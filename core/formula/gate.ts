/**
 * Gate 1 (spec rule 8): refuses forbidden constructs by name and position before parsing, so
 * an author reads "comments are not allowed" rather than a syntax error. Also bounds the work
 * a formula can cause: its length and its nesting (recursive descent uses the call stack), with
 * the same limit and message as the parsed tree's syntax depth.
 */
import type { ILexingError, IToken } from 'chevrotain';
import { formulaError, type FormulaPosition } from './errors.ts';
import { MAX_NESTING, nestingError } from './syntax-depth.ts';
import { Case, Comma, End, forbiddenTokens, formulaLexer, From, Identifier, LParen, Minus, Not, RParen } from './tokens.ts';

export const MAX_FORMULA_LENGTH = 10_000;

function positionOfToken(token: IToken): FormulaPosition {
  return { offset: token.startOffset, line: token.startLine ?? 1, column: token.startColumn ?? 1 };
}

function lexingProblem(error: ILexingError, text: string): Error {
  const char = text.charAt(error.offset);
  const hint = char === '%' ? '; use MOD(a, b)' : char === ':' ? '; use CAST(x AS type)' : '';
  const position = { offset: error.offset, line: error.line ?? 1, column: error.column ?? 1 };
  return formulaError('syntax', `unexpected character '${char}' at column ${position.column}${hint}`, position);
}

/** One open parenthesis: whether it opened a SUBSTRING call, and what that call has seen so far. */
interface OpenParen {
  readonly substring: boolean;
  separated: boolean;
}

/**
 * Tracks the open parentheses to answer one question: is this FROM the first separator of a
 * SUBSTRING call (`SUBSTRING(s FROM start [FOR length])`)? Any other FROM stays a statement word.
 */
class FromContext {
  private readonly open: OpenParen[] = [];
  private previous: IToken | undefined;

  /** Called for every token in order; returns true when `token` is a FROM that SUBSTRING allows. */
  see(token: IToken): boolean {
    const type = token.tokenType;
    const top = this.open[this.open.length - 1];
    let allowed = false;
    if (type === LParen) {
      const substring = this.previous?.tokenType === Identifier && this.previous.image.toUpperCase() === 'SUBSTRING';
      this.open.push({ substring, separated: false });
    } else if (type === RParen) this.open.pop();
    else if (top && (type === Comma || type === From)) {
      allowed = type === From && top.substring && !top.separated;
      top.separated = true;
    }
    this.previous = token;
    return allowed;
  }
}

function checkForbidden(tokens: readonly IToken[], lexErrors: readonly ILexingError[], text: string): void {
  const firstLexError = lexErrors[0];
  const from = new FromContext();
  for (const token of tokens) {
    if (firstLexError && firstLexError.offset < token.startOffset) break;
    const allowedFrom = from.see(token);
    const rule = forbiddenTokens.get(token.tokenType);
    if (!rule || allowedFrom) continue;
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
      throw nestingError(positionOfToken(token));
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
