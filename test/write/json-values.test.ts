/**
 * A json column reads back the JSON value written, whatever its shape. The trap: pg and PGlite
 * hand json over already parsed, MariaDB (and SQL Server) as text; parsing again on PostgreSQL
 * turned the JSON string "123" into the number 123 and the string "{\"a\":1}" into an object.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorkspace, type TestWorkspace } from '../support/harness.ts';
import { vendorsToRun } from '../support/vendors.ts';
import { sync, viewUuidOf } from '../support/import-calls.ts';

const vendors = await vendorsToRun();

const VALUES: [string, unknown][] = [
  ['a string of digits', '123'],
  ['a string spelling true', 'true'],
  ['a string holding an object', '{"a":1}'],
  ['a string holding a quoted string', '"quoted"'],
  ['a plain string', 'plain words'],
  ['a number', 123.5],
  ['a boolean', false],
  ['an object', { a: [1, 'two', null], b: { c: '{"d":2}' } }],
  ['an array', ['1', 2, '[3]']],
];

describe.each(vendors)('json values keep their shape, on $name', (target) => {
  let ws: TestWorkspace;
  let view: string;

  beforeAll(async () => {
    ws = await startWorkspace(target);
    const table = ws.db.table('docs');
    const doc = ws.vendor === 'mariadb' ? 'json' : 'jsonb';
    await ws.db.query(`CREATE TABLE ${table} (id ${ws.db.sql.autoId}, code varchar(40) NOT NULL UNIQUE, doc ${doc})`);
    await sync(ws);
    view = await viewUuidOf(ws, 'docs');
  });
  afterAll(async () => ws?.close());

  it.each(VALUES)('%s, written by create and by bulk', async (label, value) => {
    const code = label.replace(/\W+/g, '-');
    expect((await ws.call('POST', ws.records('/docs'), { body: { code: `one-${code}`, doc: value } })).status).toBe(201);
    const bulk = await ws.call('POST', `/api/data/bulk/${view}/insert`, { body: { rows: [{ code: `bulk-${code}`, doc: value }] } });
    expect(bulk.body.data).toMatchObject({ successCount: 1 });
    for (const prefix of ['one', 'bulk']) {
      const res = await ws.call('GET', ws.records(`/docs?filter[code.eq]=${prefix}-${code}`));
      expect(res.body.data[0].doc).toEqual(value);
    }
  });
});
