/**
 * The function whitelist (spec rule 7). A function is one entry here plus one emitter per
 * dialect (FormulaDialect.functions) plus one case in the evaluator; the grammar never changes.
 */
import type { FormulaType } from './types.ts';

export type FunctionName =
  | 'CONCAT'
  | 'UPPER'
  | 'LOWER'
  | 'TRIM'
  | 'LENGTH'
  | 'SUBSTRING'
  | 'REPLACE'
  | 'ABS'
  | 'ROUND'
  | 'CEIL'
  | 'FLOOR'
  | 'MOD'
  | 'GREATEST'
  | 'LEAST'
  | 'COALESCE'
  | 'NULLIF'
  | 'NOW'
  | 'CURRENT_DATE'
  | 'CURRENT_TIMESTAMP';

/**
 * What an argument must be: a fixed type; `any` (converted to text, CONCAT); or `same`
 * (all `same` arguments share one type, which may also be the result's).
 */
export type ParamKind = 'text' | 'number' | 'any' | 'same';

export interface FunctionSpec {
  readonly name: FunctionName;
  readonly minArgs: number;
  /** `Infinity` for variadic functions. */
  readonly maxArgs: number;
  readonly params: readonly ParamKind[];
  /** Kind of the arguments past `params` (variadic tail). */
  readonly rest: ParamKind | null;
  readonly returns: FormulaType | 'same';
  /** Written without parentheses (CURRENT_DATE, CURRENT_TIMESTAMP). */
  readonly bare: boolean;
}

function spec(
  name: FunctionName,
  params: readonly ParamKind[],
  returns: FormulaType | 'same',
  options: { minArgs?: number; rest?: ParamKind; bare?: boolean } = {},
): FunctionSpec {
  const rest = options.rest ?? null;
  return {
    name,
    params,
    returns,
    rest,
    minArgs: options.minArgs ?? params.length,
    maxArgs: rest ? Infinity : params.length,
    bare: options.bare ?? false,
  };
}

const specs: readonly FunctionSpec[] = [
  spec('CONCAT', ['any'], 'text', { rest: 'any' }),
  spec('UPPER', ['text'], 'text'),
  spec('LOWER', ['text'], 'text'),
  spec('TRIM', ['text'], 'text'),
  spec('LENGTH', ['text'], 'number'),
  spec('SUBSTRING', ['text', 'number', 'number'], 'text', { minArgs: 2 }),
  spec('REPLACE', ['text', 'text', 'text'], 'text'),
  spec('ABS', ['number'], 'number'),
  spec('ROUND', ['number', 'number'], 'number', { minArgs: 1 }),
  spec('CEIL', ['number'], 'number'),
  spec('FLOOR', ['number'], 'number'),
  spec('MOD', ['number', 'number'], 'number'),
  spec('GREATEST', ['same'], 'same', { rest: 'same' }),
  spec('LEAST', ['same'], 'same', { rest: 'same' }),
  spec('COALESCE', ['same'], 'same', { rest: 'same' }),
  spec('NULLIF', ['same', 'same'], 'same'),
  spec('NOW', [], 'timestamp'),
  spec('CURRENT_DATE', [], 'date', { bare: true }),
  spec('CURRENT_TIMESTAMP', [], 'timestamp', { bare: true }),
];

export const functionRegistry: ReadonlyMap<string, FunctionSpec> = new Map(specs.map((s) => [s.name, s]));

/** Functions callable with parentheses, for messages. */
export const callableFunctionNames: readonly string[] = specs.filter((s) => !s.bare).map((s) => s.name);

/** Row-spanning functions, refused with their own reason (spec rule 5). */
export const aggregateNames: ReadonlySet<string> = new Set([
  'SUM',
  'COUNT',
  'AVG',
  'MIN',
  'MAX',
  'STRING_AGG',
  'ARRAY_AGG',
  'GROUP_CONCAT',
  'LISTAGG',
  'STDDEV',
  'VARIANCE',
]);

export function paramKindAt(fn: FunctionSpec, index: number): ParamKind {
  return fn.params[index] ?? fn.rest ?? 'any';
}

export function describeArity(fn: FunctionSpec): string {
  if (fn.maxArgs === Infinity) return `at least ${fn.minArgs} argument${fn.minArgs === 1 ? '' : 's'}`;
  if (fn.minArgs === fn.maxArgs) return `${fn.minArgs} argument${fn.minArgs === 1 ? '' : 's'}`;
  return `${fn.minArgs} to ${fn.maxArgs} arguments`;
}
