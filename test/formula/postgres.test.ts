/**
 * The emitted SQL on PostgreSQL for representative formulas. The examples with their agreed
 * values run on every database in vendors.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { checkFormula, compileFormula, parseFormula } from '../../core/formula/index.ts';
import { render } from '../../core/sql.ts';
import { postgresFormula } from '../../dialects/postgres/postgres-formula.ts';
import { columnRef } from './db.ts';
import { context, pgRenderer } from '../support/formula-fixtures.ts';

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
      'CAST(round((CASE WHEN "o"."amount" = 0 THEN 0::numeric ELSE ROUND(CAST(CAST("o"."amount" AS text) AS numeric), CAST(14 - FLOOR(LOG10(ABS("o"."amount"))) AS integer)) END), ' +
        'CAST((CASE WHEN CAST($1 AS double precision) = 0 THEN 0::numeric ELSE ROUND(CAST(CAST(CAST($2 AS double precision) AS text) AS numeric), CAST(14 - FLOOR(LOG10(ABS(CAST($3 AS double precision)))) AS integer)) END) AS integer)) AS double precision)',
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
