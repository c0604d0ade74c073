/**
 * The formula's cost bounds: text that grows exponentially (string-growing calls nested in each
 * other) is refused before it runs; an associative chain counts as one level of nesting, so a
 * long `a OR b OR …` is accepted while deep nesting gets the one limit and the one message.
 */
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../core/errors.ts';
import { checkFormula, emitFormula, evaluateFormula, parseFormula } from '../../core/formula/index.ts';
import { render } from '../../core/sql.ts';
import { postgresFormula } from '../../dialects/postgres/postgres-formula.ts';
import { columnRef } from './db.ts';
import { context, pgRenderer } from '../support/formula-fixtures.ts';

interface Refusal {
  readonly message: string;
  readonly reason: string;
  readonly column: number;
}

function refusal(text: string): Refusal {
  try {
    checkFormula(parseFormula(text), context);
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    const e = error as ApiError;
    expect(e.code).toBe('INVALID_FORMULA');
    const details = e.details as { reason: string; position: { column: number } };
    return { message: e.message, reason: details.reason, column: details.position.column };
  }
  throw new Error(`expected ${text} to be refused`);
}

const replaces = (k: number, search = "'a'", replacement = "'aa'"): string =>
  `${'REPLACE('.repeat(k)}note${`, ${search}, ${replacement})`.repeat(k)}`;

describe('text growth', () => {
  it('refuses REPLACE nested 30 times (each doubling the text), naming the call', () => {
    const text = replaces(30);
    const refused = refusal(text);
    expect(refused.reason).toBe('too_costly');
    expect(refused.message).toMatch(/text may grow more than 1000-fold/);
    // The innermost call whose output passes the bound: the tenth from inside.
    expect(refused.column).toBe(text.indexOf('REPLACE(note') - 'REPLACE('.length * 9 + 1);
  });

  it('accepts REPLACE nested while the growth stays within the bound', () => {
    expect(checkFormula(parseFormula(replaces(9)), context).type).toBe('text');
    expect(refusal(replaces(10)).reason).toBe('too_costly');
    expect(checkFormula(parseFormula(replaces(40, "'a'", "'b'")), context).type).toBe('text');
    expect(checkFormula(parseFormula(replaces(40, "''", "'bbbbbbbb'")), context).type).toBe('text');
    const escape = `REPLACE(REPLACE(REPLACE(REPLACE(note, '&', '&amp;'), '<', '&lt;'), '>', '&gt;'), '"', '&quot;')`;
    expect(checkFormula(parseFormula(escape), context).type).toBe('text');
  });

  it('counts a replacement that is not a literal as a growth of its own', () => {
    expect(refusal(replaces(4, "'a'", 'code')).reason).toBe('too_costly');
    expect(checkFormula(parseFormula(replaces(2, "'a'", 'code')), context).type).toBe('text');
  });

  it('sees growth through CONCAT, ||, CASE and a CAST', () => {
    const inner = replaces(6);
    expect(refusal(`REPLACE(REPLACE(REPLACE(REPLACE(CONCAT(${inner}, 'x'), 'a', 'aa'), 'a', 'aa'), 'a', 'aa'), 'a', 'aa')`).reason).toBe('too_costly');
    expect(refusal(`LENGTH(REPLACE(REPLACE(REPLACE(REPLACE(CAST(${inner} || 'x' AS TEXT), 'a', 'aa'), 'a', 'aa'), 'a', 'aa'), 'a', 'aa')) > 1`).reason).toBe('too_costly');
  });
});

describe('nesting depth', () => {
  const deepMessage = 'formula nests too deeply (more than 64 levels)';

  it('counts a chain of OR, AND, + and || as one level', () => {
    const ors = `paid${' OR qty = 1'.repeat(371)}`;
    expect(ors.length).toBeLessThanOrEqual(4096);
    expect(checkFormula(parseFormula(ors), context).type).toBe('boolean');
    expect(checkFormula(parseFormula(`paid${' AND paid'.repeat(400)}`), context).type).toBe('boolean');
    const sum = `qty${' + 1'.repeat(900)}`;
    const checked = checkFormula(parseFormula(sum), context);
    expect(evaluateFormula(checked, { qty: 1 } as never)).toBe(901);
    expect(render(emitFormula(checked, { ...context, dialect: postgresFormula, columnRef }), pgRenderer).text).toContain('+');
    expect(checkFormula(parseFormula(`note${" || 'x'".repeat(500)}`), context).type).toBe('text');
  });

  it('gives deep nesting the one limit and the one message', () => {
    for (const text of ['('.repeat(65) + '1' + ')'.repeat(65), 'ABS('.repeat(65) + 'qty' + ')'.repeat(65), '- '.repeat(70) + '1', `qty${' - 1'.repeat(70)}`]) {
      const refused = refusal(text);
      expect(refused.reason).toBe('too_deep');
      expect(refused.message).toBe(deepMessage);
    }
  });

  it('accepts a chain as long as the longest formula without overflowing the stack', () => {
    const sum = `qty${'+1'.repeat(4990)}`;
    const refused = refusal(sum);
    expect(refused.reason).toBe('too_long');
  });
});
