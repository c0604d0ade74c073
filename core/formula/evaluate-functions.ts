/** The whitelisted functions in process, one case each, with the agreed meaning (DESIGN §7). */
import type { Call, Expr } from './ast.ts';
import type { CheckedFormula } from './check.ts';
import { decimalFromDouble, decimalToNumber, modDecimal, roundDecimal } from './decimal.ts';
import { compareValues } from './evaluate-operators.ts';
import type { FunctionName } from './functions.ts';
import type { FormulaValue } from './types.ts';
import { castValue, codePoints } from './values.ts';

const INTEGER = { name: 'INTEGER' } as const;

/** A number argument as SQL integer (half away from zero, int range checked). */
function int(value: number): number {
  return castValue(value, 'number', INTEGER) as number;
}

/** Case mapping per character; a character whose mapping is several characters (ß → SS) stays. */
function mapCase(text: string, upper: boolean): string {
  let out = '';
  for (const ch of text) {
    const mapped = upper ? ch.toUpperCase() : ch.toLowerCase();
    out += mapped.length === ch.length || codePoints(mapped).length === 1 ? mapped : ch;
  }
  return out;
}

function substring(text: string, start: number, length: number | undefined): string {
  const chars = codePoints(text);
  const from = int(start);
  if (length === undefined) return chars.slice(Math.max(from, 1) - 1).join('');
  const len = int(length);
  if (len < 0) return '';
  const end = from + len;
  if (end <= 1) return '';
  return chars.slice(Math.max(from, 1) - 1, end - 1).join('');
}

function round(value: number, digits: number | undefined): number {
  return decimalToNumber(roundDecimal(decimalFromDouble(value), digits === undefined ? 0 : int(digits)));
}

function mod(a: number, b: number): number | null {
  const result = modDecimal(decimalFromDouble(a), decimalFromDouble(b));
  return result === null ? null : decimalToNumber(result);
}

function extreme(values: FormulaValue[], type: Parameters<typeof compareValues>[2], sign: 1 | -1): FormulaValue {
  let best: FormulaValue = null;
  for (const v of values) {
    if (v === null) continue;
    if (best === null || (compareValues(v, best, type) ?? 0) * sign > 0) best = v;
  }
  return best;
}

type Strict = (args: FormulaValue[]) => FormulaValue;

/** What a function needs of the evaluation that calls it (evaluate.ts's Evaluation has it). */
export interface CallContext {
  readonly checked: Pick<CheckedFormula, 'types'>;
  readonly now: string;
  value(node: Expr): FormulaValue;
  compare(left: Expr, right: Expr): number | null;
}

type Evaluator = (node: Call, e: CallContext) => FormulaValue;

/** A function that returns NULL when any argument is NULL. */
function strict(fn: Strict): Evaluator {
  return (node, e) => {
    const args = node.args.map((a) => e.value(a));
    return args.some((a) => a === null) ? null : fn(args);
  };
}

function extremeOf(sign: 1 | -1): Evaluator {
  return (node, e) => extreme(node.args.map((a) => e.value(a)), e.checked.types.get(node) ?? 'null', sign);
}

function coalesce(node: Call, e: CallContext): FormulaValue {
  for (const arg of node.args) {
    const v = e.value(arg);
    if (v !== null) return v;
  }
  return null;
}

function nullif(node: Call, e: CallContext): FormulaValue {
  const [a, b] = node.args;
  return a && b && e.compare(a, b) === 0 ? null : a ? e.value(a) : null;
}

/** Every whitelisted function, one entry each: a function missing here is a type error. */
const EVALUATORS: { readonly [N in FunctionName]: Evaluator } = {
  CONCAT: (node, e) => node.args.map((a) => e.value(a) ?? '').join(''),
  UPPER: strict(([s]) => mapCase(s as string, true)),
  LOWER: strict(([s]) => mapCase(s as string, false)),
  TRIM: strict(([s]) => (s as string).replace(/^ +| +$/g, '')),
  LENGTH: strict(([s]) => codePoints(s as string).length),
  SUBSTRING: strict(([s, start, length]) => substring(s as string, start as number, length as number | undefined)),
  REPLACE: strict(([s, from, to]) => ((from as string) === '' ? (s as string) : (s as string).split(from as string).join(to as string))),
  ABS: strict(([x]) => Math.abs(x as number)),
  ROUND: strict(([x, digits]) => round(x as number, digits as number | undefined)),
  CEIL: strict(([x]) => Math.ceil(x as number)),
  FLOOR: strict(([x]) => Math.floor(x as number)),
  MOD: strict(([a, b]) => mod(a as number, b as number)),
  GREATEST: extremeOf(1),
  LEAST: extremeOf(-1),
  COALESCE: coalesce,
  NULLIF: nullif,
  NOW: (_node, e) => e.now,
  CURRENT_TIMESTAMP: (_node, e) => e.now,
  CURRENT_DATE: (_node, e) => e.now.slice(0, 10),
};

export function callFunction(node: Call, e: CallContext): FormulaValue {
  return EVALUATORS[node.name as FunctionName](node, e);
}
