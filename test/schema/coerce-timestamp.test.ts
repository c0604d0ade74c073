/**
 * Timestamps in canonical UTC form are checked and reprinted by hand (core/schema/coerce.ts);
 * every other accepted form goes through a Date. Both paths must give the same answer for any
 * text: the Date path is the oracle.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { coerceTimestampByDate, parseScalar } from '../../core/schema/coerce.ts';

const digits = (n: number, min: number, max: number) => fc.integer({ min, max }).map((v) => String(v).padStart(n, '0'));

/** Mostly near-canonical text: edge values of every field, 0–9 fraction digits, other separators and zones. */
const timestampText = fc
  .tuple(
    digits(4, 0, 9999),
    digits(2, 0, 13),
    digits(2, 0, 32),
    fc.constantFrom('T', ' ', 't'),
    digits(2, 0, 25),
    digits(2, 0, 61),
    fc.option(digits(2, 0, 61), { nil: undefined }),
    fc.option(fc.stringMatching(/^[0-9]{1,10}$/), { nil: undefined }),
    fc.constantFrom('Z', 'z', '', '+00:00', '+05:30', '-0800', '+02', 'ZZ'),
  )
  .map(([y, mo, d, sep, h, mi, s, frac, zone]) => `${y}-${mo}-${d}${sep}${h}:${mi}${s === undefined ? '' : `:${s}${frac === undefined ? '' : `.${frac}`}`}${zone}`);

describe('timestamp coercion', () => {
  it('the canonical fast path answers as a Date would, for any text', () => {
    fc.assert(
      fc.property(fc.oneof(timestampText, fc.string()), (text) => {
        expect(parseScalar('timestamp', text)).toEqual(coerceTimestampByDate(text));
      }),
      { numRuns: 20_000 },
    );
  });

  it.each([
    ['2024-01-01T00:00:00Z', '2024-01-01T00:00:00.000Z'],
    ['2024-02-29T23:59:59.123456789Z', '2024-02-29T23:59:59.123Z'],
    ['2024-02-29T10:00:00.5Z', '2024-02-29T10:00:00.500Z'],
    ['0001-01-01T00:00:00Z', '0001-01-01T00:00:00.000Z'],
  ])('%s is stored as %s', (text, stored) => {
    expect(parseScalar('timestamp', text)).toEqual({ ok: true, value: stored });
  });

  it.each(['2023-02-29T00:00:00Z', '2024-01-01T24:30:00Z', '2024-13-01T00:00:00Z', '2024-01-01T00:60:00Z'])('%s is refused', (text) => {
    expect(parseScalar('timestamp', text).ok).toBe(false);
  });
});
