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

/** Functions that return NULL when any argument is NULL. */
const strict: Partial<Record<FunctionName, Strict>> = {
  UPPER: ([s]) => mapCase(s as string, true),
  LOWER: ([s]) => mapCase(s as string, false),
  TRIM: ([s]) => (s as string).replace(/^ +| +$/g, ''),
  LENGTH: ([s]) => codePoints(s as string).length,
  SUBSTRING: ([s, start, length]) => substring(s as string, start as number, length as number | undefined),
  REPLACE: ([s, from, to]) => ((from as string) === '' ? (s as string) : (s as string).split(from as string).join(to as string)),
  ABS: ([x]) => Math.abs(x as number),
  ROUND: ([x, digits]) => round(x as number, digits as number | undefined),
  CEIL: ([x]) => Math.ceil(x as number),
  FLOOR: ([x]) => Math.floor(x as number),
  MOD: ([a, b]) => mod(a as number, b as number),
};

/** What a function needs of the evaluation that calls it (evaluate.ts's Evaluation has it). */
export interface CallContext {
  readonly checked: Pick<CheckedFormula, 'types'>;
  readonly now: string;
  value(node: Expr): FormulaValue;
  compare(left: Expr, right: Expr): number | null;
}

export function callFunction(node: Call, e: CallContext): FormulaValue {
  const name = node.name as FunctionName;
  const strictFn = strict[name];
  if (strictFn) {
    const args = node.args.map((a) => e.value(a));
    return args.some((a) => a === null) ? null : strictFn(args);
  }
  const type = e.checked.types.get(node) ?? 'null';
  switch (name) {
    case 'CONCAT':
      return node.args.map((a) => e.value(a) ?? '').join('');
    case 'GREATEST':
      return extreme(node.args.map((a) => e.value(a)), type, 1);
    case 'LEAST':
      return extreme(node.args.map((a) => e.value(a)), type, -1);
    case 'COALESCE':
      for (const arg of node.args) {
        const v = e.value(arg);
        if (v !== null) return v;
      }
      return null;
    case 'NULLIF': {
      const [a, b] = node.args;
      return a && b && e.compare(a, b) === 0 ? null : a ? e.value(a) : null;
    }
    case 'NOW':
    case 'CURRENT_TIMESTAMP':
      return e.now;
    case 'CURRENT_DATE':
      return e.now.slice(0, 10);
    default:
      throw new Error(`formula evaluate: no implementation of ${name}`);
  }
}
