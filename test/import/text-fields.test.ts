/**
 * The CSV source's lean path has csv-parse decode each field to text and checks the bytes only
 * when the text shows U+FFFD (core/import/csv-parse-patch.ts `leanCast`); the import turns cells into
 * body values with converters compiled once per import (core/import/batches.ts `compileRowBody`).
 * Both against simple oracles: the bytes decoded and checked field by field, and the documented
 * cell rules (spec "CSV import", DESIGN §14 "Round trip").
 */
import { isUtf8 } from 'node:buffer';
import { Readable } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { batchesOfGroups, compileRowBody, type SourceRow } from '../../core/import/batches.ts';
import { batchesOneByOne, recordedDigest } from './batching.ts';
import { openCsv, type CsvRecord } from '../../core/import/csv-source.ts';
import type { ImportMapping } from '../../core/import/mapping.ts';
import type { ColumnType } from '../../core/schema/introspection.ts';
import type { Field } from '../../core/schema/model.ts';

function chunked(bytes: Buffer, size: number): Buffer[] {
  return Array.from({ length: Math.ceil(bytes.length / size) }, (_, i) => bytes.subarray(i * size, (i + 1) * size));
}

async function read(bytes: Buffer, chunk: number): Promise<CsvRecord[]> {
  const source = await openCsv(Readable.from(chunked(bytes, chunk)), { delimiter: ',' });
  const out: CsvRecord[] = [];
  for await (const record of source.records) out.push(record);
  return out;
}

/** The oracle: one unquoted field per line, decoded from its bytes and checked as the import rules say. */
function expected(lines: readonly Buffer[]): { fields: string[]; problem: string | undefined }[] {
  return lines.map((bytes) => {
    const text = bytes.toString('utf8');
    const problem = !isUtf8(bytes)
      ? 'field 1 is not valid UTF-8; the invalid bytes are shown as U+FFFD in rejections.csv'
      : text.includes('\0') ? 'field 1 contains a NUL character; it is shown as U+FFFD in rejections.csv' : undefined;
    return { fields: [text.replaceAll('\0', '\uFFFD')], problem };
  });
}

/** Field bytes: multi-byte characters, a U+FFFD written in the file, NUL, and bytes that are not UTF-8. */
const fieldBytes = fc.array(fc.oneof(
  fc.constantFrom('a', 'ü', '漢', '😀', '\uFFFD', '\0').map((s) => Buffer.from(s)),
  fc.constantFrom(0xff, 0xc3, 0x80, 0xe6, 0xf0).map((b) => Buffer.from([b])),
), { minLength: 1, maxLength: 6 }).map((parts) => Buffer.concat(parts));

describe('text fields on the lean path', () => {
  it('decode and check each field as its bytes say, wherever the chunks split it', async () => {
    await fc.assert(fc.asyncProperty(fc.array(fieldBytes, { minLength: 1, maxLength: 5 }), fc.integer({ min: 1, max: 7 }), async (lines, chunk) => {
      const file = Buffer.concat([Buffer.from('h\n'), ...lines.flatMap((l) => [l, Buffer.from('\n')])]);
      const records = (await read(file, chunk)).slice(1);
      expect(records.map((r) => ({ fields: r.fields, problem: r.problem }))).toEqual(expected(lines));
    }), { numRuns: 300 });
  });

  it('gives the same records in groups as one by one, in file order and with their lines', async () => {
    const file = Buffer.from(`h1,h2\n${Array.from({ length: 250 }, (_, i) => (i % 7 === 0 ? `"a\nb",${i}` : `x,${i}`)).join('\n')}\n`);
    const one = await read(file, 100);
    const source = await openCsv(Readable.from(chunked(file, 100)), { delimiter: ',' });
    const grouped: CsvRecord[] = [];
    for await (const group of source.groups) {
      expect(group.length).toBeGreaterThan(0);
      expect(group.length).toBeLessThanOrEqual(100);
      grouped.push(...group);
    }
    expect(grouped).toEqual(one);
    expect(one).toHaveLength(251);
    expect(one[1]).toEqual({ fields: ['a\nb', '0'], line: 2 });
    expect(one[2]).toEqual({ fields: ['x', '1'], line: 4 });
  });

  it('still fail a malformed file with the line', async () => {
    const source = await openCsv(Readable.from([Buffer.from('a,b\n1,2\n3,"x"y\n')]), { delimiter: ',' });
    await expect((async () => {
      for await (const group of source.groups) void group;
    })()).rejects.toThrow(/near line 3/);
  });
});

function field(name: string, type: ColumnType, extra: Partial<Field> = {}): Field {
  return {
    name, column: name, type, nativeType: type, nullable: true, maxLength: null, numericPrecision: null, numericScale: null,
    enumValues: null, hasDefault: false, autoIncrement: false, primaryKey: false, autoTimestamp: null, generated: false, ...extra,
  };
}

function mappingOf(fields: readonly Field[]): ImportMapping {
  return { columns: fields.map((f, index) => ({ index, csvColumn: f.name, field: f })), mapping: {}, skippedColumns: [], width: fields.length };
}

function row(fields: string[], emptyQuoted?: number[]): SourceRow {
  return { row: 1, line: 2, fields, ...(emptyQuoted ? { emptyQuoted } : {}) };
}

describe('compiled cell converters', () => {
  const fields = [
    field('i', 'integer'), field('f', 'float'), field('b', 'bigint'), field('d', 'decimal'), field('ok', 'boolean'),
    field('j', 'json'), field('ts', 'timestamp'), field('u', 'uuid'), field('t', 'text'), field('dd', 'decimal', { hasDefault: true }),
  ];
  const toBody = compileRowBody(mappingOf(fields), 'INSERT');

  it('read numbers, booleans and JSON from text, and trim what the column type ignores', () => {
    expect(toBody(row([' 7 ', '-1.5e3', '+900719925474099312', '+12.50', ' Yes ', '{"a":[1,null]}', ' 2026-01-02T03:04:05Z ', ' 3f2c ', ' x ', '1']))).toEqual({
      i: 7, f: -1500, b: '900719925474099312', d: '12.50', ok: true, j: { a: [1, null] }, ts: '2026-01-02T03:04:05Z', u: '3f2c', t: ' x ', dd: '1',
    });
  });

  it('pass unreadable text on, so that validation reports it with its usual message', () => {
    expect(toBody(row(['seven', '1,5', 'x', 'y', 'maybe', '{oops', 'soon', 'u', 'Grüße 😀', 'z']))).toMatchObject({
      i: 'seven', f: '1,5', ok: 'maybe', j: '{oops', t: 'Grüße 😀',
    });
  });

  it('leave an empty cell out on INSERT unless the column is nullable with a default; "" is an empty string', () => {
    expect(toBody(row(['', '', '', '', '', '', '', '', '', '']))).toEqual({ dd: null });
    expect(toBody(row(['', '', '', '', '', '', '', '', '', ''], [8, 9]))).toEqual({ t: '', dd: '' });
  });

  it('set null from an empty cell on UPDATE', () => {
    const update = compileRowBody(mappingOf([field('id', 'integer', { primaryKey: true }), field('t', 'text')]), 'UPDATE');
    expect(update(row(['4', '']))).toEqual({ id: 4, t: null });
  });
});

describe('batch fingerprint written into a reused buffer', () => {
  it('is the recorded digest for any text, batch after batch', async () => {
    const record = fc.record({
      line: fc.constant(2),
      fields: fc.array(fc.oneof(fc.string({ unit: 'grapheme', maxLength: 8 }), fc.string({ unit: 'binary', maxLength: 3000 })), { minLength: 1, maxLength: 4 }),
    }).map((r): CsvRecord => r);
    await fc.assert(fc.asyncProperty(fc.array(record, { minLength: 1, maxLength: 12 }), async (records) => {
      const digests: string[] = [];
      for await (const batch of batchesOneByOne(records, 5)) digests.push(batch.fingerprint);
      const expected = Array.from({ length: Math.ceil(records.length / 5) }, (_, i) => recordedDigest(records.slice(i * 5, i * 5 + 5)));
      expect(digests).toEqual(expected);
    }), { numRuns: 150 });
  });
});

describe('batching beside the database', () => {
  it('gives I/O callbacks a turn while records are ready at once (every 100 rows)', async () => {
    let read = 0;
    async function* groups(): AsyncGenerator<CsvRecord[]> {
      for (let g = 0; g < 10; g++) {
        read += 100;
        yield Array.from({ length: 100 }, (_, i): CsvRecord => ({ fields: [String(g * 100 + i)], line: g * 100 + i + 2 }));
      }
    }
    let readWhenTurned = -1;
    setImmediate(() => (readWhenTurned = read));
    const sizes: number[] = [];
    for await (const batch of batchesOfGroups(groups())) sizes.push(batch.rows.length);
    expect(sizes).toEqual([500, 500]);
    // Without the turns the whole file would be read in promise callbacks before the immediate ran.
    expect(readWhenTurned).toBeGreaterThan(0);
    expect(readWhenTurned).toBeLessThan(1000);
  });
});
