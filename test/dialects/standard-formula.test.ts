/**
 * The standard formula defaults mean the agreed thing: a dialect defined with only PostgreSQL's
 * own members (its facts, fieldValue and cast), every other hook and function a default, passes
 * the examples, the parity traps and the differential property against the evaluator on PGlite
 * and, when reachable, the PostgreSQL server (mandatory under CI=true).
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkFormula, emitFormula, evaluateFormula, parseFormula, printFormula, type CheckedFormula, type Expr, type FormulaDialect,
} from '../../core/formula/index.ts';
import { render } from '../../core/sql.ts';
import { postgresOwnFormula } from '../../dialects/postgres/postgres-formula.ts';
import { call, defineFormula } from '../../dialects/standard-formula.ts';
import { rowArb, typedFormula } from '../formula/arbitraries.ts';
import { columnRef, openLoadedTargets, openPGliteTarget, openPostgresTarget, runOnDatabase, type Row, type Target } from '../formula/db.ts';
import { examples } from '../formula/examples.ts';
import { context, pgRenderer } from '../support/formula-fixtures.ts';
import { trapRows, traps } from '../formula/traps.ts';

const standardOnly = defineFormula(postgresOwnFormula);

/** The trap rows (examples.ts's row, then NULLs) and random rows after them. */
const rows: Row[] = [...trapRows, ...fc.sample(rowArb, { numRuns: 12, seed: 20260102 })];

const check = (text: string) => checkFormula(parseFormula(text), context);
const emitted = (dialect: FormulaDialect, text: string) => render(emitFormula(check(text), { dialect, columnRef }), pgRenderer).text;

function evaluateRows(checked: CheckedFormula): unknown[] | { error: string } {
  try {
    return rows.map((row, i) => {
      const v = evaluateFormula(checked, { ...row, 'customer.id': i + 1, 'customer.region.id': i + 1 });
      return v === 0 ? 0 : v;
    });
  } catch (error) {
    return { error: (error as Error).message };
  }
}

describe('standard formula defaults', () => {
  let targets: Target[] = [];
  beforeAll(async () => {
    // The server first: PGlite's WASM compile blocks the event loop while a connection waits.
    const server = await openPostgresTarget();
    const opened = [await openPGliteTarget(), ...(server ? [server] : [])];
    targets = await openLoadedTargets(rows, Promise.resolve(opened));
  }, 60_000);
  afterAll(async () => {
    await Promise.all(targets.map((t) => t.close()));
  });

  /** Whether the evaluator and `dialect` on every target agree on every row (both raising counts as agreeing). */
  async function disagreements(dialect: FormulaDialect, ast: Expr): Promise<string[]> {
    const checked = checkFormula(ast, context);
    const expected = evaluateRows(checked);
    const found: string[] = [];
    for (const target of targets) {
      const actual = await runOnDatabase({ ...target, dialect }, checked);
      if ('error' in expected && 'error' in actual) continue;
      if (JSON.stringify(actual) !== JSON.stringify(expected)) {
        found.push(`${target.name}: ${printFormula(checked.ast)} gave ${JSON.stringify(actual)}, evaluator ${JSON.stringify(expected)}`);
      }
    }
    return found;
  }

  it('runs on every database it needs', () => {
    expect(targets.map((t) => t.name)).toContain('pglite');
    if (process.env.CI === 'true') expect(targets.map((t) => t.name)).toEqual(['pglite', 'postgres']);
  });

  it('spells the standard where PostgreSQL has its own spelling, so this file tests the defaults', () => {
    expect(emitted(standardOnly, 'SUBSTRING(note, 2, 3)')).toMatch(/^substring\("o"\."note" FROM .+ FOR \(CASE WHEN /);
    expect(emitted(standardOnly, 'TRIM(note)')).toBe('trim("o"."note")');
    expect(emitted(standardOnly, 'GREATEST(qty, amount)')).toMatch(/^greatest\(coalesce\(/);
    expect(emitted(standardOnly, "CONCAT(note, 'x')")).toBe(`(coalesce("o"."note", '') || coalesce(CAST($1 AS text), ''))`);
    expect(emitted(standardOnly, "note LIKE 'a%'")).toBe(`("o"."note" LIKE CAST($1 AS text) ESCAPE '\\')`);
  });

  it.each(examples)('example %s = %j', async (text, agreed) => {
    for (const target of targets) {
      const values = await runOnDatabase({ ...target, dialect: standardOnly }, check(text));
      expect(Array.isArray(values) ? values[0] : values, `${target.name}: ${text}`).toEqual(agreed);
    }
  });

  it.each(traps)('trap %s: %s = %j / %j', async (_group, text, onRow, onNulls) => {
    for (const target of targets) {
      const values = await runOnDatabase({ ...target, dialect: standardOnly }, check(text));
      expect(Array.isArray(values) ? values.slice(0, 2) : values, `${target.name}: ${text}`).toEqual([onRow, onNulls]);
    }
  });

  it('agree with the evaluator on random formulas over random rows', async () => {
    await fc.assert(
      fc.asyncProperty(typedFormula(4), async (ast) => {
        expect(await disagreements(standardOnly, ast)).toEqual([]);
      }),
      { numRuns: Number(process.env.FORMULA_RUNS ?? 300) },
    );
  }, 120_000);

  it('notices a default that means something else (the property can fail)', async () => {
    const leftTrimOnly = defineFormula({ ...postgresOwnFormula, functions: { TRIM: call('ltrim') } });
    expect(await disagreements(leftTrimOnly, parseFormula('TRIM(note)'))).not.toEqual([]);
  });

  it('refuses a text order without GREATEST and LEAST, whose text the order form would replace', () => {
    expect(() => defineFormula({ ...postgresOwnFormula, textOrder: (text) => text })).toThrow(/GREATEST and LEAST/);
  });
});
