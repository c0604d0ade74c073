/**
 * A plain `filter[...]` on a computed column runs behind the row policy like `where` does: nested
 * in CASE, whose branches every vendor evaluates in order, so a formula that raises (a CAST that
 * fails) never runs on a row the policy hides, whatever order the database picks for the AND.
 */
import { describe, expect, it } from 'vitest';
import { checkFormula, emitFormula, parseFormula } from '../../core/formula/index.ts';
import { compileRead } from '../../core/query/compile-read.ts';
import { parseReadRequest } from '../../core/query/parse-request.ts';
import type { ComputedField } from '../../core/query/plan.ts';
import { planRead } from '../../core/query/plan-read.ts';
import { render } from '../../core/sql.ts';
import { entity, model, ownerPolicy, scopeOf, shapeOf, VENDORS } from './fixture.ts';

function nameNumber(): ComputedField {
  const checked = checkFormula(parseFormula('CAST(name AS INTEGER)'), { entity: entity('customers'), model });
  return { fieldName: 'nameNumber', valueType: checked.type, refs: checked.refs, broken: null, emit: (columnRef, formula) => emitFormula(checked, { dialect: formula, columnRef }) };
}

describe.each(VENDORS)('a filter on a computed column under a row policy on $name', (vendor) => {
  it('is nested in CASE WHEN <policy> THEN …, as where is', () => {
    const scope = scopeOf({ ...shapeOf('customers'), computed: [nameNumber()] }, ownerPolicy('alice'));
    const read = compileRead(planRead(scope, parseReadRequest({ fields: 'id', 'filter[nameNumber.eq]': '7' })), vendor.dialect);
    const text = render(read.page, vendor.dialect.sql).text;
    expect(text).toMatch(/\(CASE WHEN \([^)]*owner[^)]*\) THEN \(CASE WHEN .*CAST.* THEN 1 END\) END\) = 1/);
  });

  it('stays unwrapped without a policy', () => {
    const scope = scopeOf({ ...shapeOf('customers'), computed: [nameNumber()] });
    const read = compileRead(planRead(scope, parseReadRequest({ fields: 'id', 'filter[nameNumber.eq]': '7' })), vendor.dialect);
    expect(render(read.page, vendor.dialect.sql).text).not.toMatch(/THEN 1 END/);
  });
});
