/**
 * A batch's fingerprint is what a resume compares the re-sent file with: the digest must stay
 * the one jobs already recorded (SHA-1 over fields, problem, empty-quoted indexes, per row).
 */
import { describe, expect, it } from 'vitest';
import type { CsvRecord } from '../../core/import/csv-source.ts';
import { batchesOneByOne, recordedDigest } from './batching.ts';

describe('batch fingerprint', () => {
  it('is the digest recorded jobs hold, for plain, empty-quoted, bad-byte and non-ASCII rows', async () => {
    const records: CsvRecord[] = [
      { line: 2, fields: ['1', 'plain', ''] },
      { line: 3, fields: ['2', '', 'x'], emptyQuoted: [1] },
      { line: 4, fields: ['3', '\uFFFD', ''], problem: 'is not valid UTF-8 (byte 0xff at column 3)' },
      { line: 5, fields: ['4', 'Grüße 😀 漢字', 'a\nb'] },
    ];
    const batches = [];
    for await (const batch of batchesOneByOne(records, 3)) batches.push(batch);
    expect(batches.map((b) => b.fingerprint)).toEqual([recordedDigest(records.slice(0, 3)), recordedDigest(records.slice(3))]);
  });
});
