/**
 * Random boolean formulas over the shared fixture's orders (test/support/fixture.ts), for the
 * `where` property: fields of orders, `rel.field` through customer, customer.region and product
 * (NULL when the order has no product), literals, comparisons, AND/OR/NOT, IN, BETWEEN, LIKE,
 * IS [NOT] NULL and functions. The evaluator decides the expected rows (where.property.test.ts).
 */
import fc from 'fast-check';
import type { Expr } from '../../core/formula/index.ts';
import type { FormulaRow } from '../../core/formula/index.ts';
import { ORDER_MODEL } from '../support/fixture-model.ts';

type T = 'number' | 'text' | 'boolean' | 'date' | 'timestamp';

const num = (value: number): Expr => (value < 0 ? { kind: 'Negate', operand: { kind: 'Number', value: -value } } : { kind: 'Number', value });
const str = (value: string): Expr => ({ kind: 'String', value });
const field = (path: string): Expr => ({ kind: 'Field', path: path.split('.') });
const call = (name: string, ...args: Expr[]): Expr => ({ kind: 'Call', name, args });
const NULL: Expr = { kind: 'Null' };

const fields: Record<T, Expr[]> = {
  number: ['quantity', 'amount', 'productId', 'customerId', 'customer.regionId', 'product.price'].map(field),
  text: ['status', 'note', 'customer.name', 'customer.region.name', 'product.name'].map(field),
  boolean: [field('customer.vip')],
  date: [field('customer.birthDate')],
  timestamp: [field('orderedAt')],
};
const literals: Record<T, Expr[]> = {
  number: [0, 1, 2, 3, -1, 2.5, 49.9, 100, 150.5].map(num),
  text: ['', 'paid', 'new', 'note 1', 'Ada', 'A', 'North', 'Zoë', 'x '].map(str),
  boolean: [{ kind: 'Boolean', value: true }, { kind: 'Boolean', value: false }],
  date: [{ kind: 'Cast', operand: str('1975-06-15'), target: { name: 'DATE' } }],
  timestamp: [{ kind: 'Cast', operand: str('2026-05-01 00:00:00'), target: { name: 'TIMESTAMP' } }],
};
const patterns = ['%', 'p%', '%d', '_ew', '%te 1%', 'A%', '', '100\\%%'].map(str);

const cache = new Map<string, fc.Arbitrary<Expr>>();

/** Mostly fields, so that most formulas depend on the row. */
function leaf(type: T): fc.Arbitrary<Expr> {
  return fc.oneof(
    { arbitrary: fc.constantFrom(...fields[type]), weight: 6 },
    { arbitrary: fc.constantFrom(...literals[type]), weight: 3 },
    { arbitrary: fc.constant(NULL), weight: 1 },
  );
}

function typed(type: T, depth: number): fc.Arbitrary<Expr> {
  const key = `${type}:${depth}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const arb = depth <= 0 ? leaf(type) : fc.oneof({ arbitrary: leaf(type), weight: 2 }, { arbitrary: composite(type, depth - 1), weight: 3 });
  cache.set(key, arb);
  return arb;
}

/** Operands of one type for a comparison, IN or BETWEEN. */
function sameType(depth: number, count: number): fc.Arbitrary<Expr[]> {
  return fc.constantFrom<T>('number', 'text', 'date', 'timestamp', 'boolean').chain((t) => fc.array(typed(t, depth), { minLength: count, maxLength: count }));
}

function composite(type: T, d: number): fc.Arbitrary<Expr> {
  const n = typed('number', d);
  const t = typed('text', d);
  const b = typed('boolean', d);
  switch (type) {
    case 'number':
      return fc.oneof(
        fc.tuple(fc.constantFrom('+', '-', '*', '/'), n, n).map(([op, left, right]) => ({ kind: 'Arithmetic', op, left, right }) as Expr),
        fc.tuple(fc.constantFrom('ABS', 'ROUND', 'FLOOR'), n).map(([name, x]) => call(name, x)),
        t.map((x) => call('LENGTH', x)),
        fc.array(n, { minLength: 1, maxLength: 3 }).map((args) => call('COALESCE', ...args)),
      );
    case 'text':
      return fc.oneof(
        fc.tuple(fc.constantFrom('UPPER', 'LOWER', 'TRIM'), t).map(([name, x]) => call(name, x)),
        fc.tuple(t, t).map(([left, right]) => ({ kind: 'Concat', left, right }) as Expr),
        fc.array(t, { minLength: 1, maxLength: 3 }).map((args) => call('CONCAT', ...args)),
        fc.tuple(t, fc.constantFrom(1, 2, 3)).map(([s, start]) => call('SUBSTRING', s, num(start), num(2))),
      );
    case 'boolean':
      return fc.oneof(
        fc.tuple(fc.constantFrom('=', '<>', '<', '<=', '>', '>='), sameType(d, 2)).map(([op, [left, right]]) => ({ kind: 'Compare', op, left: left!, right: right! }) as Expr),
        fc.tuple(fc.constantFrom('=', '<>', '<', '>='), fc.constantFrom<T>('number', 'text', 'timestamp')).chain(([op, t]) =>
          fc.tuple(fc.constantFrom(...fields[t]), fc.constantFrom(...literals[t])).map(([left, right]) => ({ kind: 'Compare', op, left, right }) as Expr),
        ),
        fc.tuple(fc.constantFrom('AND', 'OR'), b, b).map(([op, left, right]) => ({ kind: 'Logical', op, left, right }) as Expr),
        b.map((operand) => ({ kind: 'Not', operand }) as Expr),
        fc.tuple(fc.boolean(), fc.constantFrom<T>('number', 'text', 'date').chain((x) => typed(x, d))).map(([negated, operand]) => ({ kind: 'IsNull', negated, operand }) as Expr),
        fc.tuple(fc.boolean(), t, fc.constantFrom(...patterns)).map(([negated, operand, pattern]) => ({ kind: 'Like', negated, operand, pattern }) as Expr),
        fc.tuple(fc.boolean(), sameType(d, 3)).map(([negated, [operand, ...list]]) => ({ kind: 'In', negated, operand: operand!, list }) as Expr),
        fc.tuple(fc.boolean(), sameType(d, 3)).map(([negated, [operand, low, high]]) => ({ kind: 'Between', negated, operand: operand!, low: low!, high: high! }) as Expr),
      );
    default:
      return leaf(type);
  }
}

/** A boolean formula nesting at most `depth` levels of composites. */
export const booleanFormula = (depth: number): fc.Arbitrary<Expr> => composite('boolean', depth);

/** Each fixture order as the evaluator reads it: values keyed by API path, timestamps as ISO text. */
export const ORDER_FORMULA_ROWS: readonly FormulaRow[] = ORDER_MODEL.map((row) => ({
  ...row,
  orderedAt: new Date(Number(row.orderedAt)).toISOString(),
}));
