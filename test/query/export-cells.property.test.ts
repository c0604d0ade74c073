/**
 * Cells of the CSV export (core/query/export-cells.ts). The export cuts a timestamp read as the database's text to its wire form without a Date
 * (core/query/export-cells.ts wireTimestampOfText): for every plain UTC text it must equal what
 * parsing that text as a Date and printing it gives, and anything else must be left to the Date path.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rowCells, wireTimestampOfText } from '../../core/query/export-cells.ts';

const pad = (n: number, width: number): string => String(n).padStart(width, '0');

/** A UTC text as PostgreSQL, MySQL or SQL Server may print it: space or T, 0–9 fraction digits, a zero zone or none. */
const utcText = fc
  .record({
    ms: fc.integer({ min: Date.UTC(1, 0, 1), max: Date.UTC(9999, 11, 31, 23, 59, 59, 999) }),
    sep: fc.constantFrom(' ', 'T'),
    extra: fc.stringMatching(/^\d{0,6}$/),
    digits: fc.integer({ min: 0, max: 3 }),
    zone: fc.constantFrom('', 'Z', '+00', '-00', '+00:00', '+0000'),
  })
  .map(({ ms, sep, extra, digits, zone }) => {
    const iso = new Date(ms).toISOString();
    const fraction = `${iso.slice(20, 23)}${extra}`.slice(0, digits === 3 ? 3 + extra.length : digits);
    const text = `${iso.slice(0, 10)}${sep}${iso.slice(11, 19)}${fraction ? `.${fraction}` : ''}${zone}`;
    const expected = `${iso.slice(0, 19)}.${fraction.slice(0, 3).padEnd(3, '0')}Z`;
    return { text, expected };
  });

describe('wireTimestampOfText', () => {
  it('gives the Date wire form of every plain UTC text', () => {
    fc.assert(
      fc.property(utcText, ({ text, expected }) => {
        expect(wireTimestampOfText(text)).toBe(expected);
      }),
      { numRuns: 2000 },
    );
  });

  it('leaves other texts to the Date path', () => {
    for (const text of ['2026-02-29 10:00:00', '2026-13-01 10:00:00', '2026-11-22 24:00:00', '2026-11-22 10:00:00+01', 'infinity', '2026-11-22 10:00:00.1234567890', '12026-11-22 10:00:00', '2026-11-22', '2026-11-22 10:00:00 BC', `${pad(0, 4)}-00-00 00:00:00`]) {
      expect(wireTimestampOfText(text), text).toBeNull();
    }
    expect(wireTimestampOfText('2024-02-29 23:59:59.9999+00')).toBe('2024-02-29T23:59:59.999Z');
  });
});

/** DECIMAL text as a database prints it, written plainly: no sign for zero, no leading or trailing zeros. */
function plainly(text: string): string {
  const negative = text.startsWith('-');
  const [whole = '', fraction = ''] = text.replace(/^[+-]/, '').split('.');
  const digits = `${whole.replace(/^0+/, '') || '0'}${fraction.replace(/0+$/, '') ? `.${fraction.replace(/0+$/, '')}` : ''}`;
  return negative && digits !== '0' ? `-${digits}` : digits;
}

describe('DECIMAL cells', () => {
  const cells = rowCells([{ alias: 'c0', path: [], key: 'amount', type: 'decimal' }], false);
  it('write the database digits plainly', () => {
    const decimal = fc
      .tuple(fc.constantFrom('', '-', '+'), fc.stringMatching(/^\d{1,20}$/), fc.option(fc.stringMatching(/^\d{0,12}$/)))
      .map(([sign, whole, fraction]) => `${sign}${whole}${fraction === null ? '' : `.${fraction}`}`);
    fc.assert(
      fc.property(decimal, (text) => {
        expect(cells({ c0: text })).toEqual([plainly(text)]);
      }),
      { numRuns: 3000 },
    );
    expect(cells({ c0: '123.45' })).toEqual(['123.45']);
    expect(cells({ c0: '100' })).toEqual(['100']);
    expect(cells({ c0: '-0.00' })).toEqual(['0']);
    expect(cells({ c0: '1e5' })).toEqual(['100000']);
  });
});
