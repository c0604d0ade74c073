/**
 * The in-process evaluator: the reference meaning of a formula (DESIGN §7), used for entity
 * constraints before writes and as the model that property tests compare every database with.
 * Three-valued logic throughout; AND, OR, CASE and COALESCE stop early like the databases do.
 */
import type { Expr, ExprKind, ExprOf, FieldRef } from './ast.ts';
import type { CheckedFormula } from './check.ts';
import { callFunction } from './evaluate-functions.ts';
import { arithmetic, compareValues, likeMatches } from './evaluate-operators.ts';
import type { FormulaRow, FormulaType, FormulaValue, ValueType } from './types.ts';
import { castValue, FormulaEvaluationError, parseTimestamp, targetOf, textOf } from './values.ts';

export interface EvaluateOptions {
  /** The moment NOW()/CURRENT_TIMESTAMP/CURRENT_DATE read; default: the current time. */
  readonly now?: Date;
}

function fieldValue(raw: FormulaRow[string], type: ValueType): FormulaValue {
  if (raw === null || raw === undefined) return null;
  switch (type) {
    case 'number':
      return typeof raw === 'number' ? raw : Number(raw);
    case 'boolean':
      return typeof raw === 'boolean' ? raw : raw === 'true' || raw === 't';
    case 'date':
      return raw instanceof Date ? raw.toISOString().slice(0, 10) : String(raw).slice(0, 10);
    case 'timestamp': {
      if (raw instanceof Date) return raw.toISOString();
      const text = String(raw);
      return /(?:Z|[+-]\d\d:?\d\d)$/i.test(text) ? new Date(text).toISOString() : parseTimestamp(text);
    }
    case 'text':
      return raw instanceof Date ? raw.toISOString() : String(raw);
  }
}

export class Evaluation {
  constructor(
    readonly checked: CheckedFormula,
    readonly row: FormulaRow,
    readonly now: string,
  ) {}

  typeOf(node: Expr): FormulaType {
    return this.checked.coercions.get(node) ?? this.checked.types.get(node) ?? 'null';
  }

  /** The node's value as its parent reads it (implicit conversions applied). */
  value(node: Expr): FormulaValue {
    const result = (handlers[node.kind] as (n: Expr, e: Evaluation) => FormulaValue)(node, this);
    const to = this.checked.coercions.get(node);
    if (!to || result === null) return result;
    if (to === 'text') return textOf(result);
    return castValue(result, (this.checked.types.get(node) ?? 'text') as ValueType, targetOf(to));
  }

  bool(node: Expr): boolean | null {
    const v = this.value(node);
    if (v !== null && typeof v !== 'boolean') throw new FormulaEvaluationError('expected a boolean');
    return v;
  }

  compare(left: Expr, right: Expr): number | null {
    const type = [left, right].map((n) => this.typeOf(n)).find((t) => t !== 'null') ?? 'null';
    return compareValues(this.value(left), this.value(right), type);
  }
}

function equalsAny(e: Evaluation, operand: Expr, items: readonly Expr[]): boolean | null {
  let sawNull = false;
  for (const item of items) {
    const c = e.compare(operand, item);
    if (c === 0) return true;
    if (c === null) sawNull = true;
  }
  return sawNull ? null : false;
}

const negate = (v: boolean | null, negated: boolean): boolean | null => (v === null || !negated ? v : !v);

function and(e: Evaluation, left: Expr, right: Expr): boolean | null {
  const l = e.bool(left);
  if (l === false) return false;
  const r = e.bool(right);
  if (r === false) return false;
  return l === null || r === null ? null : true;
}

function or(e: Evaluation, left: Expr, right: Expr): boolean | null {
  const l = e.bool(left);
  if (l === true) return true;
  const r = e.bool(right);
  if (r === true) return true;
  return l === null || r === null ? null : false;
}

const compareOps = {
  '=': (c: number) => c === 0,
  '<>': (c: number) => c !== 0,
  '<': (c: number) => c < 0,
  '<=': (c: number) => c <= 0,
  '>': (c: number) => c > 0,
  '>=': (c: number) => c >= 0,
} as const;

const handlers: { readonly [K in ExprKind]: (node: ExprOf<K>, e: Evaluation) => FormulaValue } = {
  Number: (n) => n.value,
  String: (n) => n.value,
  Boolean: (n) => n.value,
  Null: () => null,
  Field: (n, e) => {
    const resolved = e.checked.fields.get(n as FieldRef);
    if (!resolved) throw new Error(`formula evaluate: field ${n.path.join('.')} was not checked`);
    return fieldValue(e.row[resolved.path.join('.')], resolved.type);
  },
  Negate: (n, e) => {
    const v = e.value(n.operand);
    return v === null ? null : -(v as number);
  },
  Not: (n, e) => negate(e.bool(n.operand), true),
  Arithmetic: (n, e) => arithmetic(n.op, e.value(n.left), e.value(n.right)),
  Concat: (n, e) => {
    const [l, r] = [e.value(n.left), e.value(n.right)];
    return l === null || r === null ? null : `${String(l)}${String(r)}`;
  },
  Compare: (n, e) => {
    const c = e.compare(n.left, n.right);
    return c === null ? null : compareOps[n.op](c);
  },
  Logical: (n, e) => (n.op === 'AND' ? and(e, n.left, n.right) : or(e, n.left, n.right)),
  IsNull: (n, e) => (e.value(n.operand) === null) !== n.negated,
  Like: (n, e) => {
    const [text, pattern] = [e.value(n.operand), e.value(n.pattern)];
    return text === null || pattern === null ? null : likeMatches(String(text), String(pattern)) !== n.negated;
  },
  In: (n, e) => negate(equalsAny(e, n.operand, n.list), n.negated),
  Between: (n, e) => {
    const low = e.compare(n.operand, n.low);
    const high = e.compare(n.operand, n.high);
    const geLow = low === null ? null : low >= 0;
    const leHigh = high === null ? null : high <= 0;
    const both = geLow === false || leHigh === false ? false : geLow === null || leHigh === null ? null : true;
    return negate(both, n.negated);
  },
  Case: (n, e) => {
    for (const w of n.whens) {
      const matched = n.operand ? e.compare(n.operand, w.when) === 0 : e.bool(w.when) === true;
      if (matched) return e.value(w.then);
    }
    return n.otherwise ? e.value(n.otherwise) : null;
  },
  Call: (n, e) => callFunction(n, e),
  Cast: (n, e) => {
    const v = e.value(n.operand);
    return v === null ? null : castValue(v, e.typeOf(n.operand) as ValueType, n.target);
  },
};

/** Evaluates a checked formula over one row (values keyed by dotted API path). */
export function evaluateFormula(checked: CheckedFormula, row: FormulaRow, options: EvaluateOptions = {}): FormulaValue {
  const now = (options.now ?? new Date()).toISOString();
  return new Evaluation(checked, row, now).value(checked.ast);
}
