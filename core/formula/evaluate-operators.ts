/** Operator semantics of the evaluator: IEEE doubles with PostgreSQL's range checks, code point text order, LIKE. */
import type { ArithmeticOp } from './ast.ts';
import type { FormulaType, FormulaValue } from './types.ts';
import { FormulaEvaluationError } from './values.ts';

/** Doubles as PostgreSQL's float8 operators: overflow and underflow are errors; x/0 is NULL (agreed). */
export function arithmetic(op: ArithmeticOp, left: FormulaValue, right: FormulaValue): number | null {
  if (left === null || right === null) return null;
  const [a, b] = [left as number, right as number];
  if (op === '/' && b === 0) return null;
  const result = op === '+' ? a + b : op === '-' ? a - b : op === '*' ? a * b : a / b;
  if (!Number.isFinite(result) && Number.isFinite(a) && Number.isFinite(b)) {
    throw new FormulaEvaluationError('value out of range: overflow');
  }
  if ((op === '*' || op === '/') && result === 0 && a !== 0 && (op === '/' || b !== 0)) {
    throw new FormulaEvaluationError('value out of range: underflow');
  }
  return result;
}

/** Code point order (what a C/binary collation gives for UTF-8), not UTF-16 unit order. */
export function compareText(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.codePointAt(i) ?? 0;
    const y = b.codePointAt(i) ?? 0;
    if (x !== y) return x < y ? -1 : 1;
    if (x > 0xffff) i++;
  }
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}

/** -1/0/1, or null when either side is NULL. Dates and timestamps compare in their canonical text. */
export function compareValues(left: FormulaValue, right: FormulaValue, type: FormulaType): number | null {
  if (left === null || right === null) return null;
  switch (type) {
    case 'number':
      return (left as number) < (right as number) ? -1 : (left as number) > (right as number) ? 1 : 0;
    case 'boolean':
      return Number(left) - Number(right);
    default:
      return compareText(String(left), String(right));
  }
}

const likeCache = new Map<string, RegExp>();

function likeRegExp(pattern: string): RegExp {
  let source = '';
  const chars = Array.from(pattern);
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i]!;
    if (ch === '\\') {
      const next = chars[++i];
      if (next === undefined) throw new FormulaEvaluationError('LIKE pattern must not end with escape character');
      source += next.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');
    } else if (ch === '%') source += '[\\s\\S]*';
    else if (ch === '_') source += '[\\s\\S]';
    else source += ch.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');
  }
  return new RegExp(`^${source}$`, 'u');
}

/** `text LIKE pattern`: `%` any run, `_` one character, `\` escapes; case-sensitive. */
export function likeMatches(text: string, pattern: string): boolean {
  let re = likeCache.get(pattern);
  if (!re) {
    re = likeRegExp(pattern);
    if (likeCache.size > 500) likeCache.clear();
    likeCache.set(pattern, re);
  }
  return re.test(text);
}
