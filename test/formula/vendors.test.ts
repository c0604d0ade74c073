/**
 * One meaning on every vendor (DESIGN §7): the examples of examples.ts and the parity traps of
 * traps.ts, run through the evaluator and on every database of db.ts — PGlite always, the
 * PostgreSQL server and MariaDB when reachable (both mandatory under CI=true) — and compared
 * with the agreed value.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkFormula, evaluateFormula, parseFormula } from '../../core/formula/index.ts';
import { openLoadedTargets, runOnDatabase, type Target } from './db.ts';
import { examples, exampleRow } from './examples.ts';
import { context } from '../support/formula-fixtures.ts';
import { textMembership, trapRows, traps } from './traps.ts';

const check = (text: string) => checkFormula(parseFormula(text), context);

describe('formulas on every database', () => {
  /** Every target holds the trap rows: examples.ts's row first, then a row of NULLs. */
  let targets: Target[] = [];
  beforeAll(async () => {
    targets = await openLoadedTargets(trapRows);
  }, 60_000);
  afterAll(async () => {
    await Promise.all(targets.map((t) => t.close()));
  });

  /** The value on examples.ts's row (the first), or the error. */
  const onExampleRow = async (target: Target, text: string) => {
    const result = await runOnDatabase(target, check(text));
    return Array.isArray(result) ? result[0] : result;
  };

  it('has every database it needs', () => {
    expect(targets.map((t) => t.name)).toContain('pglite');
    if (process.env.CI === 'true') expect(targets.map((t) => t.name)).toEqual(['pglite', 'postgres', 'mariadb']);
  });

  describe('examples', () => {
    it.each(examples)('%s = %j', async (text, expected) => {
      for (const target of targets) {
        expect(await onExampleRow(target, text), `${target.name}: ${text}`).toEqual(expected);
      }
    });
  });

  describe('parity traps', () => {
    it.each(traps)('%s: %s = %j / %j', async (_group, text, onRow, onNulls) => {
      const checked = check(text);
      expect(trapRows.map((row) => evaluateFormula(checked, { ...row, 'customer.id': 1, 'customer.region.id': 1 })), `evaluator: ${text}`).toEqual([
        onRow,
        onNulls,
      ]);
      for (const target of targets) {
        expect(await runOnDatabase(target, checked), `${target.name}: ${text}`).toEqual([onRow, onNulls]);
      }
    });
  });

  describe('IN, BETWEEN and simple CASE on text count trailing spaces on every vendor', () => {
    it.each(textMembership)('%s is %j', async (text, agreed) => {
      expect(evaluateFormula(check(text), exampleRow)).toEqual(agreed);
      for (const target of targets) {
        expect(await onExampleRow(target, text), `${target.name}: ${text}`).toEqual(agreed);
      }
    });
  });

  it('agrees on NOW(), CURRENT_TIMESTAMP and CURRENT_DATE within a second', async () => {
    for (const target of targets) {
      // One at a time: a pg client runs one query at a time.
      const now = (await runOnDatabase(target, check('NOW()'))) as string[];
      const ts = (await runOnDatabase(target, check('CURRENT_TIMESTAMP'))) as string[];
      const date = (await runOnDatabase(target, check('CURRENT_DATE'))) as string[];
      const nowValue = now[0] ?? '';
      expect(Math.abs(Date.parse(nowValue) - Date.now()), target.name).toBeLessThan(5_000);
      expect(ts[0]?.slice(0, 16), target.name).toBe(nowValue.slice(0, 16));
      expect(date[0], target.name).toBe(new Date().toISOString().slice(0, 10));
    }
  });
});
