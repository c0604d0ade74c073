/**
 * The CSV source's shortcut through csv-parse's cast step (core/import/csv-parse-patch.ts `leanCast`)
 * gives exactly the records of csv-parse's documented `cast` context, and is in place for the
 * pinned csv-parse: a version whose internals differ falls back silently, which this notices.
 */
import { Readable } from 'node:stream';
import { parse, type Options } from 'csv-parse';
import { stringify } from 'csv-stringify/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { openCsv, type CsvRecord } from '../../core/import/csv-source.ts';

type Cells = (string | null)[][];

const EMPTY_QUOTED = Symbol('""');

/** The oracle: csv-parse's documented cast context, `""` marked as the source marks it. */
async function documented(csv: string): Promise<{ fields: string[]; emptyQuoted: number[] }[]> {
  const parser = Readable.from([Buffer.from(csv)]).pipe(parse({
    encoding: null, relax_column_count: true, skip_empty_lines: false,
    cast: (value: unknown, context: { quoting: boolean }) => (context.quoting && (value as Uint8Array).length === 0 ? EMPTY_QUOTED : Buffer.from(value as Uint8Array).toString('utf8')),
  } as Options));
  const out: { fields: string[]; emptyQuoted: number[] }[] = [];
  for await (const raw of parser as AsyncIterable<(string | typeof EMPTY_QUOTED)[]>) {
    const emptyQuoted = raw.flatMap((f, i) => (f === EMPTY_QUOTED ? [i] : []));
    const fields = raw.map((f) => (f === EMPTY_QUOTED ? '' : f));
    if (fields.some((f) => f.trim() !== '') || emptyQuoted.length > 0) out.push({ fields, emptyQuoted });
  }
  return out;
}

async function viaSource(csv: string, chunk: number): Promise<{ fields: string[]; emptyQuoted: number[] }[]> {
  const bytes = Buffer.from(csv);
  const chunks = Array.from({ length: Math.ceil(bytes.length / chunk) }, (_, i) => bytes.subarray(i * chunk, (i + 1) * chunk));
  const source = await openCsv(Readable.from(chunks), { delimiter: ',' });
  const out: CsvRecord[] = [];
  for await (const record of source.records) out.push(record);
  return out.map((r) => ({ fields: r.fields, emptyQuoted: [...(r.emptyQuoted ?? [])] }));
}

/** Cells as the export writes them: null unquoted and empty, '' as `""`, the rest quoted when needed. */
function toCsv(rows: Cells): string {
  return rows.map((row) => row.map((cell) => (cell === null ? '' : cell === '' ? '""' : stringify([[cell]], { record_delimiter: '' }))).join(',')).join('\r\n');
}

const cell = fc.oneof(fc.constant(null), fc.constant(''), fc.constantFrom('"', '""', ' ', ',', '\n', 'a"b', 'x'), fc.string({ maxLength: 6 }));

describe('CSV source', () => {
  it('gives the records of the documented cast context, whatever the chunking', async () => {
    await fc.assert(fc.asyncProperty(fc.array(fc.array(cell, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 6 }), fc.integer({ min: 1, max: 16 }), async (rows, chunk) => {
      const csv = `h1,h2\r\n${toCsv(rows)}`;
      expect(await viaSource(csv, chunk)).toEqual(await documented(csv));
    }), { numRuns: 200 });
  });

  it('marks "" wherever it stands, and not an escaped quote', async () => {
    const records = await viaSource('a,b,c\r\n"",x,""\r\n"""",,"y"\r\n,""', 3);
    expect(records.slice(1)).toEqual([
      { fields: ['', 'x', ''], emptyQuoted: [0, 2] },
      { fields: ['"', '', 'y'], emptyQuoted: [] },
      { fields: ['', ''], emptyQuoted: [1] },
    ]);
  });

  it('still names the line of a malformed record', async () => {
    await expect(viaSource('a,b\r\n1,2\r\n3,"x"y\r\n', 64)).rejects.toThrow(/near line 3/);
  });
});

describe('bytes that are not UTF-8', () => {
  it('are a problem of their record; a U+FFFD written in the file is plain text', async () => {
    const bytes = Buffer.concat([Buffer.from('a,\uFFFD ok\nb,'), Buffer.from([0xff, 0x41]), Buffer.from('\n')]);
    const source = await openCsv(Readable.from([bytes]), { delimiter: ',' });
    const out: CsvRecord[] = [];
    for await (const record of source.records) out.push(record);
    expect(out.map((r) => [r.fields, r.problem])).toEqual([
      [['a', '\uFFFD ok'], undefined],
      [['b', '\uFFFDA'], 'field 2 is not valid UTF-8; the invalid bytes are shown as U+FFFD in rejections.csv'],
    ]);
  });
});
