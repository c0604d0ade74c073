/** Formulas: parse (gate 1) → check (names, types) → emit through a dialect, or evaluate in process. */
import type { Sql } from '../sql.ts';
import type { Expr } from './ast.ts';
import { checkFormula, type CheckContext, type CheckedFormula } from './check.ts';
import { emitFormula, type EmitOptions } from './emit.ts';
import { parseFormula } from './parse.ts';
import { printFormula } from './print.ts';

export type * from './ast.ts';
export type { CheckContext, CheckedFormula } from './check.ts';
export type { EmitOptions } from './emit.ts';
export type { EvaluateOptions } from './evaluate.ts';
export type { FormulaErrorDetails, FormulaPosition, FormulaRefusal } from './errors.ts';
export type { FormulaDialect, FunctionEmitter } from './formula-dialect.ts';
export type { FunctionName, FunctionSpec } from './functions.ts';
export type { ResolvedField } from './resolve.ts';
export type { FormulaRow, FormulaType, FormulaValue, ValueType } from './types.ts';
export { checkFormula } from './check.ts';
export { emitFormula } from './emit.ts';
export { evaluateFormula } from './evaluate.ts';
export { functionRegistry } from './functions.ts';
export { MAX_FORMULA_LENGTH } from './gate.ts';
export { MAX_TREE_DEPTH, parseFormula } from './parse.ts';
export { printFormula } from './print.ts';
export { formulaError, positionOf } from './errors.ts';
export { mapFormula, relocateFormula } from './substitute.ts';
export { MAX_NESTING, nodeBeyondDepth, syntaxDepth } from './syntax-depth.ts';
export { DEFAULT_MAX_DEPTH, formulaTypeOf } from './resolve.ts';
export { FormulaEvaluationError } from './values.ts';

export interface CompiledFormula {
  readonly checked: CheckedFormula;
  /** The formula as stored: canonical text with API names. */
  readonly text: string;
  readonly sql: Sql;
}

/** parse + check + emit in one call (saving a computed column, planning a read). */
export function compileFormula(text: string, context: CheckContext & EmitOptions): CompiledFormula {
  const ast: Expr = parseFormula(text);
  const checked = checkFormula(ast, context);
  return { checked, text: printFormula(checked.ast), sql: emitFormula(checked, context) };
}
