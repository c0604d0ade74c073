/**
 * Bulk and import find their view through the workspace runtime (no control-store query per
 * request): unknown views, and views that went away with their table, still answer 404 to the
 * instance admin, and to a workspace key as a view of another workspace does (403: whether a view
 * exists is told only to whom may see it, docs/security.md).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, startWorkspace, type TestWorkspace } from '../support/harness.ts';
import { vendorsToRun } from '../support/vendors.ts';
import { importFile, sync, viewUuidOf } from '../support/import-calls.ts';

const vendors = await vendorsToRun();

describe.each(vendors)('view lookup of bulk and import, on $name', (target) => {
  let ws: TestWorkspace;
  const bulk = (uuid: string, body: unknown, token?: string) => ws.call('POST', `/api/data/bulk/${uuid}/insert`, { body, ...(token ? { token } : {}) });

  beforeAll(async () => {
    ws = await startWorkspace(target);
  });
  afterAll(async () => ws?.close());

  it('an unknown or malformed view uuid is 404 to the admin, 403 to a workspace key', async () => {
    for (const uuid of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
      const res = await bulk(uuid, { rows: [{ name: 'x' }] }, ADMIN_TOKEN);
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('NOT_FOUND');
      expect((await bulk(uuid, { rows: [{ name: 'x' }] })).body.error.code).toBe('FORBIDDEN');
    }
  });

  it('a view whose table was dropped and synced away is 404 for bulk and import (admin)', async () => {
    await ws.db.query(`CREATE TABLE ${ws.db.table('scratch_notes')} (id ${ws.db.sql.autoId}, title varchar(40) NOT NULL)`);
    await sync(ws);
    const view = await viewUuidOf(ws, 'scratchNotes');
    expect((await bulk(view, { rows: [{ title: 'kept' }] })).status).toBe(201);
    expect((await importFile(ws, view, 'title\nalso kept\n')).status).toBe(200);

    await ws.db.query(`DROP TABLE ${ws.db.table('scratch_notes')}`);
    await sync(ws);
    const res = await bulk(view, { rows: [{ title: 'gone' }] }, ADMIN_TOKEN);
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
    expect((await importFile(ws, view, 'title\ngone\n', { token: ADMIN_TOKEN })).status).toBe(404);
    expect((await bulk(view, { rows: [{ title: 'gone' }] })).status).toBe(403);
  });
});
