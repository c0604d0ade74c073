import { describe, expect, it } from 'vitest';
import { checkFormula, evaluateFormula, FormulaEvaluationError, parseFormula, type FormulaRow } from '../../core/formula/index.ts';
import { examples, exampleRow } from './examples.ts';
import { context } from '../support/formula-fixtures.ts';

const evaluate = (text: string, row: FormulaRow = exampleRow, now?: Date) =>
  evaluateFormula(checkFormula(parseFormula(text), context), row, now ? { now } : {});

describe('evaluator: the agreed meaning', () => {
  it.each(examples)('%s = %j', (text, expected) => {
    expect(evaluate(text)).toEqual(expected);
  });

  it('reads the clock in UTC', () => {
    const now = new Date('2024-05-06T23:59:59.999Z');
    expect(evaluate('NOW()', exampleRow, now)).toBe('2024-05-06T23:59:59.999Z');
    expect(evaluate('CURRENT_TIMESTAMP', exampleRow, now)).toBe('2024-05-06T23:59:59.999Z');
    expect(evaluate('CURRENT_DATE', exampleRow, now)).toBe('2024-05-06');
  });

  it('treats missing row values as NULL and normalises driver values', () => {
    expect(evaluate('amount + 1', {})).toBeNull();
    expect(evaluate('price * 2', { price: '1.25' })).toBe(2.5);
    expect(evaluate('CAST(createdAt AS TEXT)', { createdAt: new Date('2024-01-01T00:00:00Z') })).toBe('2024-01-01T00:00:00.000Z');
    expect(evaluate('CAST(shippedAt AS TEXT)', { shippedAt: '2024-01-01T02:00:00+02:00' })).toBe('2024-01-01T00:00:00.000Z');
  });

  it('raises where the database raises', () => {
    expect(() => evaluate("CAST(note AS INTEGER)")).toThrow(FormulaEvaluationError);
    expect(() => evaluate('CAST(amount * 1e9 AS INTEGER)')).toThrow('integer out of range');
    expect(() => evaluate("note LIKE 'x\\'")).toThrow('must not end with escape');
    expect(() => evaluate('amount * 1e308')).toThrow('overflow');
  });
});
