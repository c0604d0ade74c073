/**
 * CSV import over HTTP (spec "CSV import", DESIGN §9, §12 "Import"): mapping, formats, row and
 * batch failures, events, the job record, the report and rejections.csv, and method UPDATE.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorkspace, type TestWorkspace } from '../support/harness.ts';
import { vendorsToRun } from '../support/vendors.ts';
import { bool, count, declareLength, doneOf, eventsOf, importFile, jobOf, rejectionsOf, reportOf, sync, viewUuidOf } from '../support/import-calls.ts';

const vendors = await vendorsToRun();

function lines(...rows: string[]): string {
  return rows.join('\n') + '\n';
}

describe.each(vendors)('CSV import on $name', (target) => {
  // The uuid table is written in PostgreSQL's SQL (the kit cannot spell it for a plugin).
  const withUuidTable = target.name !== 'mariadb' && !target.conformancePlugin;
  let ws: TestWorkspace;
  let customers: string;
  let regions: string;
  let tags: string;

  beforeAll(async () => {
    ws = await startWorkspace(target);
    if (withUuidTable) {
      await ws.db.query(`CREATE TABLE ${ws.db.table('tags')} (id uuid PRIMARY KEY, label varchar(30) NOT NULL UNIQUE, score integer,
        created_at timestamptz NOT NULL DEFAULT now())`);
      await sync(ws);
      tags = await viewUuidOf(ws, 'tags');
    }
    customers = await viewUuidOf(ws, 'customers');
    regions = await viewUuidOf(ws, 'regions');
  });
  afterAll(async () => ws?.close());

  it('maps headers by display name (any case), then API field name, then column name; lists skipped columns', async () => {
    const csv = lines('NAME,email,regionId,birth_date,Created At,extra', 'Imp A,imp-a@example.com,1,1990-01-02,2020-01-01,x', 'Imp B,imp-b@example.com,,,,y');
    const res = await importFile(ws, customers, csv);
    expect(res.contentType).toMatch(/^application\/x-ndjson/);
    const started = res.events[0];
    expect(started).toEqual({
      event: 'started',
      jobId: expect.any(String),
      mapping: { NAME: 'name', email: 'email', regionId: 'regionId', birth_date: 'birthDate' },
      skippedColumns: ['Created At', 'extra'],
    });
    const done = doneOf(res);
    expect(done).toEqual({ event: 'done', jobId: started.jobId, totalCount: 2, successCount: 2, failureCount: 0, skippedCount: 0, failedBatches: [] });
    const rows = await ws.db.query(`SELECT name, region_id, birth_date IS NULL AS no_birth FROM ${ws.db.table('customers')} WHERE email LIKE 'imp-_@example.com' ORDER BY name`);
    expect(rows.map((r) => [r.name, r.region_id === null ? null : Number(r.region_id), bool(r.no_birth)])).toEqual([['Imp A', 1, false], ['Imp B', null, true]]);
  });

  it('reports failing rows by 1-based data row and file line, skips them and imports the rest', async () => {
    const csv = lines('name,email,vip', 'Ok 1,ok1@example.com,true', '"Multi\nline",ok2@example.com,false', 'Bad vip,bad@example.com,maybe', 'No email,,yes', 'Ok 3,ok3@example.com,1');
    const res = await importFile(ws, customers, csv);
    const done = doneOf(res);
    expect(done).toMatchObject({ totalCount: 5, successCount: 3, failureCount: 2, skippedCount: 0 });
    const report = await reportOf(ws, done.jobId);
    expect(report.batches).toEqual([]);
    expect(report.rows).toEqual([
      { row: 3, line: 5, field: 'vip', code: 'VALIDATION_FAILED', message: expect.stringContaining('vip') },
      { row: 4, line: 6, field: 'email', code: 'VALIDATION_FAILED', message: expect.stringContaining('required') },
    ]);
    expect(await count(ws, 'customers', "email IN ('ok1@example.com','ok2@example.com','ok3@example.com')")).toBe(3);
    const multi = await ws.db.query(`SELECT name FROM ${ws.db.table('customers')} WHERE email = 'ok2@example.com'`);
    expect(multi[0]?.name).toBe('Multi\nline');
    const rejections = await rejectionsOf(ws, done.jobId);
    expect(rejections.status).toBe(200);
    expect(rejections.type).toMatch(/^text\/csv/);
    expect(rejections.text).toBe('name,email,vip\r\nBad vip,bad@example.com,maybe\r\nNo email,,yes\r\n');
  });

  it('rejections.csv is re-importable once fixed', async () => {
    const first = doneOf(await importFile(ws, customers, lines('name,email,regionId', 'Re 1,"re1@example.com",9', 'Re 2,re2@example.com,zz')));
    expect(first).toMatchObject({ successCount: 0, failureCount: 2 });
    const rejected = (await rejectionsOf(ws, first.jobId)).text;
    const fixed = rejected.replace(',9\r', ',1\r').replace(',zz\r', ',2\r');
    const again = doneOf(await importFile(ws, customers, fixed));
    expect(again).toMatchObject({ totalCount: 2, successCount: 2, failureCount: 0 });
  });

  it('a row with the wrong number of fields is a failing row, not the end of the import', async () => {
    const done = doneOf(await importFile(ws, regions, lines('name,Id', 'Width ok,', 'Width bad', 'Width ok 2,')));
    expect(done).toMatchObject({ totalCount: 3, successCount: 2, failureCount: 1 });
    const report = await reportOf(ws, done.jobId);
    expect(report.rows).toEqual([{ row: 2, line: 3, code: 'VALIDATION_FAILED', message: expect.stringContaining('1 field') }]);
  });

  it('database-only errors fail exactly their batch of 500; the other batches import', async () => {
    const rows = Array.from({ length: 1600 }, (_, i) => `Batch ${i},batch${i}@example.com,${i === 1200 ? 99 : 1}`);
    rows[700] = 'Collides,user1@example.com,1';
    const res = await importFile(ws, customers, lines('name,email,regionId', ...rows));
    const progress = eventsOf(res, 'progress');
    expect(progress.map((p) => p.batch)).toEqual([1, 2, 3, 4]);
    expect(progress.map((p) => p.batchesDone)).toEqual([1, 2, 3, 4]);
    expect(progress.map((p) => p.rowsRead)).toEqual([500, 1000, 1500, 1600]);
    expect(progress.map((p) => p.successCount)).toEqual([500, 500, 500, 600]);
    expect(progress.map((p) => p.errorCount)).toEqual([0, 500, 1000, 1000]);
    const done = doneOf(res);
    expect(done).toMatchObject({ totalCount: 1600, successCount: 600, failureCount: 1000, skippedCount: 0 });
    expect(done.failedBatches).toEqual([
      { batch: 2, fromRow: 501, toRow: 1000, code: 'CONFLICT', message: expect.any(String) },
      { batch: 3, fromRow: 1001, toRow: 1500, code: 'REFERENCE_NOT_FOUND', message: expect.any(String) },
    ]);
    expect(await count(ws, 'customers', "email LIKE 'batch%@example.com'")).toBe(600);
    expect(await count(ws, 'customers', "email IN ('batch0@example.com','batch1599@example.com')")).toBe(2);
    expect(await count(ws, 'customers', "email IN ('batch501@example.com','batch1001@example.com')")).toBe(0);
    const job = await jobOf(ws, done.jobId);
    expect(job).toEqual({
      jobId: done.jobId, viewUuid: customers, state: 'DONE', totalCount: 1600, successCount: 600, failureCount: 1000, skippedCount: 0,
      batchesDone: 4, failedBatches: done.failedBatches,
    });
    const report = await reportOf(ws, done.jobId);
    expect(report.batches).toEqual(done.failedBatches);
    const rejected = (await rejectionsOf(ws, done.jobId)).text.trim().split('\r\n');
    expect(rejected).toHaveLength(1 + 1000);
  });

  it('onConflict and conflictColumns: IGNORE skips existing rows, UPDATE overwrites them', async () => {
    const ignore = doneOf(await importFile(ws, regions, lines('name', 'North', 'Eastern', 'Eastern'), { query: { onConflict: 'IGNORE', conflictColumns: 'name' } }));
    expect(ignore).toMatchObject({ totalCount: 3, successCount: 1, skippedCount: 2, failureCount: 0 });
    const update = doneOf(await importFile(ws, customers, lines('email,name', 'user2@example.com,Grace Imported'), { query: { onConflict: 'UPDATE', conflictColumns: 'email' } }));
    expect(update).toMatchObject({ successCount: 1 });
    expect((await ws.db.query(`SELECT name FROM ${ws.db.table('customers')} WHERE email = 'user2@example.com'`))[0]?.name).toBe('Grace Imported');
    const bad = await importFile(ws, regions, lines('name', 'x'), { query: { onConflict: 'UPDATE', conflictColumns: 'id,name' } });
    expect(bad.status).toBe(400);
  });

  it('without a header, columns map by position over the importable columns in view order', async () => {
    const res = await importFile(ws, customers, lines('Pos A,pos-a@example.com,2,true,1980-05-06,ignored', 'Pos B,pos-b@example.com,,false,,'), { query: { header: 'false' } });
    expect(res.events[0]).toMatchObject({ mapping: { 1: 'name', 2: 'email', 3: 'regionId', 4: 'vip', 5: 'birthDate' }, skippedColumns: ['6'] });
    expect(doneOf(res)).toMatchObject({ totalCount: 2, successCount: 2 });
    const rows = await ws.db.query(`SELECT name, region_id, vip FROM ${ws.db.table('customers')} WHERE email = 'pos-a@example.com'`);
    expect(rows[0]?.name).toBe('Pos A');
    expect(bool(rows[0]?.vip)).toBe(true);
    expect(Number(rows[0]?.region_id)).toBe(2);
  });

  it('strips a BOM, keeps quoted newlines and CRLF line ends', async () => {
    const csv = '\uFEFFname,email\r\n"Bom ""quoted""",bom1@example.com\r\n"Two\r\nlines",bom2@example.com\r\n';
    const res = await importFile(ws, customers, Buffer.from(csv, 'utf8'));
    expect(res.events[0].mapping).toEqual({ name: 'name', email: 'email' });
    expect(doneOf(res)).toMatchObject({ totalCount: 2, successCount: 2 });
    const rows = await ws.db.query(`SELECT name FROM ${ws.db.table('customers')} WHERE email LIKE 'bom_@example.com' ORDER BY email`);
    expect(rows.map((r) => r.name)).toEqual(['Bom "quoted"', 'Two\r\nlines']);
  });

  it('detects tab, semicolon and pipe delimiters from the header; an explicit delimiter wins', async () => {
    const tsv = await importFile(ws, customers, lines('name\temail', 'Tab, One\ttab1@example.com'), { contentType: 'text/tab-separated-values' });
    expect(doneOf(tsv)).toMatchObject({ successCount: 1 });
    expect((await ws.db.query(`SELECT name FROM ${ws.db.table('customers')} WHERE email = 'tab1@example.com'`))[0]?.name).toBe('Tab, One');
    expect(doneOf(await importFile(ws, customers, lines('name;email', 'Semi;semi@example.com'), { contentType: 'text/plain' }))).toMatchObject({ successCount: 1 });
    expect(doneOf(await importFile(ws, customers, lines('name|email', 'Pipe|pipe@example.com')))).toMatchObject({ successCount: 1 });
    const forced = await importFile(ws, regions, lines('name;x', 'Forced;1'), { query: { delimiter: ',' } });
    expect(forced.status).toBe(400);
    expect(forced.body.error.message).toContain('no CSV column');
  });

  // A native uuid column type: the Postgres vendors (MariaDB keeps UUIDs in char columns).
  it.runIf(withUuidTable)('a UUID primary key is imported when given and generated when blank', async () => {
    const id = '0b9a4f0e-3a5e-4f43-9a51-7d6c0f3b2a10';
    const done = doneOf(await importFile(ws, tags, lines('id,label,score', `${id},given,1`, ',generated,2')));
    expect(done).toMatchObject({ successCount: 2 });
    const rows = await ws.db.query(`SELECT CAST(id AS text) AS id, label FROM ${ws.db.table('tags')} ORDER BY label`);
    expect(rows.find((r) => r.label === 'given')?.id).toBe(id);
    expect(String(rows.find((r) => r.label === 'generated')?.id)).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('an explicit X-Import-Mapping header maps CSV columns to fields; unknown targets are 400', async () => {
    const res = await importFile(ws, customers, lines('Full name,Mail,Other', 'Mapped,mapped@example.com,z'), { headers: { 'x-import-mapping': JSON.stringify({ 'Full name': 'name', Mail: 'email' }) } });
    expect(res.events[0]).toMatchObject({ mapping: { 'Full name': 'name', Mail: 'email' }, skippedColumns: ['Other'] });
    expect(doneOf(res)).toMatchObject({ successCount: 1 });
    const bad = await importFile(ws, customers, lines('a', 'b'), { headers: { 'x-import-mapping': JSON.stringify({ a: 'createdAt' }) } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('BAD_REQUEST');
  });

  it('mapping problems are a plain 400 before any row: nothing mapped, UPDATE without the key', async () => {
    const jobsBefore = await ws.db.query('SELECT 1');
    expect(jobsBefore).toHaveLength(1);
    const nothing = await importFile(ws, customers, lines('foo,bar', '1,2'));
    expect(nothing.status).toBe(400);
    expect(nothing.contentType).toMatch(/^application\/json/);
    expect(nothing.body.error).toMatchObject({ code: 'BAD_REQUEST', message: expect.stringContaining('no CSV column') });
    const noKey = await importFile(ws, customers, lines('name', 'x'), { query: { method: 'UPDATE' } });
    expect(noKey.status).toBe(400);
    expect(noKey.body.error.message).toContain("'id'");
    const onlyKey = await importFile(ws, customers, lines('id', '1'), { query: { method: 'UPDATE' } });
    expect(onlyKey.status).toBe(400);
  });

  it('method UPDATE changes existing rows by primary key; unknown keys are failing rows', async () => {
    const res = await importFile(ws, customers, lines('Id,Name,Vip', '3,Alan Updated,true', '99999,Nobody,false', '4,Edsger Updated,'), { query: { method: 'UPDATE' } });
    expect(res.events[0].mapping).toEqual({ Id: 'id', Name: 'name', Vip: 'vip' });
    const done = doneOf(res);
    expect(done).toMatchObject({ totalCount: 3, successCount: 1, failureCount: 2 });
    const report = await reportOf(ws, done.jobId);
    expect(report.rows.map((r: { row: number; code: string }) => [r.row, r.code])).toEqual([[2, 'NOT_FOUND'], [3, 'VALIDATION_FAILED']]);
    expect(report.rows[0].message).toContain('99999');
    const rows = await ws.db.query(`SELECT id, name, email, vip FROM ${ws.db.table('customers')} WHERE id IN (3, 4) ORDER BY id`);
    expect(rows.map((r) => [r.name, r.email, bool(r.vip)])).toEqual([['Alan Updated', 'user3@example.com', true], ['Edsger', 'user4@example.com', true]]);
    expect(await count(ws, 'customers', "name = 'Nobody'")).toBe(0);
  });

  it('refuses bodies of another media type with 415 and unknown options with 400', async () => {
    const json = await importFile(ws, regions, '{"a":1}', { contentType: 'application/json' });
    expect(json.status).toBe(415);
    expect(json.body.error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    expect((await importFile(ws, regions, lines('name', 'x'), { query: { method: 'MERGE' } })).status).toBe(400);
    expect((await importFile(ws, regions, lines('name', 'x'), { query: { bogus: '1' } })).status).toBe(400);
    expect((await importFile(ws, regions, '')).status).toBe(400);
  });

  it('a Content-Length above 100 MiB is 413 PAYLOAD_TOO_LARGE before the body is read', async () => {
    const res = await declareLength(ws, regions, 100 * 1024 * 1024 + 1);
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('needs a credential; an unknown view or job is 404 to the admin, 403 to a workspace key (docs/security.md)', async () => {
    const admin = { token: (await import('../support/harness.ts')).ADMIN_TOKEN };
    expect((await importFile(ws, regions, lines('name', 'x'), { token: null })).status).toBe(401);
    expect((await importFile(ws, '00000000-0000-4000-8000-000000000000', lines('name', 'x'), admin)).status).toBe(404);
    expect((await ws.call('GET', '/api/imports/00000000-0000-4000-8000-000000000000', admin)).status).toBe(404);
    expect((await importFile(ws, '00000000-0000-4000-8000-000000000000', lines('name', 'x'))).status).toBe(403);
    expect((await ws.call('GET', '/api/imports/00000000-0000-4000-8000-000000000000')).status).toBe(403);
  });

  it('a migration that blocks writes is 503 before reading', async () => {
    const admin = { token: (await import('../support/harness.ts')).ADMIN_TOKEN };
    await ws.call('PUT', ws.admin('/entities/regions/migration'), { ...admin, body: { blocksWrites: true, blocksReads: false, retryAfterSeconds: 7 } });
    const res = await importFile(ws, regions, lines('name', 'Blocked'));
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ error: { code: 'SCHEMA_MIGRATION_IN_PROGRESS' }, retryAfterSeconds: 7, blocksWrites: true });
    await ws.call('DELETE', ws.admin('/entities/regions/migration'), admin);
    expect(await count(ws, 'regions', "name = 'Blocked'")).toBe(0);
  });
});
