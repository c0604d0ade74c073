/**
 * The COPY export's records (dialects/postgres/copy-records.ts), without a database: a timestamp
 * cell in PostgreSQL's own text becomes exactly the wire text a row's timestamp gets
 * (postgres-types.ts), anything else is kept byte for byte, quoted cells are skipped whole, and
 * records that grow are never cut across the buffers they go out in.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BufferPool } from '../../../dialects/postgres/copy-buffer-pool.ts';
import { CsvRecords, writeWireTimestamp } from '../../../dialects/postgres/copy-records.ts';
import { postgresTextParsers } from '../../../dialects/postgres/postgres-types.ts';

const TIMESTAMP = 1114;
const TIMESTAMPTZ = 1184;

/** The rewrite of `text` alone, or null when it is kept. */
function rewritten(text: string): string | null {
  const src = Buffer.from(text, 'latin1');
  const out = Buffer.alloc(32);
  const length = writeWireTimestamp(src, 0, src.length, out, 0);
  return length === 0 ? null : out.toString('latin1', 0, length);
}

/** All records written for `payloads` (each a CopyData payload), joined, and the chunks they went out in. */
function written(payloads: string[], timestampCells: number[]): { text: string; chunks: string[] } {
  const pool = new BufferPool();
  const chunks: string[] = [];
  const records = new CsvRecords(pool, timestampCells, (chunk) => {
    chunks.push(chunk.toString('utf8'));
    pool.give(chunk);
  });
  for (const payload of payloads) {
    const bytes = Buffer.from(`xx${payload}`);
    records.write(bytes, 2, bytes.length);
  }
  records.flush();
  return { text: chunks.join(''), chunks };
}

describe('a timestamp cell', () => {
  it.each([
    ['2026-11-22 10:00:05+00', '2026-11-22T10:00:05.000Z'],
    ['2026-11-22 10:00:05.5+00', '2026-11-22T10:00:05.500Z'],
    ['2026-11-22 10:00:05.12+00', '2026-11-22T10:00:05.120Z'],
    ['2026-11-22 10:00:05.123456+00', '2026-11-22T10:00:05.123Z'],
    ['2026-11-22 10:00:05.999999', '2026-11-22T10:00:05.999Z'],
    ['0001-01-01 00:00:00', '0001-01-01T00:00:00.000Z'],
    ['9999-12-31 23:59:59.999+00', '9999-12-31T23:59:59.999Z'],
  ])('%s is written %s', (text, wire) => {
    expect(rewritten(text)).toBe(wire);
  });

  it.each(['', 'infinity', '-infinity', '0044-03-15 12:00:00+00 BC', '10000-01-01 00:00:00+00', '2026-11-22 10:00:05+05:30', '2026-11-22 10:00:05.+00', '2026-11-22T10:00:05Z', '2026-11-22 10:00:05.1234567'])(
    '%j is kept as it is',
    (text) => {
      expect(rewritten(text)).toBeNull();
    },
  );

  it("is the wire text a row's timestamp gets, whenever that is a text of years 1–9999", () => {
    const two = (n: number): string => String(n).padStart(2, '0');
    const fraction = fc.oneof(fc.constant(''), fc.integer({ min: 1, max: 6 }).chain((n) => fc.integer({ min: 0, max: 10 ** n - 1 }).map((v) => `.${String(v).padStart(n, '0')}`)));
    const text = fc
      .tuple(fc.integer({ min: 1, max: 9999 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 28 }), fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }), fc.integer({ min: 0, max: 59 }), fraction)
      .map(([y, mo, d, h, mi, s, f]) => `${String(y).padStart(4, '0')}-${two(mo)}-${two(d)} ${two(h)}:${two(mi)}:${two(s)}${f}`);
    fc.assert(
      fc.property(text, fc.boolean(), (plain, zoned) => {
        const value = zoned ? `${plain}+00` : plain;
        const parsed = (postgresTextParsers[zoned ? TIMESTAMPTZ : TIMESTAMP] as (t: string) => unknown)(value);
        expect(typeof parsed).toBe('string');
        expect(rewritten(value)).toBe(parsed);
      }),
    );
  });
});

describe('records', () => {
  it('end CRLF, with each timestamp cell rewritten and every other cell as it came, quoted ones included', () => {
    const payload = '1,"a,""b"",\n2020-01-01 00:00:00+00",2020-01-01 00:00:00+00,,infinity,"x",\n';
    expect(written([payload], [2, 3, 4]).text).toBe('1,"a,""b"",\n2020-01-01 00:00:00+00",2020-01-01T00:00:00.000Z,,infinity,"x"\r\n');
  });

  it('without timestamp cells are the payload with CRLF', () => {
    expect(written(['1,é,\n', '2,"",\n'], []).text).toBe('1,é\r\n2,""\r\n');
  });

  it('that grow go out whole, never cut across buffers, however many and however long', () => {
    const stamp = '2021-01-01 00:00:30+00';
    const short = Array.from({ length: 20_000 }, (_, i) => `${i},${stamp},${stamp},\n`);
    const long = `0,${'y'.repeat(200_000)},${stamp},\n`;
    const { text, chunks } = written([...short, long, ...short], [1, 2]);
    const wire = '2021-01-01T00:00:30.000Z';
    const shortOut = short.map((_, i) => `${i},${wire},${wire}\r\n`).join('');
    expect(text === `${shortOut}0,${'y'.repeat(200_000)},${wire}\r\n${shortOut}`).toBe(true);
    expect(chunks.length).toBeGreaterThan(20);
    expect(chunks.every((chunk) => chunk.endsWith('\r\n'))).toBe(true);
  });

  it('are refused when one does not end with the empty last cell or has fewer cells than its timestamps', () => {
    expect(() => written(['1,2\n'], [])).toThrow(/empty last cell/);
    expect(() => written(['1,\n'], [3])).toThrow(/fewer cells/);
  });
});
