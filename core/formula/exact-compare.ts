/**
 * When a number column can be compared with a number literal in its own type and still give the
 * agreed answer, the double comparison's (DESIGN §7). The rule is about doubles, so it is the same
 * on every vendor; a dialect only spells the comparison (FormulaDialect.compareInColumnType).
 * - An integer column (not a bigint) is a double exactly, and a safe-integer literal is an
 *   integer exactly: comparing them as integers is comparing their doubles.
 * - A decimal of at most 15 digits: two such decimals never share a double (15 digits round-trip
 *   through a double), and rounding keeps order, so the decimal's double is `<`, `=` or `>` the
 *   literal's double exactly when the decimal is `<`, `=` or `>` the literal's shortest digits.
 * - Not a bigint (above 2^53 two values share a double), nor a wider or unbounded decimal.
 * Why at all: a column read as a double is converted on every row, and no index can serve it.
 */
import type { Field } from '../schema/model.ts';

export type ExactNumberKind = 'integer' | 'decimal';

/** Digits a decimal column may hold and still compare with any double as its double does. */
const EXACT_DECIMAL_DIGITS = 15;

/** The type `field op literal` may be compared in, or null to compare as doubles. */
export function exactNumberKind(field: Field, literal: number): ExactNumberKind | null {
  if (field.type === 'integer' && Number.isSafeInteger(literal)) return 'integer';
  const digits = field.numericPrecision;
  if (field.type === 'decimal' && digits !== null && digits <= EXACT_DECIMAL_DIGITS) return 'decimal';
  return null;
}
