/**
 * Imports that stop early (DESIGN §9, §12 "Import"): a client that goes away, a process that
 * died (stale heartbeat), a migration that starts mid-import, the 100 MiB limit; committed
 * batches stay, uncommitted ones are absent, and the job can be resumed with the same file.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, startWorkspace, type TestWorkspace } from '../support/harness.ts';
import { pgliteTarget, vendorsToRun } from '../support/vendors.ts';
import { count, declareLength, doneOf, EventReader, eventsOf, gatedStream, importFile, jobOf, resumeFile, serialId, sync, viewUuidOf } from '../support/import-calls.ts';

const vendors = await vendorsToRun();

function rowsOf(prefix: string, from: number, to: number): string {
  let out = '';
  for (let i = from; i <= to; i++) out += `${prefix}-${i},${i}\n`;
  return out;
}

async function settled(ws: TestWorkspace, jobId: string): Promise<any> {
  for (let i = 0; i < 100; i++) {
    const job = await jobOf(ws, jobId);
    if (job.state !== 'RUNNING') return job;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the job never left RUNNING');
}

async function startImport(ws: TestWorkspace, viewUuid: string, body: ReadableStream<Uint8Array>, signal?: AbortSignal): Promise<EventReader> {
  const response = await fetch(`${ws.url}/api/data/import/${viewUuid}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ws.apiKey}`, 'content-type': 'text/csv' },
    body,
    duplex: 'half',
    ...(signal ? { signal } : {}),
  } as RequestInit);
  expect(response.status).toBe(200);
  return new EventReader(response);
}

describe.each(vendors)('interrupted imports on $name', (target) => {
  let ws: TestWorkspace;
  let items: string;

  beforeAll(async () => {
    ws = await startWorkspace(target, { fixture: false });
    await ws.db.query(`CREATE TABLE ${ws.db.table('items')} (${serialId(ws)}, code varchar(20) NOT NULL UNIQUE, qty integer NOT NULL)`);
    await sync(ws);
    items = await viewUuidOf(ws, 'items');
  });
  afterAll(async () => ws?.close());

  /** Sends batches 1–5 and part of batch 6, then the client goes away. */
  async function abortAfterFiveBatches(prefix: string): Promise<string> {
    const controller = new AbortController();
    const parts = ['code,qty\n', ...[0, 1, 2, 3, 4].map((b) => rowsOf(prefix, b * 500 + 1, b * 500 + 500)), rowsOf(prefix, 2501, 2600)];
    const reader = await startImport(ws, items, gatedStream(parts), controller.signal);
    const started = await reader.waitFor((e) => e.event === 'started');
    await reader.waitFor((e) => e.event === 'progress' && e.batch === 5);
    controller.abort();
    return started.jobId;
  }

  it('a client that goes away: committed batches stay, the rest is absent, the job is INTERRUPTED and resumes', async () => {
    const jobId = await abortAfterFiveBatches('cut');
    const job = await settled(ws, jobId);
    expect(job).toMatchObject({ state: 'INTERRUPTED', batchesDone: 5, totalCount: 2500, successCount: 2500, failureCount: 0, failedBatches: [] });
    expect(await count(ws, 'items', "code LIKE 'cut-%'")).toBe(2500);
    expect(await count(ws, 'items', "code IN ('cut-2500', 'cut-1')")).toBe(2);
    expect(await count(ws, 'items', "code = 'cut-2501'")).toBe(0);

    const resumed = await resumeFile(ws, jobId, `code,qty\n${rowsOf('cut', 1, 3000)}`);
    expect(resumed.events[0]).toMatchObject({ event: 'started', jobId, mapping: { code: 'code', qty: 'qty' } });
    expect(eventsOf(resumed, 'progress')).toEqual([{ event: 'progress', batch: 6, batchesDone: 6, rowsRead: 3000, successCount: 3000, errorCount: 0 }]);
    expect(doneOf(resumed)).toMatchObject({ jobId, totalCount: 3000, successCount: 3000, failureCount: 0, failedBatches: [] });
    expect(await count(ws, 'items', "code LIKE 'cut-%'")).toBe(3000);
    expect((await jobOf(ws, jobId)).state).toBe('DONE');
    const again = await resumeFile(ws, jobId, `code,qty\n${rowsOf('cut', 1, 3000)}`);
    expect(again.status).toBe(409);
  });

  it('resume refuses a different file without writing, and accepts the same one afterwards', async () => {
    const jobId = await abortAfterFiveBatches('diff');
    await settled(ws, jobId);
    const changed = `code,qty\n${rowsOf('diff', 1, 3000).replace('diff-7,7\n', 'diff-7,8\n')}`;
    const refused = await resumeFile(ws, jobId, changed);
    expect(eventsOf(refused, 'error')).toEqual([{ event: 'error', code: 'BAD_REQUEST', message: expect.stringContaining('batch 1') }]);
    expect(eventsOf(refused, 'progress')).toEqual([]);
    expect(await jobOf(ws, jobId)).toMatchObject({ state: 'FAILED', batchesDone: 5 });
    const wrongHeader = await resumeFile(ws, jobId, `qty,code\n1,x\n`);
    expect(wrongHeader.status).toBe(400);
    expect(await jobOf(ws, jobId)).toMatchObject({ state: 'FAILED' });
    expect(doneOf(await resumeFile(ws, jobId, `code,qty\n${rowsOf('diff', 1, 3000)}`))).toMatchObject({ totalCount: 3000, successCount: 3000 });
    expect(await count(ws, 'items', "code LIKE 'diff-%'")).toBe(3000);
  });

  it('a RUNNING job whose heartbeat stopped (the process died) shows INTERRUPTED and can be resumed', async () => {
    const first = doneOf(await importFile(ws, items, `code,qty\n${rowsOf('dead', 1, 700)}`));
    // What a crash after batch 1 leaves behind: RUNNING, batch 1 recorded, no heartbeat since.
    const lost = Array.from({ length: 200 }, (_, i) => `'dead-${i + 501}'`).join(', ');
    await ws.db.query(`DELETE FROM ${ws.db.table('items')} WHERE code IN (${lost})`);
    await ws.service.embedded.query(`DELETE FROM wdapi_control.import_batches WHERE job_id = $1 AND batch = 2`, [first.jobId]);
    await ws.service.embedded.query(`UPDATE wdapi_control.import_jobs SET state = 'RUNNING', batches_done = 1, total_count = 500, success_count = 500,
      heartbeat_at = now() - interval '5 minutes' WHERE id = $1`, [first.jobId]);
    expect(await jobOf(ws, first.jobId)).toMatchObject({ state: 'INTERRUPTED', batchesDone: 1, successCount: 500 });
    const resumed = await resumeFile(ws, first.jobId, `code,qty\n${rowsOf('dead', 1, 700)}`);
    expect(doneOf(resumed)).toMatchObject({ totalCount: 700, successCount: 700 });
    expect(await count(ws, 'items', "code LIKE 'dead-%'")).toBe(700);
  });

  it('a migration that starts mid-import stops it at the next batch boundary with an error event', async () => {
    let release: (rest: string[]) => void = () => undefined;
    const gate = new Promise<readonly string[]>((resolve) => (release = resolve));
    // csv-parse emits a record once it has seen what follows it: the gate opens one row into batch 3.
    const reader = await startImport(ws, items, gatedStream(['code,qty\n', rowsOf('mig', 1, 500), rowsOf('mig', 501, 1001)], gate));
    const started = await reader.waitFor((e) => e.event === 'started');
    await reader.waitFor((e) => e.event === 'progress' && e.batch === 2);
    const flag = await ws.call('PUT', ws.admin('/entities/items/migration'), { token: ADMIN_TOKEN, body: { blocksWrites: true, blocksReads: false } });
    expect(flag.status).toBe(200);
    release([rowsOf('mig', 1002, 2000)]);
    const error = await reader.waitFor((e) => e.event === 'error');
    await reader.finished;
    await ws.call('DELETE', ws.admin('/entities/items/migration'), { token: ADMIN_TOKEN });
    expect(error.code).toBe('SCHEMA_MIGRATION_IN_PROGRESS');
    expect(reader.events.filter((e) => e.event === 'progress').map((e) => e.batch)).toEqual([1, 2]);
    expect(await jobOf(ws, started.jobId)).toMatchObject({ state: 'FAILED', batchesDone: 2, successCount: 1000 });
    expect(await count(ws, 'items', "code LIKE 'mig-%'")).toBe(1000);
  });
});

describe('a chunked body crossing the import limit', () => {
  let ws: TestWorkspace;
  let items: string;
  // The same code path as 100 MiB, with a limit (IMPORT_LIMIT_BYTES, a service setting) that a test crosses in a moment.
  const limit = 2 * 1024 * 1024;

  beforeAll(async () => {
    ws = await startWorkspace(pgliteTarget, { fixture: false, settings: { importLimitBytes: limit } });
    await ws.db.query(`CREATE TABLE ${ws.db.table('items')} (${serialId(ws)}, code varchar(20) NOT NULL UNIQUE, qty integer NOT NULL)`);
    await sync(ws);
    items = await viewUuidOf(ws, 'items');
  });
  afterAll(async () => ws?.close());

  it('a Content-Length above the limit is 413 before the body is read', async () => {
    const res = await declareLength(ws, items, limit + 1);
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('stops with an error event; committed batches stay and the job records them', async () => {
    // Batch 1 is committed; wide rows (an unmapped 16 KiB column) then cross the limit inside batch 2.
    const head = `code,qty,pad\n${rowsOf('big', 1, 600).replaceAll('\n', ',\n')}`;
    const pad = 'p'.repeat(16 * 1024);
    const encoder = new TextEncoder();
    let sent = 0;
    let row = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent > 2 * limit) return controller.close();
        const part = sent === 0 ? head : `wide-${++row},1,${pad}\n`;
        sent += part.length;
        controller.enqueue(encoder.encode(part));
      },
    });
    const reader = await startImport(ws, items, body);
    await reader.finished;
    const started = reader.events[0];
    expect(reader.events.at(-1)).toEqual({ event: 'error', code: 'PAYLOAD_TOO_LARGE', message: expect.any(String) });
    expect(reader.events.filter((e) => e.event === 'progress').map((e) => e.batch)).toEqual([1]);
    expect(await jobOf(ws, started.jobId)).toMatchObject({ state: 'FAILED', batchesDone: 1, totalCount: 500, successCount: 500 });
    expect(await count(ws, 'items')).toBe(500);
    expect(await count(ws, 'items', "code LIKE 'wide-%' OR code = 'big-501'")).toBe(0);
  });
});
