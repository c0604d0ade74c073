/**
 * A CSV column named `__proto__` (its table column's field is `proto`, camelCase drops the
 * underscores). The import keeps `{csvColumn: fieldName}` maps; `map['__proto__'] = 'proto'` would
 * set the map's prototype to a string, which JavaScript ignores, so the column would vanish from
 * the reported mapping and an explicit mapping of it would be lost (the column skipped).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorkspace, type TestWorkspace } from '../support/harness.ts';
import { vendorsToRun } from '../support/vendors.ts';
import { doneOf, eventsOf, importFile, serialId, sync, viewUuidOf } from '../support/import-calls.ts';

const vendors = await vendorsToRun();

describe.each(vendors)('CSV import of a column named __proto__ on $name', (target) => {
  let ws: TestWorkspace;
  let view: string;

  beforeAll(async () => {
    ws = await startWorkspace(target);
    await ws.db.query(`CREATE TABLE ${ws.db.table('odd')} (${serialId(ws)}, label varchar(20) NOT NULL, __proto__ varchar(20) NULL)`);
    await sync(ws);
    view = await viewUuidOf(ws, 'odd');
  });
  afterAll(async () => ws?.close());

  const stored = async (): Promise<unknown[][]> =>
    (await ws.db.query(`SELECT label, __proto__ AS proto FROM ${ws.db.table('odd')} ORDER BY label`)).map((r) => [r.label, r.proto]);

  it('maps the header __proto__ to the field proto and reports it in the started event', async () => {
    const res = await importFile(ws, view, 'label,__proto__\r\nA,kept\r\nB,\r\n');
    expect(doneOf(res)).toMatchObject({ totalCount: 2, successCount: 2, failureCount: 0 });
    const started = eventsOf(res, 'started')[0];
    expect(Object.getOwnPropertyDescriptor(started.mapping, '__proto__')?.value).toBe('proto');
    expect(await stored()).toEqual([['A', 'kept'], ['B', null]]);
  });

  it('follows an explicit X-Import-Mapping whose key is __proto__', async () => {
    const explicit = '{"l":"label","__proto__":"proto"}';
    const res = await importFile(ws, view, 'l,__proto__\r\nC,given\r\n', { headers: { 'x-import-mapping': explicit } });
    expect(doneOf(res)).toMatchObject({ totalCount: 1, successCount: 1, failureCount: 0 });
    expect(eventsOf(res, 'started')[0].skippedColumns).toEqual([]);
    expect((await stored()).at(-1)).toEqual(['C', 'given']);
  });
});
