/** Types the checker infers; every vendor maps them onto its own (formula-dialect.ts). */
export type FormulaType = 'text' | 'number' | 'boolean' | 'date' | 'timestamp' | 'null';

/** A type a value can have: every FormulaType except the type of a bare NULL. */
export type ValueType = Exclude<FormulaType, 'null'>;

/**
 * A formula value in process: numbers are doubles, dates `'YYYY-MM-DD'`, timestamps ISO 8601
 * UTC with milliseconds (`'2026-11-22T10:00:00.000Z'`), as on the wire (DESIGN §4).
 */
export type FormulaValue = string | number | boolean | null;

/** Values of the referenced fields, keyed by the dotted path (`amount`, `customer.name`). */
export type FormulaRow = Readonly<Record<string, FormulaValue | Date | undefined>>;
