/**
 * Where the formula editor marks a refusal: the service gives the offset of the offending
 * character (gate 1, the checker) or the start (gate 2: the database refused the whole formula).
 * Pure, so vitest checks it without a browser (test/admin-app/formula-marks.test.ts).
 */
/** Where the service says a formula went wrong (`details.position` of INVALID_FORMULA). */
export interface FormulaPosition {
  readonly offset: number;
  readonly line: number;
  readonly column: number;
}

export interface FormulaMark {
  readonly from: number;
  readonly to: number;
  readonly message: string;
}

/**
 * The message with its position, said once: the service's gate 1 messages already say "at column N"
 * (they are read without the UI too), the checker's do not.
 */
export function withPosition(message: string, position: FormulaPosition | undefined): string {
  if (!position || new RegExp(`\\bcolumn ${position.column}\\b`).test(message)) return message;
  return `${message} (line ${position.line}, column ${position.column})`;
}

/** Gate 2 answers `reason: 'database'`: no single character is at fault, so the whole text is marked. */
export function markFor(text: string, error: { readonly message: string; readonly position?: FormulaPosition | undefined; readonly reason?: string }): FormulaMark {
  const label = withPosition(error.message, error.position);
  if (error.reason === 'database' || !error.position) return { from: 0, to: text.length, message: label };
  const from = Math.max(0, Math.min(error.position.offset, text.length));
  // One character wide; at the end of the text (a formula cut short) the mark sits on the end.
  return { from, to: Math.min(from + 1, text.length), message: label };
}
