/**
 * A batch's fingerprint is what a resume compares the re-sent file with: the digest must stay
 * the one jobs already recorded (SHA-1 over fields, problem, empty-quoted indexes, per row).
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { batchesOf, type SourceRow } from '../../core/import/batches.ts';
import type { CsvRecord } from '../../core/import/csv-source.ts';

/** The digest as recorded jobs computed it: four updates per row. */
function recordedDigest(rows: readonly Omit<SourceRow, 'row'>[]): string {
  const hash = createHash('sha1');
  for (const row of rows) hash.update(row.fields.join('\u001f')).update(row.problem ?? '').update(row.emptyQuoted?.join(',') ?? '').update('\u001e');
  return hash.digest('base64');
}

async function* from(records: CsvRecord[]): AsyncGenerator<CsvRecord> {
  yield* records;
}

describe('batch fingerprint', () => {
  it('is the digest recorded jobs hold, for plain, empty-quoted, bad-byte and non-ASCII rows', async () => {
    const records: CsvRecord[] = [
      { line: 2, fields: ['1', 'plain', ''] },
      { line: 3, fields: ['2', '', 'x'], emptyQuoted: [1] },
      { line: 4, fields: ['3', '\uFFFD', ''], problem: 'is not valid UTF-8 (byte 0xff at column 3)' },
      { line: 5, fields: ['4', 'Grüße 😀 漢字', 'a\nb'] },
    ];
    const batches = [];
    for await (const batch of batchesOf(from(records), 3)) batches.push(batch);
    expect(batches.map((b) => b.fingerprint)).toEqual([recordedDigest(records.slice(0, 3)), recordedDigest(records.slice(3))]);
  });
});
