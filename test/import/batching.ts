/** Batching helpers of the import unit tests: the digest recorded jobs hold, and records fed one at a time. */
import { createHash } from 'node:crypto';
import { batchesOfGroups, type Batch } from '../../core/import/batches.ts';
import type { CsvRecord } from '../../core/import/csv-source.ts';

/** The digest as recorded jobs computed it: four updates per row. */
export function recordedDigest(rows: readonly CsvRecord[]): string {
  const hash = createHash('sha1');
  for (const row of rows) hash.update(row.fields.join('\u001f')).update(row.problem ?? '').update(row.emptyQuoted?.join(',') ?? '').update('\u001e');
  return hash.digest('base64');
}

/** Batches of `records` handed to the batcher one record per group. */
export function batchesOneByOne(records: readonly CsvRecord[], size: number): AsyncGenerator<Batch, void, undefined> {
  async function* single(): AsyncGenerator<readonly CsvRecord[]> {
    for (const record of records) yield [record];
  }
  return batchesOfGroups(single(), size);
}
