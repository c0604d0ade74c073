/**
 * The emitted SQL on PostgreSQL: the SQL text for representative formulas, then every example
 * of examples.ts run on each database (PGlite always; the real server when reachable,
 * mandatory under CI) and compared with the agreed value.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkFormula, compileFormula, parseFormula } from '../../core/formula/index.ts';
import { render } from '../../core/sql.ts';
import { postgresFormula } from '../../dialects/postgres/postgres-formula.ts';
import { columnRef, createFixtureTables, insertRows, openTargets, runOnDatabase, type Target } from './db.ts';
import { examples, exampleRow } from './examples.ts';
import { context, pgRenderer } from './fixtures.ts';

const emitted = (text: string) =>
  render(compileFormula(text, { ...context, dialect: postgresFormula, columnRef }).sql, pgRenderer);

describe('PostgreSQL formula SQL', () => {
  it('binds literals as typed parameters and builds no identifiers itself', () => {
    expect(emitted("note || 'x'")).toEqual({ text: '("o"."note" || CAST($1 AS text))', params: ['x'] });
    expect(emitted('customer.region.name')).toEqual({ text: '"r"."name"', params: [] });
  });

  it('divides as double precision with NULL on zero', () => {
    expect(emitted('qty / 2').text).toBe('(CAST("o"."qty" AS double precision) / NULLIF(CAST($1 AS double precision), 0))');
  });

  it('rounds through numeric, half away from zero', () => {
    expect(emitted('ROUND(amount, 2)').text).toBe(
      'CAST(round(CAST("o"."amount" AS numeric), CAST(CAST(CAST($1 AS double precision) AS numeric) AS integer)) AS double precision)',
    );
  });

  it('reads zoned timestamps in UTC and uses UTC for the clock', () => {
    expect(emitted('shippedAt').text).toBe(`("o"."shipped_at" AT TIME ZONE 'UTC')`);
    expect(emitted('CURRENT_DATE').text).toBe(`CAST((now() AT TIME ZONE 'UTC') AS date)`);
  });

  it('types NULLs by context', () => {
    expect(emitted('qty + NULL').text).toBe('(CAST("o"."qty" AS double precision) + CAST(NULL AS double precision))');
  });

  it('emits a boolean formula as a predicate when asked', () => {
    const checked = checkFormula(parseFormula('paid AND qty > 1'), context);
    expect(checked.type).toBe('boolean');
  });
});

describe('examples on every database', () => {
  let targets: Target[] = [];
  beforeAll(async () => {
    targets = await openTargets();
    for (const target of targets) {
      await createFixtureTables(target);
      await insertRows(target, [exampleRow]);
    }
  }, 60_000);
  afterAll(async () => {
    await Promise.all(targets.map((t) => t.close()));
  });

  it('has every database it needs', () => {
    expect(targets.map((t) => t.name)).toContain('pglite');
    if (process.env.CI === 'true') expect(targets.map((t) => t.name)).toContain('postgres');
  });

  it.each(examples)('%s = %j', async (text, expected) => {
    const checked = checkFormula(parseFormula(text), context);
    for (const target of targets) {
      expect(await runOnDatabase(target, checked), `${target.name}: ${text}`).toEqual([expected]);
    }
  });

  it('agrees on NOW(), CURRENT_TIMESTAMP and CURRENT_DATE within a second', async () => {
    for (const target of targets) {
      const [now, ts, date] = await Promise.all(
        ['NOW()', 'CURRENT_TIMESTAMP', 'CURRENT_DATE'].map((f) => runOnDatabase(target, checkFormula(parseFormula(f), context))),
      );
      const nowValue = (now as string[])[0] ?? '';
      expect(Math.abs(Date.parse(nowValue) - Date.now())).toBeLessThan(5_000);
      expect((ts as string[])[0]?.slice(0, 16)).toBe(nowValue.slice(0, 16));
      expect((date as string[])[0]).toBe(new Date().toISOString().slice(0, 10));
    }
  });
});
