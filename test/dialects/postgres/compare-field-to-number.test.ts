/**
 * PostgreSQL compares an int4 or a decimal of at most 15 digits with a number literal in the
 * column's own type (postgres-formula.ts, compareFieldToNumber), so that an index serves it and no
 * row is converted. The law: on PGlite and the PostgreSQL server, that comparison gives the answer
 * the double comparison gives (the agreed meaning, DESIGN §7) for every value of the column, every
 * operator and every literal: the value's own double, its neighbours, halves, random and huge
 * doubles. Wider decimals and bigints keep the double comparison.
 */
import { PGlite } from '@electric-sql/pglite';
import fc from 'fast-check';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CompareOp } from '../../../core/formula/ast.ts';
import type { ColumnType } from '../../../core/schema/introspection.ts';
import type { Field } from '../../../core/schema/model.ts';
import { ident, raw, render, sql } from '../../../core/sql.ts';
import { postgresFormula } from '../../../dialects/postgres/postgres-formula.ts';
import { field, pgRenderer } from '../../formula/fixtures.ts';
import { SERVER_CONNECT_TIMEOUT_MS } from '../../support/probe.ts';

type Query = (text: string, params: unknown[]) => Promise<unknown[]>;

const OPS: CompareOp[] = ['=', '<>', '<', '<=', '>', '>='];
const compareNative = postgresFormula.compareFieldToNumber;

interface Column {
  readonly sqlType: string;
  readonly field: Field;
  /** Values of the column as PostgreSQL's text. */
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

const COLUMNS: Column[] = [
  { sqlType: 'integer', field: typed('integer', 'integer', 32, 0), values: fc.integer().map(String) },
  { sqlType: 'smallint', field: typed('integer', 'smallint', 16, 0), values: fc.integer({ min: -32768, max: 32767 }).map(String) },
  { sqlType: 'numeric(12,2)', field: typed('decimal', 'numeric(12,2)', 12, 2), values: decimals(12, 2) },
  { sqlType: 'numeric(15,6)', field: typed('decimal', 'numeric(15,6)', 15, 6), values: decimals(15, 6) },
  { sqlType: 'numeric(15,0)', field: typed('decimal', 'numeric(15,0)', 15, 0), values: decimals(15, 0) },
  { sqlType: 'numeric(15,15)', field: typed('decimal', 'numeric(15,15)', 15, 15), values: decimals(15, 15) },
];

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
    fc.constantFrom(x, neighbour(x, true), neighbour(x, false), x + 0.5, x - 0.5, Math.trunc(x), -x),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.integer(),
    fc.constantFrom(2 ** 53, 1e20, -1e21, 1e-7, 5e-324),
  );
};

/** Rows where the native comparison and the double one disagree (IS DISTINCT FROM: NULLs too). */
async function disagrees(query: Query, column: Column, value: string, op: CompareOp, literal: number): Promise<boolean> {
  const ref = ident('t', 'c');
  const native = compareNative?.(op, ref, column.field, literal);
  if (!native) return false;
  const double = postgresFormula.compare(op, postgresFormula.fieldValue(ref, column.field, 'number'), postgresFormula.literal(literal, 'number'), 'number');
  const statement = render(sql`SELECT ${native} IS DISTINCT FROM ${double} AS differ FROM (SELECT CAST(${value} AS ${raw(column.sqlType)}) AS "c") AS "t"`, pgRenderer);
  const [row] = (await query(statement.text, [...statement.params])) as { differ: boolean }[];
  return row?.differ !== false;
}

async function openServer(): Promise<{ query: Query; close: () => Promise<void> } | null> {
  const client = new pg.Client({ host: '127.0.0.1', port: 5432, user: 'postgres', database: 'test', connectionTimeoutMillis: SERVER_CONNECT_TIMEOUT_MS });
  try {
    await client.connect();
  } catch (error) {
    if (process.env.CI === 'true') throw error;
    return null;
  }
  return { query: async (text, params) => (await client.query(text, params)).rows, close: () => client.end() };
}

describe('a number literal compared with an int4 or a decimal of at most 15 digits', () => {
  const targets: { name: string; query: Query; close: () => Promise<void> }[] = [];
  beforeAll(async () => {
    const server = await openServer();
    if (server) targets.push({ name: 'postgres', ...server });
    const lite = new PGlite();
    targets.push({ name: 'pglite', query: async (text, params) => (await lite.query(text, params)).rows, close: () => lite.close() });
  }, 60_000);
  afterAll(async () => {
    await Promise.all(targets.map((t) => t.close()));
  });

  it.each(COLUMNS.map((c) => [c.sqlType, c] as const))('gives the double comparison’s answer on %s', async (_name, column) => {
    for (const target of targets) {
      await fc.assert(
        fc.asyncProperty(
          column.values.chain((value) => fc.tuple(fc.constant(value), literalFor(value), fc.constantFrom(...OPS))),
          async ([value, literal, op]) => {
            expect(await disagrees(target.query, column, value, op, literal), `${target.name}: ${value} ${op} ${literal}`).toBe(false);
          },
        ),
        { numRuns: 150 },
      );
    }
  }, 60_000);

  it('is compared in the column’s own type, and as doubles where that could differ', () => {
    const ref = ident('t', 'c');
    const spelled = (f: Field, literal: number): string | undefined => {
      const out = compareNative?.('>', ref, f, literal);
      return out ? render(out, pgRenderer).text : undefined;
    };
    expect(spelled(typed('integer', 'integer', 32, 0), 5)).toBe('("t"."c" > CAST($1 AS bigint))');
    expect(spelled(typed('decimal', 'numeric(12,2)', 12, 2), 1000)).toBe('("t"."c" > CAST($1 AS numeric))');
    expect(spelled(typed('integer', 'integer', 32, 0), 5.5)).toBeUndefined();
    expect(spelled(typed('integer', 'integer', 32, 0), 2 ** 60)).toBeUndefined();
    expect(spelled(typed('bigint', 'bigint', 64, 0), 5)).toBeUndefined();
    expect(spelled(typed('decimal', 'numeric(16,2)', 16, 2), 5)).toBeUndefined();
    expect(spelled(typed('decimal', 'numeric', null, null), 5)).toBeUndefined();
    expect(spelled(typed('float', 'double precision', null, null), 5)).toBeUndefined();
  });
});
