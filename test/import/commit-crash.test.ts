/**
 * Exactly-once resume: the connection to the workspace database is cut at a
 * batch's COMMIT by a proxy the test starts. Whether the database committed the batch or not,
 * the service never claims "nothing was written", and a resume with the same file leaves each
 * row in the table exactly once with the job's counts equal to the table's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorkspace, type TestWorkspace } from '../support/harness.ts';
import { mariadbTarget } from '../support/mysql-target.ts';
import { postgresTarget, vendorsToRun, type VendorTarget } from '../support/vendors.ts';
import { CommitProxy, type CutMode } from './commit-proxy.ts';
import { count, doneOf, eventsOf, importFile, jobOf, reportOf, resumeFile, sync, viewUuidOf } from '../support/import-calls.ts';

const vendors = await vendorsToRun([postgresTarget, mariadbTarget]);

/** The vendor with the workspace pointed at a proxy in front of its database. */
function proxied(target: VendorTarget, onProxy: (proxy: CommitProxy) => void): VendorTarget {
  return {
    ...target,
    async provision(service, withFixture) {
      const db = await target.provision(service, withFixture);
      const url = new URL(String(db.database.url));
      const proxy = await CommitProxy.start(url.hostname, Number(url.port));
      onProxy(proxy);
      return { ...db, database: { ...db.database, url: proxy.urlThrough(String(db.database.url)) }, drop: async () => { await proxy.close(); await db.drop(); } };
    },
  };
}

/** `rows` rows; rows listed in `bad` carry a quantity that is not a number (refused by validation). */
function csvOf(prefix: string, rows: number, bad: readonly number[] = []): string {
  let out = 'code,qty\n';
  for (let i = 1; i <= rows; i++) out += `${prefix}-${i},${bad.includes(i) ? 'many' : i}\n`;
  return out;
}

describe.each(vendors)('a connection cut at COMMIT on $name', (target) => {
  let ws: TestWorkspace;
  let proxy: CommitProxy;
  let items: string;

  beforeAll(async () => {
    ws = await startWorkspace(proxied(target, (p) => (proxy = p)), { fixture: false });
    // No unique key on code: a batch imported twice would show as duplicates, not as a conflict.
    await ws.db.query(`CREATE TABLE ${ws.db.table('items')} (id ${ws.db.sql.autoId}, code varchar(40) NOT NULL, qty integer NOT NULL)`);
    await sync(ws);
    items = await viewUuidOf(ws, 'items');
  });
  afterAll(async () => ws?.close());

  async function cutThenResume(prefix: string, mode: CutMode, committedRows: number): Promise<void> {
    // Row 600 (batch 2) fails validation: the job's report must list it however batch 2 ended.
    const csv = csvOf(prefix, 1200, [600]);
    const cuts = proxy.cuts;
    // Batch 1 commits normally; the connection is cut at batch 2's COMMIT.
    proxy.cutAtCommit(mode, 1);
    const first = await importFile(ws, items, csv);
    expect(proxy.cuts).toBe(cuts + 1);
    const jobId = first.events[0].jobId;
    const [error] = eventsOf(first, 'error');
    expect(error, JSON.stringify(first.events)).toMatchObject({ event: 'error', message: expect.stringContaining('the outcome of batch 2 is unknown') });
    expect(error.message).not.toMatch(/nothing was written/);
    expect(eventsOf(first, 'progress').map((e) => e.batch)).toEqual([1]);
    expect(await count(ws, 'items', `code LIKE '${prefix}-%'`)).toBe(committedRows);
    expect(await jobOf(ws, jobId)).toMatchObject({ state: 'FAILED', batchesDone: 1, successCount: 500 });

    const done = doneOf(await resumeFile(ws, jobId, csv));
    expect(done).toMatchObject({ totalCount: 1200, successCount: 1199, failureCount: 1, failedBatches: [] });
    const rows = await ws.db.query(`SELECT COUNT(*) AS n, COUNT(DISTINCT code) AS d FROM ${ws.db.table('items')} WHERE code LIKE '${prefix}-%'`);
    expect([Number(rows[0]?.n), Number(rows[0]?.d)]).toEqual([1199, 1199]);
    expect(await jobOf(ws, jobId)).toMatchObject({ state: 'DONE', batchesDone: 3, totalCount: 1200, successCount: 1199, failureCount: 1 });
    expect((await reportOf(ws, jobId)).rows).toEqual([{ row: 600, line: 601, field: 'qty', code: 'VALIDATION_FAILED', message: expect.any(String) }]);
  }

  it('after the COMMIT reached the database: batch 2 is committed, resume does not import it again', async () => {
    await cutThenResume('after', 'after-commit', 999);
  });

  it('method UPDATE: a batch committed before the cut is not applied again on resume (a later change stays)', async () => {
    doneOf(await importFile(ws, items, csvOf('upd', 1200)));
    const ids = await ws.db.query(`SELECT id, code FROM ${ws.db.table('items')} WHERE code LIKE 'upd-%' ORDER BY id`);
    let csv = 'id,qty\n';
    for (const row of ids) csv += `${row.id},${Number(String(row.code).slice(4)) + 10000}\n`;
    proxy.cutAtCommit('after-commit', 1);
    const first = await importFile(ws, items, csv, { query: { method: 'UPDATE' } });
    expect(eventsOf(first, 'error')[0]?.message).toContain('the outcome of batch 2 is unknown');
    expect(await count(ws, 'items', `code LIKE 'upd-%' AND qty > 10000`)).toBe(1000);
    // Someone changes a row of batch 2 after it was committed: applying batch 2 again would undo that.
    await ws.db.query(`UPDATE ${ws.db.table('items')} SET qty = 7 WHERE code = 'upd-600'`);
    const done = doneOf(await resumeFile(ws, first.events[0].jobId, csv));
    expect(done).toMatchObject({ totalCount: 1200, successCount: 1200, failureCount: 0 });
    expect(await count(ws, 'items', `code LIKE 'upd-%' AND qty > 10000`)).toBe(1199);
    expect(await count(ws, 'items', `code = 'upd-600' AND qty = 7`)).toBe(1);
  });

  it('before the COMMIT reached the database: batch 2 is not committed, resume imports it once', async () => {
    await cutThenResume('before', 'before-commit', 500);
  });
});
