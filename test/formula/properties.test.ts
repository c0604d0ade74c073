/**
 * Properties: print/parse round trip over any AST, and the differential test — random
 * well-typed formulas over random rows give the same value from the evaluator and from each
 * database. Doubles compare exactly: both sides compute IEEE doubles, PostgreSQL prints them
 * in shortest round-trip form (extra_float_digits = 1) and the driver reads them back exactly.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkFormula, evaluateFormula, parseFormula, printFormula, type CheckedFormula, type Expr } from '../../core/formula/index.ts';
import { anyAst, rowArb, typedFormula } from './arbitraries.ts';
import { openLoadedTargets, runOnDatabase, type Row, type Target } from './db.ts';
import { context } from '../support/formula-fixtures.ts';

describe('print/parse round trip', () => {
  it('parseFormula(printFormula(ast)) equals ast', () => {
    fc.assert(
      fc.property(anyAst, (ast) => {
        expect(parseFormula(printFormula(ast))).toEqual(ast);
      }),
      { numRuns: 1500 },
    );
  });

  it('holds for the canonical text of checked formulas', () => {
    fc.assert(
      fc.property(typedFormula(4), (ast) => {
        // A formula the cost bound refuses has no canonical text to keep.
        const checked = checkedUnlessCostly(ast);
        fc.pre(checked !== null);
        expect(parseFormula(printFormula(checked.ast))).toEqual(checked.ast);
      }),
      { numRuns: 300 },
    );
  });
});

/** Every evaluator value, or the error when it raises. */
function evaluateRows(checked: CheckedFormula, rows: readonly Row[]): unknown[] | { error: string } {
  try {
    return rows.map((row) => {
      const full = { ...row, 'customer.id': rows.indexOf(row) + 1, 'customer.region.id': rows.indexOf(row) + 1 };
      const v = evaluateFormula(checked, full);
      return v === 0 ? 0 : v;
    });
  } catch (error) {
    return { error: (error as Error).message };
  }
}

/** Failures found while writing the test, kept as regression examples. */
const regressions: readonly string[] = [
  'CAST(9007199254740993 AS BIGINT)',
  "SUBSTRING('hello', 0, 3)",
  "LENGTH(CONCAT(amount, paid, orderDate, createdAt))",
  "CASE qty WHEN NULL THEN 'a' ELSE 'b' END",
  'ROUND(2.675, 2) + MOD(0.3, 0.1)',
  'CEIL(amount)',
  "GREATEST('😀x', 'Zz', '中文')",
  // Found on MariaDB (formula parity); each was fixed in mysql-formula.ts.
  'LENGTH(CONCAT(amount, 2.6403918672989477e-155, -2.5e-323))',
  "REPLACE(NULLIF(SUBSTRING(CONCAT(0), -1), UPPER(CAST(3 AS TEXT))), '', NULLIF(SUBSTRING(REPLACE(NULL, '', ''), -1), REPLACE(0 || 0, '', NULLIF('', ''))))",
  'GREATEST(GREATEST(GREATEST(orderDate))) BETWEEN NULL AND CAST(COALESCE(COALESCE(createdAt)) AS DATE)',
  "REPLACE(CONCAT(-MOD(0, -1)), '', '')",
  "SUBSTRING(NULLIF(CAST(REPLACE('', '', '') AS TEXT), ''), -1, -1)",
  'MOD(0, COALESCE(amount, ROUND(0, -1) + (0 + 0)))',
  'CAST(amount * 1.1 AS DECIMAL) + CAST(9999.999999999985 AS DECIMAL)',
  "NULLIF(TRIM(note), note) || GREATEST(note, TRIM(note), note || ' ')",
  // Found by CI seed -309382612: a double whose shortest digits end in a tie.
  'CAST(MOD(COALESCE(price / amount, ABS(0)), 1) AS DECIMAL)',
  // Text that is no number: an error everywhere (MariaDB used to answer 0).
  "CAST(COALESCE('x') AS INTEGER) = 0",
  "CAST(COALESCE(CASE WHEN qty = 1 THEN '7a' ELSE ' 12 ' END) AS INTEGER)",
  "CAST(COALESCE(CASE WHEN qty = 1 THEN '1.2.3' ELSE '1e2' END) AS DECIMAL)",
  "CAST(COALESCE('') AS DECIMAL)",
];

/** The checked formula, or null when the cost bound refuses it (it never reaches a database). */
function checkedUnlessCostly(ast: Expr): CheckedFormula | null {
  try {
    return checkFormula(ast, context);
  } catch (error) {
    if ((error as { details?: { reason?: string } }).details?.reason === 'too_costly') return null;
    throw error;
  }
}

describe('differential: evaluator = database', () => {
  let targets: Target[] = [];
  const rows = fc.sample(rowArb, { numRuns: 12, seed: 20260101 });
  rows.push(Object.fromEntries(Object.keys(rows[0] ?? {}).map((k) => [k, null])));

  beforeAll(async () => {
    targets = await openLoadedTargets(rows);
  }, 60_000);
  afterAll(async () => {
    await Promise.all(targets.map((t) => t.close()));
  });

  async function agree(ast: Expr): Promise<void> {
    const checked = checkedUnlessCostly(ast);
    if (!checked) return;
    const expected = evaluateRows(checked, rows);
    for (const target of targets) {
      const actual = await runOnDatabase(target, checked);
      const text = printFormula(checked.ast);
      if ('error' in expected && 'error' in actual) continue;
      expect(actual, `${target.name}: ${text}`).toEqual(expected);
    }
  }

  it.each(regressions)('regression: %s', async (text) => {
    await agree(parseFormula(text));
  });

  it('random formulas over random rows', async () => {
    await fc.assert(
      fc.asyncProperty(typedFormula(4), (ast) => agree(ast)),
      { numRuns: Number(process.env.FORMULA_RUNS ?? 400) },
    );
  }, 60_000);
});
