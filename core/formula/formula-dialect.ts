/**
 * Placeholder: the formula helper owns this file and defines the full interface.
 * What each dialect supplies to emit formulas (functions, operators, CAST type names).
 */
export interface FormulaDialect {
  readonly vendor: string;
}
