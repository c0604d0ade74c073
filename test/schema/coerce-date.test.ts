/**
 * Dates are checked by calendar arithmetic (core/write/coerce.ts); the oracle here is the
 * JavaScript Date in UTC, which uses the same proleptic Gregorian calendar.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseScalar } from '../../core/schema/coerce.ts';

function oracle(y: number, m: number, d: number): boolean {
  const date = new Date(0);
  date.setUTCFullYear(y, m - 1, d);
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

const pad = (n: number, width: number) => String(n).padStart(width, '0');

describe('date coercion', () => {
  it('accepts exactly the days of the proleptic Gregorian calendar', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 9999 }), fc.integer({ min: 0, max: 13 }), fc.integer({ min: 0, max: 32 }), (y, m, d) => {
        const text = `${pad(y, 4)}-${pad(m, 2)}-${pad(d, 2)}`;
        expect(parseScalar('date', text).ok).toBe(oracle(y, m, d));
      }),
      { numRuns: 5000 },
    );
  });

  it.each([
    ['2024-02-29', true], ['2023-02-29', false], ['1900-02-29', false], ['2000-02-29', true],
    ['0099-12-31', true], ['2024-04-31', false], ['2024-12-31', true], ['2024-00-10', false], ['2024-1-10', false],
  ])('%s → %s', (text, valid) => {
    expect(parseScalar('date', text).ok).toBe(valid);
  });
});
