/**
 * Empty cells (DESIGN §14 "Round trip"): an empty unquoted cell imports as NULL
 * and a quoted `""` as an empty string, the way the CSV export writes them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorkspace, type TestWorkspace } from '../support/harness.ts';
import { vendorsToRun } from '../support/vendors.ts';
import { doneOf, importFile, rejectionsOf, serialId, sync, viewUuidOf } from '../support/import-calls.ts';

const vendors = await vendorsToRun();

describe.each(vendors)('CSV import of empty cells on $name', (target) => {
  let ws: TestWorkspace;
  let notes: string;

  beforeAll(async () => {
    ws = await startWorkspace(target);
    await ws.db.query(`CREATE TABLE ${ws.db.table('notes')} (${serialId(ws)}, label varchar(20) NOT NULL, memo varchar(20) NULL DEFAULT 'preset', mood varchar(20) NOT NULL DEFAULT 'calm')`);
    await sync(ws);
    notes = await viewUuidOf(ws, 'notes');
  });
  afterAll(async () => ws?.close());

  const memos = async (): Promise<unknown[][]> =>
    (await ws.db.query(`SELECT label, memo, mood FROM ${ws.db.table('notes')} ORDER BY label`)).map((r) => [r.label, r.memo, r.mood]);

  it('imports an empty unquoted cell as NULL and a quoted "" as an empty string (INSERT)', async () => {
    const done = doneOf(await importFile(ws, notes, 'label,memo,mood\r\nA,,\r\nB,"",x\r\nC,"c",""\r\n'));
    expect(done).toMatchObject({ totalCount: 3, successCount: 3, failureCount: 0 });
    // A NOT NULL column with a default keeps its default for an empty unquoted cell.
    expect(await memos()).toEqual([['A', null, 'calm'], ['B', '', 'x'], ['C', 'c', '']]);
  });

  it('UPDATE sets NULL for an empty unquoted cell and an empty string for ""', async () => {
    const ids = await ws.db.query(`SELECT id, label FROM ${ws.db.table('notes')} ORDER BY label`);
    const idOf = (label: string): number => Number(ids.find((r) => r.label === label)?.id);
    const csv = `id,memo\r\n${idOf('A')},""\r\n${idOf('C')},\r\n`;
    const done = doneOf(await importFile(ws, notes, csv, { query: { method: 'UPDATE' } }));
    expect(done).toMatchObject({ successCount: 2, failureCount: 0 });
    expect(await memos()).toEqual([['A', '', 'calm'], ['B', '', 'x'], ['C', null, '']]);
  });

  it('rejections.csv writes a quoted "" back as "" and an empty cell as empty, so a fixed file re-imports the same', async () => {
    const done = doneOf(await importFile(ws, notes, 'label,memo,mood\r\n' + 'x'.repeat(30) + ',"",\r\n'));
    expect(done).toMatchObject({ failureCount: 1 });
    expect((await rejectionsOf(ws, done.jobId)).text).toBe('label,memo,mood\r\n' + 'x'.repeat(30) + ',"",\r\n');
  });
});
