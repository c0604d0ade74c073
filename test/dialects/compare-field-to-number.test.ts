/**
 * PostgreSQL and MariaDB compare an integer column (not a bigint) or a decimal of at most 15
 * digits with a number literal in the column's own type (core/formula/exact-compare.ts decides
 * when, compareInColumnType in postgres-formula.ts and mysql-formula.ts spells it), so that an index serves it and no row is converted.
 * The law: on PGlite, the PostgreSQL server and MariaDB, that comparison gives the answer the
 * double comparison gives (the agreed meaning, DESIGN §7) for every value of the column, every
 * operator and every literal: the value's own double, its neighbours, halves, random, tiny and huge
 * doubles. Wider decimals and bigints keep the double comparison.
 */
import { PGlite } from '@electric-sql/pglite';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CompareOp } from '../../core/formula/ast.ts';
import { exactNumberKind } from '../../core/formula/exact-compare.ts';
import type { FormulaDialect } from '../../core/formula/formula-dialect.ts';
import type { ColumnType } from '../../core/schema/introspection.ts';
import type { Field } from '../../core/schema/model.ts';
import { ident, raw, render, sql, type Sql, type SqlRenderer } from '../../core/sql.ts';
import { mysqlFormula } from '../../dialects/mysql/mysql-formula.ts';
import { postgresFormula } from '../../dialects/postgres/postgres-formula.ts';
import { field, pgRenderer } from '../support/formula-fixtures.ts';
import { mysqlAdminConnection } from '../support/mysql-target.ts';
import { connectedOrSkipped, pgClient, SERVER_CONNECT_TIMEOUT_MS } from '../support/probe.ts';
import { PG_ADMIN_URL } from '../support/vendors.ts';
import { dialect as mysqlDialect } from './mysql/mysql-setup.ts';

type Query = (text: string, params: unknown[]) => Promise<Record<string, unknown>[]>;

interface Target {
  readonly name: string;
  readonly formula: FormulaDialect;
  readonly renderer: SqlRenderer;
  readonly query: Query;
  /** The SQL type a value of `column` is cast to, to stand for the column. */
  readonly typeOf: (column: Column) => string;
  /** True when `a` and `b` differ, NULL against a value included. */
  readonly differ: (a: Sql, b: Sql) => Sql;
  close(): Promise<void>;
}

const OPS: CompareOp[] = ['=', '<>', '<', '<=', '>', '>='];

interface Column {
  readonly name: string;
  readonly field: Field;
  /** Values of the column as text. */
  readonly values: fc.Arbitrary<string>;
}

const typed = (type: ColumnType, nativeType: string, precision: number | null, scale: number | null): Field => ({
  ...field('c', 'c', type, nativeType),
  numericPrecision: precision,
  numericScale: scale,
});

/** A decimal of `digits` digits, `scale` of them after the point, as text. */
function decimals(digits: number, scale: number): fc.Arbitrary<string> {
  const most = 10n ** BigInt(digits) - 1n;
  return fc.bigInt({ min: -most, max: most }).map((n) => {
    const sign = n < 0n ? '-' : '';
    const body = (n < 0n ? -n : n).toString().padStart(scale + 1, '0');
    return scale === 0 ? `${sign}${body}` : `${sign}${body.slice(0, -scale)}.${body.slice(-scale)}`;
  });
}

const decimal = (digits: number, scale: number): Column => ({
  name: `decimal(${digits},${scale})`,
  field: typed('decimal', `numeric(${digits},${scale})`, digits, scale),
  values: decimals(digits, scale),
});

const COLUMNS: Column[] = [
  { name: 'integer', field: typed('integer', 'integer', 32, 0), values: fc.integer().map(String) },
  { name: 'smallint', field: typed('integer', 'smallint', 16, 0), values: fc.integer({ min: -32768, max: 32767 }).map(String) },
  { name: 'int unsigned', field: typed('integer', 'int unsigned', 32, 0), values: fc.integer({ min: 0, max: 4_294_967_295 }).map(String) },
  decimal(12, 2),
  decimal(15, 6),
  decimal(15, 0),
  decimal(15, 15),
];

/** The SQL type standing for a column: PostgreSQL has no unsigned int (a bigint holds its values). */
const pgType = (column: Column): string => (column.name === 'int unsigned' ? 'bigint' : column.name.replace('decimal', 'numeric'));
/** MySQL's CAST knows SIGNED, UNSIGNED and DECIMAL, which stand for the integer columns' values exactly. */
const mysqlType = (column: Column): string => (column.name === 'int unsigned' ? 'UNSIGNED' : column.field.type === 'integer' ? 'SIGNED' : column.name.toUpperCase());

/** The double next to `x` towards +∞ (`up`) or −∞. */
function neighbour(x: number, up: boolean): number {
  if (x === 0) return up ? Number.MIN_VALUE : -Number.MIN_VALUE;
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const bits = view.getBigUint64(0);
  view.setBigUint64(0, (x > 0) === up ? bits + 1n : bits - 1n);
  return view.getFloat64(0);
}

/** Literals near the value and anywhere. */
const literalFor = (value: string): fc.Arbitrary<number> => {
  const x = Number(value);
  return fc.oneof(
    fc.constantFrom(x, neighbour(x, true), neighbour(x, false), x + 0.5, x - 0.5, Math.trunc(x), -x, x / 1e6),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.integer(),
    fc.constantFrom(2 ** 53, 1e15, 1e20, -1e21, 1e-6, 1e-7, 5e-324),
  );
};

/** What the emitter writes for `field op literal` in the column's type (emit.ts), or null for the double comparison. */
function inColumnType(f: FormulaDialect, op: CompareOp, ref: Sql, column: Field, literal: number): Sql | null {
  const kind = exactNumberKind(column, literal);
  return (kind && f.compareInColumnType?.(op, ref, kind, literal)) ?? null;
}

/** Whether the native comparison and the double one disagree on `value` (NULLs too). */
async function disagrees(target: Target, column: Column, value: string, op: CompareOp, literal: number): Promise<boolean> {
  const f = target.formula;
  const ref = ident('t', 'c');
  const native = inColumnType(f, op, ref, column.field, literal);
  if (!native) return false;
  const double = f.compare(op, f.fieldValue(ref, column.field, 'number'), f.literal(literal, 'number'), 'number');
  const statement = render(sql`SELECT ${target.differ(native, double)} AS differ FROM (SELECT CAST(${value} AS ${raw(target.typeOf(column))}) AS ${ident('c')}) AS ${ident('t')}`, target.renderer);
  const [row] = await target.query(statement.text, [...statement.params]);
  return row?.differ !== false && row?.differ !== 0;
}

/** What PGlite and the PostgreSQL server share. */
const pgSide = { formula: postgresFormula, renderer: pgRenderer, typeOf: pgType, differ: (a: Sql, b: Sql): Sql => sql`${a} IS DISTINCT FROM ${b}` };

async function openPostgres(): Promise<Target | null> {
  const client = await connectedOrSkipped(() => pgClient({ connectionString: PG_ADMIN_URL, connectionTimeoutMillis: SERVER_CONNECT_TIMEOUT_MS }));
  if (!client) return null;
  return {
    name: 'postgres',
    ...pgSide,
    query: async (text, params) => (await client.query(text, params)).rows,
    close: () => client.end(),
  };
}

async function openMariadb(): Promise<Target | null> {
  const conn = await connectedOrSkipped(mysqlAdminConnection);
  if (!conn) return null;
  return {
    name: 'mariadb',
    formula: mysqlFormula,
    renderer: mysqlDialect.sql,
    // Server-side prepared, as the driver runs statements (mysql-driver.ts).
    query: async (text, params) => (await conn.execute(text, params as never))[0] as Record<string, unknown>[],
    typeOf: mysqlType,
    differ: (a, b) => sql`NOT (${a} <=> ${b})`,
    close: () => conn.end(),
  };
}

describe('a number literal compared with an integer column or a decimal of at most 15 digits', () => {
  const targets: Target[] = [];
  beforeAll(async () => {
    // The servers first: PGlite's WASM compile blocks the event loop while a connection waits.
    for (const target of [await openPostgres(), await openMariadb()]) if (target) targets.push(target);
    const lite = new PGlite();
    targets.push({ name: 'pglite', ...pgSide, query: async (text, params) => (await lite.query<Record<string, unknown>>(text, params)).rows, close: () => lite.close() });
  }, 60_000);
  afterAll(async () => {
    await Promise.all(targets.map((t) => t.close()));
  });

  it('runs on every database it needs', () => {
    expect(targets.map((t) => t.name)).toContain('pglite');
    if (process.env.CI === 'true') expect(targets.map((t) => t.name).sort()).toEqual(['mariadb', 'pglite', 'postgres']);
  });

  it.each(COLUMNS.map((c) => [c.name, c] as const))('gives the double comparison’s answer on %s', async (_name, column) => {
    for (const target of targets) {
      await fc.assert(
        fc.asyncProperty(
          column.values.chain((value) => fc.tuple(fc.constant(value), literalFor(value), fc.constantFrom(...OPS))),
          async ([value, literal, op]) => {
            expect(await disagrees(target, column, value, op, literal), `${target.name}: ${value} ${op} ${literal}`).toBe(false);
          },
        ),
        { numRuns: 150 },
      );
    }
  }, 60_000);

  it('is compared in the column’s own type, and as doubles where that could differ', () => {
    const ref = ident('t', 'c');
    const spelled = (f: FormulaDialect, column: Field, literal: number): string | undefined => {
      const out = inColumnType(f, '>', ref, column, literal);
      return out ? render(out, f === postgresFormula ? pgRenderer : mysqlDialect.sql).text : undefined;
    };
    const int = typed('integer', 'integer', 32, 0);
    const money = typed('decimal', 'numeric(12,2)', 12, 2);
    expect(spelled(postgresFormula, int, 5)).toBe('("t"."c" > CAST($1 AS bigint))');
    expect(spelled(postgresFormula, money, 1000)).toBe('("t"."c" > CAST($1 AS numeric))');
    expect(spelled(mysqlFormula, int, 5)).toBe('(`t`.`c` > CAST(? AS SIGNED))');
    expect(spelled(mysqlFormula, money, 1000.5)).toBe('(`t`.`c` > CAST(? AS DECIMAL(65,30)))');
    expect(spelled(mysqlFormula, money, 1e-7)).toBeUndefined();
    expect(spelled(mysqlFormula, money, 1e15)).toBeUndefined();
    for (const f of [postgresFormula, mysqlFormula]) {
      expect(spelled(f, int, 5.5)).toBeUndefined();
      expect(spelled(f, int, 2 ** 60)).toBeUndefined();
      expect(spelled(f, typed('bigint', 'bigint', 64, 0), 5)).toBeUndefined();
      expect(spelled(f, typed('decimal', 'numeric(16,2)', 16, 2), 5)).toBeUndefined();
      expect(spelled(f, typed('decimal', 'numeric', null, null), 5)).toBeUndefined();
      expect(spelled(f, typed('float', 'double precision', null, null), 5)).toBeUndefined();
    }
  });
});
