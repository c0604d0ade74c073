/**
 * fast-check generators: any AST (for the print/parse round trip) and well-typed formulas over
 * the fixture model (for the differential test), small but deep: nested CASE, NULLs, negative
 * numbers, empty strings, unicode, trailing spaces.
 */
import fc from 'fast-check';
import type { CastTarget, Expr } from '../../core/formula/index.ts';
import type { Row } from './db.ts';

const names = ['a', 'amount', 'select', 'odd name', 'x"y', 'END', 'é', '_1', 'Case'];
const castTargets: CastTarget[] = [
  { name: 'TEXT' },
  { name: 'VARCHAR', length: 3 },
  { name: 'VARCHAR', length: null },
  { name: 'INTEGER' },
  { name: 'BIGINT' },
  { name: 'DECIMAL', precision: 10, scale: 2 },
  { name: 'DECIMAL', precision: null, scale: null },
  { name: 'BOOLEAN' },
  { name: 'DATE' },
  { name: 'TIMESTAMP' },
];

/** Any syntactically valid AST, typed or not. */
export const anyAst: fc.Arbitrary<Expr> = fc.letrec<{ expr: Expr }>((tie) => {
  const e = tie('expr');
  const leaf: fc.Arbitrary<Expr> = fc.oneof(
    fc.double({ min: 0, max: 1e25, noNaN: true }).filter((v) => !Object.is(v, -0)).map((value) => ({ kind: 'Number', value }) as Expr),
    fc.string({ unit: 'grapheme', maxLength: 6 }).map((value) => ({ kind: 'String', value }) as Expr),
    fc.boolean().map((value) => ({ kind: 'Boolean', value }) as Expr),
    fc.constant({ kind: 'Null' } as Expr),
    fc.array(fc.constantFrom(...names), { minLength: 1, maxLength: 3 }).map((path) => ({ kind: 'Field', path }) as Expr),
    fc.constantFrom<Expr>({ kind: 'Call', name: 'CURRENT_DATE', args: [] }, { kind: 'Call', name: 'NOW', args: [] }),
  );
  const node: fc.Arbitrary<Expr> = fc.oneof(
    e.map((operand) => ({ kind: 'Negate', operand }) as Expr),
    e.map((operand) => ({ kind: 'Not', operand }) as Expr),
    fc.tuple(fc.constantFrom('+', '-', '*', '/'), e, e).map(([op, left, right]) => ({ kind: 'Arithmetic', op, left, right }) as Expr),
    fc.tuple(e, e).map(([left, right]) => ({ kind: 'Concat', left, right }) as Expr),
    fc.tuple(fc.constantFrom('=', '<>', '<', '<=', '>', '>='), e, e).map(([op, left, right]) => ({ kind: 'Compare', op, left, right }) as Expr),
    fc.tuple(fc.constantFrom('AND', 'OR'), e, e).map(([op, left, right]) => ({ kind: 'Logical', op, left, right }) as Expr),
    fc.tuple(fc.boolean(), e).map(([negated, operand]) => ({ kind: 'IsNull', negated, operand }) as Expr),
    fc.tuple(fc.boolean(), e, e).map(([negated, operand, pattern]) => ({ kind: 'Like', negated, operand, pattern }) as Expr),
    fc.tuple(fc.boolean(), e, fc.array(e, { minLength: 1, maxLength: 3 })).map(
      ([negated, operand, list]) => ({ kind: 'In', negated, operand, list }) as Expr,
    ),
    fc.tuple(fc.boolean(), e, e, e).map(([negated, operand, low, high]) => ({ kind: 'Between', negated, operand, low, high }) as Expr),
    fc.tuple(fc.option(e, { nil: null }), fc.array(fc.record({ when: e, then: e }), { minLength: 1, maxLength: 2 }), fc.option(e, { nil: null })).map(
      ([operand, whens, otherwise]) => ({ kind: 'Case', operand, whens, otherwise }) as Expr,
    ),
    fc.tuple(fc.constantFrom('UPPER', 'ABS', 'LENGTH'), e).map(([name, arg]) => ({ kind: 'Call', name, args: [arg] }) as Expr),
    fc.tuple(fc.constantFrom('CONCAT', 'COALESCE', 'GREATEST'), fc.array(e, { minLength: 1, maxLength: 3 })).map(
      ([name, args]) => ({ kind: 'Call', name, args }) as Expr,
    ),
    fc.tuple(e, fc.constantFrom(...castTargets)).map(([operand, target]) => ({ kind: 'Cast', operand, target }) as Expr),
  );
  return { expr: fc.oneof({ depthSize: 'small', withCrossShrink: true }, leaf, node) };
}).expr;

// ——— well-typed formulas over the fixture model ———

type T = 'number' | 'text' | 'boolean' | 'date' | 'timestamp';
const types: T[] = ['number', 'text', 'boolean', 'date', 'timestamp'];

const num = (value: number): Expr => (value < 0 ? { kind: 'Negate', operand: { kind: 'Number', value: -value } } : { kind: 'Number', value });
const str = (value: string): Expr => ({ kind: 'String', value });
const field = (...path: string[]): Expr => ({ kind: 'Field', path });
const call = (name: string, ...args: Expr[]): Expr => ({ kind: 'Call', name, args });
const cast = (operand: Expr, target: CastTarget): Expr => ({ kind: 'Cast', operand, target });
const NULL: Expr = { kind: 'Null' };

const numbers = [0, 1, 2, 3, -1, 0.5, -2.5, 2.675, 10, 1234.5678, 0.1, 1e-3, 7, 100];
const strings = ['', 'a', 'abc', ' x ', 'trail  ', 'héllo', '中文', '😀x', 'A_b%', "it's", 'Zz', 'aBc', 'l'];
const patterns = ['%', 'a%', '%c', '_', '%l%', '_b%', '', 'A\\_b\\%'];
const leaves: Record<T, Expr[]> = {
  number: [...numbers.map(num), field('amount'), field('qty'), field('price'), field('customer', 'id')],
  text: [...strings.map(str), field('note'), field('code'), field('customer', 'name'), field('customer', 'region', 'name')],
  boolean: [{ kind: 'Boolean', value: true }, { kind: 'Boolean', value: false }, field('paid'), field('customer', 'vip')],
  date: [field('orderDate'), cast(str('2024-02-29'), { name: 'DATE' }), cast(str('1999-12-31'), { name: 'DATE' })],
  timestamp: [field('createdAt'), field('shippedAt'), cast(str('2024-02-29 12:00:00'), { name: 'TIMESTAMP' })],
};

const cache = new Map<string, fc.Arbitrary<Expr>>();

function leaf(type: T): fc.Arbitrary<Expr> {
  return fc.oneof({ arbitrary: fc.constantFrom(...leaves[type]), weight: 6 }, { arbitrary: fc.constant(NULL), weight: 1 });
}

/** A formula of `type` nesting at most `depth` levels. */
export function typed(type: T, depth: number): fc.Arbitrary<Expr> {
  const key = `${type}:${depth}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const arb = depth <= 0 ? leaf(type) : fc.oneof({ arbitrary: leaf(type), weight: 2 }, { arbitrary: composite(type, depth - 1), weight: 5 });
  cache.set(key, arb);
  return arb;
}

function anyTyped(depth: number): fc.Arbitrary<Expr> {
  return fc.constantFrom(...types).chain((t) => typed(t, depth));
}

function sameTypeList(depth: number, min: number, max: number): fc.Arbitrary<Expr[]> {
  return fc.constantFrom<T>('number', 'text', 'date', 'boolean').chain((t) => fc.array(typed(t, depth), { minLength: min, maxLength: max }));
}

/** Operands for IN and BETWEEN, of one type (text with trailing spaces included). */
function listOperands(depth: number, min: number, max: number): fc.Arbitrary<Expr[]> {
  return fc.constantFrom<T>('number', 'text', 'date', 'boolean').chain((t) => fc.array(typed(t, depth), { minLength: min, maxLength: max }));
}

function caseOf(type: T, d: number): fc.Arbitrary<Expr> {
  const searched = fc
    .tuple(fc.array(fc.record({ when: typed('boolean', d), then: typed(type, d) }), { minLength: 1, maxLength: 3 }), fc.option(typed(type, d), { nil: null }))
    .map(([whens, otherwise]) => ({ kind: 'Case', operand: null, whens, otherwise }) as Expr);
  const simple = fc
    .tuple(typed('number', d), fc.array(fc.record({ when: typed('number', d), then: typed(type, d) }), { minLength: 1, maxLength: 2 }), fc.option(typed(type, d), { nil: null }))
    .map(([operand, whens, otherwise]) => ({ kind: 'Case', operand, whens, otherwise }) as Expr);
  return fc.oneof(searched, simple);
}

function composite(type: T, d: number): fc.Arbitrary<Expr> {
  const n = typed('number', d);
  const t = typed('text', d);
  const b = typed('boolean', d);
  const smallInt = fc.constantFrom(...[-1, 0, 1, 2, 3, 5].map(num));
  const common = [caseOf(type, d), fc.array(typed(type, d), { minLength: 1, maxLength: 3 }).map((args) => call('COALESCE', ...args))];
  switch (type) {
    case 'number':
      return fc.oneof(
        ...common,
        fc.tuple(fc.constantFrom('+', '-', '*', '/'), n, n).map(([op, left, right]) => ({ kind: 'Arithmetic', op, left, right }) as Expr),
        n.map((operand) => ({ kind: 'Negate', operand }) as Expr),
        fc.tuple(fc.constantFrom('ABS', 'CEIL', 'FLOOR', 'ROUND'), n).map(([name, x]) => call(name, x)),
        fc.tuple(n, smallInt).map(([x, digits]) => call('ROUND', x, digits)),
        fc.tuple(n, n).map(([a, b2]) => call('MOD', a, b2)),
        t.map((x) => call('LENGTH', x)),
        fc.tuple(fc.constantFrom('GREATEST', 'LEAST'), fc.array(n, { minLength: 1, maxLength: 3 })).map(([name, args]) => call(name, ...args)),
        fc.tuple(n, n).map(([a, b2]) => call('NULLIF', a, b2)),
        fc.tuple(n, fc.constantFrom<CastTarget>({ name: 'INTEGER' }, { name: 'DECIMAL', precision: 12, scale: 2 }, { name: 'DECIMAL', precision: null, scale: null })).map(([x, target]) => cast(x, target)),
        b.map((x) => cast(x, { name: 'INTEGER' })),
        fc.constantFrom(" 12 ", '-3', '1.25', '1e2').map((s) => cast(str(s), { name: 'DECIMAL', precision: null, scale: null })),
      );
    case 'text':
      return fc.oneof(
        ...common,
        fc.tuple(anyTyped(d), anyTyped(d)).map(([left, right]) => ({ kind: 'Concat', left, right }) as Expr),
        fc.array(anyTyped(d), { minLength: 1, maxLength: 3 }).map((args) => call('CONCAT', ...args)),
        fc.tuple(fc.constantFrom('UPPER', 'LOWER', 'TRIM'), t).map(([name, x]) => call(name, x)),
        fc.tuple(t, smallInt, fc.option(smallInt, { nil: undefined })).map(([s, start, len]) => (len ? call('SUBSTRING', s, start, len) : call('SUBSTRING', s, start))),
        fc.tuple(t, fc.constantFrom(...strings.map(str)), t).map(([s, from, to]) => call('REPLACE', s, from, to)),
        fc.tuple(fc.constantFrom('GREATEST', 'LEAST'), fc.array(t, { minLength: 1, maxLength: 3 })).map(([name, args]) => call(name, ...args)),
        fc.tuple(t, t).map(([a, b2]) => call('NULLIF', a, b2)),
        fc.tuple(anyTyped(d), fc.constantFrom<CastTarget>({ name: 'TEXT' }, { name: 'VARCHAR', length: 3 })).map(([x, target]) => cast(x, target)),
      );
    case 'boolean':
      return fc.oneof(
        ...common,
        fc.tuple(fc.constantFrom('=', '<>', '<', '<=', '>', '>='), sameTypeList(d, 2, 2)).map(
          ([op, [left, right]]) => ({ kind: 'Compare', op, left: left!, right: right! }) as Expr,
        ),
        fc.tuple(fc.constantFrom('AND', 'OR'), b, b).map(([op, left, right]) => ({ kind: 'Logical', op, left, right }) as Expr),
        b.map((operand) => ({ kind: 'Not', operand }) as Expr),
        fc.tuple(fc.boolean(), anyTyped(d)).map(([negated, operand]) => ({ kind: 'IsNull', negated, operand }) as Expr),
        fc.tuple(fc.boolean(), t, fc.constantFrom(...patterns.map(str))).map(([negated, operand, pattern]) => ({ kind: 'Like', negated, operand, pattern }) as Expr),
        fc.tuple(fc.boolean(), listOperands(d, 2, 4)).map(([negated, [operand, ...list]]) => ({ kind: 'In', negated, operand: operand!, list }) as Expr),
        fc.tuple(fc.boolean(), listOperands(d, 3, 3)).map(([negated, [operand, low, high]]) => ({ kind: 'Between', negated, operand: operand!, low: low!, high: high! }) as Expr),
        fc.constantFrom('yes', ' Of', '1', 'f', 'TRUE').map((s) => cast(str(s), { name: 'BOOLEAN' })),
        n.map((x) => cast(x, { name: 'BOOLEAN' })),
      );
    case 'date':
      return fc.oneof(
        ...common,
        typed('timestamp', d).map((x) => cast(x, { name: 'DATE' })),
        fc.tuple(fc.constantFrom('GREATEST', 'LEAST'), fc.array(typed('date', d), { minLength: 1, maxLength: 3 })).map(([name, args]) => call(name, ...args)),
      );
    case 'timestamp':
      return fc.oneof(...common, typed('date', d).map((x) => cast(x, { name: 'TIMESTAMP' })));
  }
}

/** A well-typed formula of any type. */
export const typedFormula = (depth: number): fc.Arbitrary<Expr> => anyTyped(depth);

// ——— rows ———

const maybe = <V>(arb: fc.Arbitrary<V>): fc.Arbitrary<V | null> => fc.option(arb, { nil: null, freq: 5 });
const millis = fc.integer({ min: Date.UTC(1990, 0, 1), max: Date.UTC(2040, 0, 1) });

/**
 * Random doubles for `amount`, but none of magnitude below 1e-6 except 0: MySQL/MariaDB keep the
 * decimal steps (ROUND, MOD, CAST to DECIMAL) in DECIMAL(65,30), which holds 15 significant
 * digits only down to 1e-16 (docs/formulas-and-parity.md, "Formula parity"); 1e-6 leaves room for a few
 * multiplications and divisions in a formula. Tiny numbers as text stay covered by traps.ts.
 */
const amountArb = fc.double({ min: -1e4, max: 1e4, noNaN: true }).filter((v) => v === 0 || Math.abs(v) >= 1e-6);

export const rowArb: fc.Arbitrary<Row> = fc.record({
  amount: maybe(fc.oneof(fc.constantFrom(0, -0.5, 2.5, 1e-3, 1234.5678, 0.1), amountArb)),
  qty: maybe(fc.integer({ min: -50, max: 1000 })),
  price: maybe(fc.integer({ min: -100000, max: 100000 }).map((cents) => cents / 100)),
  note: maybe(fc.constantFrom(...strings, 'Hello World  ', 'l%l_l')),
  code: maybe(fc.constantFrom('AB-1', 'x', '', 'ÅÄÖ', 'a b ')),
  paid: maybe(fc.boolean()),
  orderDate: maybe(millis.map((ms) => new Date(ms).toISOString().slice(0, 10))),
  createdAt: maybe(millis.map((ms) => new Date(ms).toISOString())),
  shippedAt: maybe(millis.map((ms) => new Date(ms).toISOString())),
  'customer.name': maybe(fc.constantFrom(...strings)),
  'customer.vip': maybe(fc.boolean()),
  'customer.region.name': maybe(fc.constantFrom(...strings)),
});
