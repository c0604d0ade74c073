/**
 * What a dialect supplies so formulas mean the same on every vendor (DESIGN §7). Core
 * (emit.ts) walks the checked tree, applies the checker's implicit conversions through
 * `coerce`, and writes the vendor-neutral SQL itself: NOT/AND/OR, IS [NOT] NULL,
 * [NOT] IN (…), [NOT] BETWEEN, CASE. Everything whose spelling or meaning differs between
 * vendors goes through a hook here. A vendor is one file: dialects/<vendor>/<vendor>-formula.ts.
 *
 * Contract for every hook: inputs are SQL of the stated formula type, in value form (see
 * `predicateToValue`); outputs are in value form unless documented as a predicate. Hooks never
 * build identifiers (column references arrive ready made) and bind every literal as a
 * parameter with `param()`.
 */
import type { Sql } from '../sql.ts';
import type { Field } from '../schema/model.ts';
import type { ArithmeticOp, CastTarget, CompareOp } from './ast.ts';
import type { ExactNumberKind } from './exact-compare.ts';
import type { FunctionName } from './functions.ts';
import type { FormulaType, ValueType } from './types.ts';

/**
 * Emits one whitelisted function. `args` are already converted to the parameter types of the
 * registry entry (functions.ts): text for CONCAT, one shared type for COALESCE/NULLIF/
 * GREATEST/LEAST. `argTypes` are the types of `args`; `resultType` is the checker's.
 */
export type FunctionEmitter = (args: readonly Sql[], argTypes: readonly FormulaType[], resultType: FormulaType) => Sql;

export interface FormulaDialect {
  /** Vendor name, for messages and tests. */
  readonly vendor: string;

  /**
   * A bound text or number literal. Typed so the database never has to infer a parameter's
   * type (PostgreSQL cannot for `$1 || $2`, CASE results, or two compared parameters).
   * Numbers must come out in the vendor's double-precision type.
   */
  literal(value: string | number, type: 'text' | 'number'): Sql;

  /** TRUE or FALSE in value form (SQL Server: 1/0 as bit). */
  booleanLiteral(value: boolean): Sql;

  /** NULL of `type`; for 'null' (a NULL nothing gives a type to) any type the vendor accepts. */
  nullLiteral(type: FormulaType): Sql;

  /**
   * Reads a field as a formula value of `type`: numbers as double precision, timestamps as UTC
   * without zone, uuid/time/json/enum columns as text. `column` is the planner's reference.
   */
  fieldValue(column: Sql, field: Field, type: ValueType): Sql;

  /** `+ - * /` on doubles. Division is double precision and gives NULL when `right` is 0. */
  arithmetic(op: ArithmeticOp, left: Sql, right: Sql): Sql;

  /** Unary minus of a double. */
  negate(operand: Sql): Sql;

  /** `left || right` on text: NULL when either is NULL (MySQL: `||` is OR; use CONCAT with NULL checks). */
  concat(left: Sql, right: Sql): Sql;

  /** A comparison of two values of `type` (both sides already converted). Returns a predicate. */
  compare(op: CompareOp, left: Sql, right: Sql, type: FormulaType): Sql;

  /**
   * Optional: `column op literal` with the column in its own type, an integer or a decimal as
   * `kind` says (exact-compare.ts decides when that gives the double comparison's answer), so that
   * no row is converted and an index on the column can serve it. Null, or absent: compare as
   * doubles (`compare`). `op` has the column on its left.
   */
  compareInColumnType?(op: CompareOp, column: Sql, kind: ExactNumberKind, literal: number): Sql | null;

  /** `[NOT] LIKE` with `%`, `_` and `\` as the escape character, case-sensitive. Returns a predicate. */
  like(operand: Sql, pattern: Sql, negated: boolean): Sql;

  /** Explicit `CAST(operand AS target)` from `from` with the agreed semantics (values.ts). */
  cast(operand: Sql, from: FormulaType, target: CastTarget): Sql;

  /**
   * Implicit conversion chosen by the checker: NULL to a type, text literal to date/timestamp,
   * date to timestamp, any type to text (agreed text forms, values.ts).
   */
  coerce(operand: Sql, from: FormulaType, to: ValueType): Sql;

  /**
   * A predicate used where a value is needed, keeping NULL for unknown. PostgreSQL: itself;
   * SQL Server: `CASE WHEN p THEN 1 WHEN NOT (p) THEN 0 END`.
   */
  predicateToValue(predicate: Sql): Sql;

  /** A boolean value used where a condition is needed. PostgreSQL: itself; SQL Server: `(v = 1)`. */
  valueToPredicate(value: Sql): Sql;

  /** One emitter per whitelisted function. */
  readonly functions: { readonly [N in FunctionName]: FunctionEmitter };
}
