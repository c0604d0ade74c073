/**
 * The timestamp parsers' shortcut: PostgreSQL's own text for a spread of timestamps,
 * read through the pg driver, must come out on the wire exactly as the Date they used to build
 * would have printed it (milliseconds cut, not rounded; the odd ones, infinity and BC, unchanged).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toWireValue } from '../../../core/schema/values.ts';
import { createPgDriver } from '../../../dialects/postgres/postgres-driver.ts';
import { postgresTextParsers } from '../../../dialects/postgres/postgres-types.ts';
import type { Driver } from '../../../dialects/dialect.ts';

const PG_URL = process.env.PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

const VALUES = [
  '2024-01-01 00:00:00', '2024-01-01 10:20:30.1', '2024-02-29 23:59:59.99', '2024-12-31 23:59:59.999',
  '2024-06-15 12:00:00.9999', '2024-06-15 12:00:00.123456', '2024-06-15 12:00:00.000001', '0001-01-01 00:00:00',
  '0099-03-04 05:06:07.5', '9999-12-31 23:59:59.999999', 'infinity', '-infinity', '0044-03-15 12:00:00 BC',
];

/** What the Date-building parsers produced before the shortcut, from the same text. */
function throughDate(text: string, zoned: boolean): unknown {
  const iso = zoned ? text.replace(' ', 'T').replace(/([+-]\d\d)$/, '$1:00') : `${text.replace(' ', 'T')}Z`;
  const date = new Date(iso);
  return toWireValue('timestamp', Number.isNaN(date.getTime()) ? text : date, false);
}

describe('PostgreSQL timestamp parsers', () => {
  let driver: Driver;
  beforeAll(() => {
    driver = createPgDriver({ vendor: 'postgres', url: PG_URL });
  });
  afterAll(async () => driver?.close());

  it.each([
    ['timestamptz', true],
    ['timestamp', false],
  ] as const)('%s: the wire text is the one a Date printed', async (type, zoned) => {
    const values = VALUES.map((_v, i) => `($${i + 1}::${type})`).join(', ');
    const { rows } = await driver.query({ text: `SELECT v AS parsed, CAST(v AS text) AS text FROM (VALUES ${values}) AS t(v)`, params: VALUES });
    expect(rows).toHaveLength(VALUES.length);
    for (const row of rows) {
      expect(toWireValue('timestamp', row.parsed, false), String(row.text)).toEqual(throughDate(String(row.text), zoned));
    }
  });

  it('text in another zone, or beyond the plain form, still goes through a Date', () => {
    const zoned = postgresTextParsers[1184];
    expect(toWireValue('timestamp', zoned?.('2024-06-15 17:30:00.123456+05:30'), false)).toBe('2024-06-15T12:00:00.123Z');
    expect(toWireValue('timestamp', zoned?.('2024-06-15 12:00:00+00:30'), false)).toBe('2024-06-15T11:30:00.000Z');
    expect(toWireValue('timestamp', zoned?.('infinity'), false)).toBe('infinity');
  });
});
