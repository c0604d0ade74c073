/**
 * Formula refusals. Every gate-1 and checker refusal is an `INVALID_FORMULA` ApiError whose
 * details are `{ position: { offset, line, column }, reason }` (DESIGN §5); nothing from
 * Chevrotain ever reaches a client. Positions of AST nodes are hidden properties, so the nodes
 * stay plain data (the print/parse round trip compares them with deep equality).
 */
import { ApiError } from '../errors.ts';
import type { Expr } from './ast.ts';

/** 0-based offset, 1-based line and column. */
export interface FormulaPosition {
  readonly offset: number;
  readonly line: number;
  readonly column: number;
}

export type FormulaRefusal =
  | 'statement'
  | 'comment'
  | 'semicolon'
  | 'square_brackets'
  | 'exec'
  | 'array_values'
  | 'unbalanced_parentheses'
  | 'unbalanced_case'
  | 'unterminated_string'
  | 'unterminated_identifier'
  | 'unknown_function'
  | 'aggregate'
  | 'arity'
  | 'unknown_type'
  | 'syntax'
  | 'too_long'
  | 'too_deep'
  | 'too_costly'
  | 'unknown_field'
  | 'unsupported_field'
  | 'relationship_depth'
  | 'type_mismatch';

export interface FormulaErrorDetails {
  readonly position: FormulaPosition;
  readonly reason: FormulaRefusal;
}

export const START: FormulaPosition = { offset: 0, line: 1, column: 1 };

export function formulaError(reason: FormulaRefusal, message: string, position: FormulaPosition = START): ApiError {
  const details: FormulaErrorDetails = { position, reason };
  return new ApiError('INVALID_FORMULA', message, details);
}

/**
 * Positions ride on the nodes as a non-enumerable symbol property: invisible to deep equality
 * and JSON, and cheaper than a WeakMap, whose ephemerons slow every garbage collection.
 */
const POSITION = Symbol('formula.position');

export function setPosition<T extends Expr>(node: T, position: FormulaPosition): T {
  Object.defineProperty(node, POSITION, { value: position, enumerable: false });
  return node;
}

/** Where a node came from; the start of the formula for trees built by hand. */
export function positionOf(node: Expr): FormulaPosition {
  return (node as unknown as { [POSITION]?: FormulaPosition })[POSITION] ?? START;
}

/** Position just past the end of `text` (for "unexpected end of formula"). */
export function endPosition(text: string): FormulaPosition {
  const lines = text.split('\n');
  const last = lines[lines.length - 1] ?? '';
  return { offset: text.length, line: lines.length, column: last.length + 1 };
}
