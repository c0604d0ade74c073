/**
 * The timestamp wire form reads the common driver text without a Date (core/schema/values.ts);
 * it must give what the Date-based reading gives for every text, valid or not.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toWireValue } from '../../core/schema/values.ts';

/** The reading before the shortcut, kept here as the oracle. */
function throughDate(raw: string): string {
  const text = raw.replace(' ', 'T');
  const zoned = /(Z|[+-]\d\d(:?\d\d)?)$/.test(text) ? text : `${text}Z`;
  const date = new Date(zoned);
  return Number.isNaN(date.getTime()) ? raw : date.toISOString();
}

const pad = (n: number, width: number): string => String(n).padStart(width, '0');

/** Driver-like text with every field drawn a little beyond its range, so invalid dates come too. */
const driverText = fc
  .record({
    year: fc.integer({ min: 0, max: 9999 }),
    month: fc.integer({ min: 0, max: 13 }),
    day: fc.integer({ min: 0, max: 32 }),
    hour: fc.integer({ min: 0, max: 24 }),
    minute: fc.integer({ min: 0, max: 60 }),
    second: fc.integer({ min: 0, max: 60 }),
    fraction: fc.oneof(fc.constant(''), fc.integer({ min: 0, max: 999 }).map((ms) => `.${pad(ms, 3)}`), fc.integer({ min: 0, max: 999_999 }).map((us) => `.${pad(us, 6)}`)),
  })
  .map((t) => `${pad(t.year, 4)}-${pad(t.month, 2)}-${pad(t.day, 2)} ${pad(t.hour, 2)}:${pad(t.minute, 2)}:${pad(t.second, 2)}${t.fraction}`);

describe('timestamp text from a driver', () => {
  it('reads as the Date-based reading does, for random valid and invalid texts', () => {
    fc.assert(fc.property(driverText, (raw) => {
      expect(toWireValue('timestamp', raw, false)).toBe(throughDate(raw));
    }), { numRuns: 20_000 });
  });

  it('keeps the edges: zero dates, February 29/30, leap years, milliseconds', () => {
    for (const raw of ['0000-00-00 00:00:00', '2021-02-29 10:00:00', '2024-02-29 10:00:00', '2021-02-30 00:00:00', '1999-12-31 23:59:59.999', '1000-01-01 00:00:00']) {
      expect(toWireValue('timestamp', raw, false)).toBe(throughDate(raw));
    }
    expect(toWireValue('timestamp', '2021-01-01 00:00:30', false)).toBe('2021-01-01T00:00:30.000Z');
  });
});
