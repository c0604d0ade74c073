/**
 * Bytes a CSV cell must not carry: a NUL and bytes that are not UTF-8 reject
 * THAT row with a reason in the report and rejections.csv; the other rows are imported. UTF-8
 * split across the body's chunks is not a problem.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorkspace, type TestWorkspace } from '../support/harness.ts';
import { vendorsToRun } from '../support/vendors.ts';
import { count, doneOf, importFile, rejectionsOf, reportOf, sync, viewUuidOf } from '../support/import-calls.ts';

const vendors = await vendorsToRun();

/** The body as a stream cut every `size` bytes, so multi-byte characters straddle chunks. */
function chopped(bytes: Buffer, size: number): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(new Uint8Array(bytes.subarray(at, at + size)));
      at += size;
    },
  });
}

describe.each(vendors)('bad bytes in CSV cells on $name', (target) => {
  let ws: TestWorkspace;
  let items: string;

  beforeAll(async () => {
    ws = await startWorkspace(target, { fixture: false });
    await ws.db.query(`CREATE TABLE ${ws.db.table('items')} (id ${ws.db.sql.autoId}, code varchar(40) NOT NULL UNIQUE, qty integer NOT NULL)`);
    await sync(ws);
    items = await viewUuidOf(ws, 'items');
  });
  afterAll(async () => ws?.close());

  it('rejects the row with a NUL and the row with invalid UTF-8, names the problem, and imports the rest', async () => {
    const body = Buffer.concat([
      Buffer.from('code,qty\nété-1,1\nnul\u0000here,2\n', 'utf8'),
      Buffer.from([0x62, 0x61, 0x64, 0xff, 0xfe, 0x2c, 0x33, 0x0a]), // "bad\xff\xfe,3"
      Buffer.from('東京-4,4\n', 'utf8'),
    ]);
    const done = doneOf(await importFile(ws, items, chopped(body, 3)));
    expect(done).toMatchObject({ totalCount: 4, successCount: 2, failureCount: 2, failedBatches: [] });

    const rows = await ws.db.query(`SELECT code FROM ${ws.db.table('items')} ORDER BY qty`);
    expect(rows.map((r) => r.code)).toEqual(['été-1', '東京-4']);

    const report = await reportOf(ws, done.jobId);
    expect(report.rows).toEqual([
      { row: 2, line: 3, code: 'VALIDATION_FAILED', message: expect.stringContaining('contains a NUL character') },
      { row: 3, line: 4, code: 'VALIDATION_FAILED', message: expect.stringContaining('is not valid UTF-8') },
    ]);
    const rejections = await rejectionsOf(ws, done.jobId);
    expect(rejections.status).toBe(200);
    expect(rejections.text).toBe('code,qty\r\nnul\uFFFDhere,2\r\nbad\uFFFD\uFFFD,3\r\n');
  });

  it('a header line that is not valid UTF-8 is a 400 before anything is imported', async () => {
    const before = await count(ws, 'items');
    const res = await importFile(ws, items, Buffer.concat([Buffer.from([0x63, 0x6f, 0x64, 0xe9]), Buffer.from(',qty\nx,1\n')]));
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'BAD_REQUEST', message: expect.stringContaining('not valid UTF-8') });
    expect(await count(ws, 'items')).toBe(before);
  });
});
