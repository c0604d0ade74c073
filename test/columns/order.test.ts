/**
 * Column order (DESIGN §12 `position`): `PATCH /api/columns/item/{uuid}` with
 * `position` moves a column and shifts the others; positions stay 0..n-1 after moves and removals;
 * a bad position is 400 and changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, startWorkspace, type TestWorkspace } from '../support/harness.ts';
import { vendorsToRun } from '../support/vendors.ts';

const vendors = await vendorsToRun();

interface Column {
  uuid: string;
  fieldName: string;
  position: number;
}

describe.each(vendors)('column order on $name', (target) => {
  let ws: TestWorkspace;
  let viewUuid: string;
  const columns = async (): Promise<Column[]> => (await ws.call('GET', `/api/views/${viewUuid}/columns`)).body.data;
  const names = async () => (await columns()).map((c) => c.fieldName);
  const move = (column: Column, position: unknown) => ws.call('PATCH', `/api/columns/item/${column.uuid}`, { body: { position } });

  beforeAll(async () => {
    ws = await startWorkspace(target);
    const views = (await ws.call('GET', ws.admin('/views'), { token: ADMIN_TOKEN })).body.data as { uuid: string; entity: string; isDefault: boolean }[];
    viewUuid = views.find((v) => v.entity === 'customers' && v.isDefault)!.uuid;
  });
  afterAll(async () => ws?.close());

  it('lists the columns at positions 0..n-1', async () => {
    expect((await columns()).map((c) => c.position)).toEqual([...(await columns()).keys()]);
  });

  it('moving the last column first shifts every other one down by one', async () => {
    const before = await columns();
    const last = before[before.length - 1]!;
    const res = await move(last, 0);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ uuid: last.uuid, fieldName: last.fieldName, position: 0 });
    const after = await columns();
    expect(after.map((c) => c.fieldName)).toEqual([last.fieldName, ...before.slice(0, -1).map((c) => c.fieldName)]);
    expect(after.map((c) => c.position)).toEqual([...after.keys()]);
  });

  it('moving a column down and back up restores the order; a move to its own place changes nothing', async () => {
    const before = await names();
    const first = (await columns())[0]!;
    expect((await move(first, 2)).status).toBe(200);
    expect(await names()).toEqual([before[1], before[2], before[0], ...before.slice(3)]);
    const moved = (await columns())[2]!;
    expect((await move(moved, 0)).status).toBe(200);
    expect((await move((await columns())[1]!, 1)).status).toBe(200);
    expect(await names()).toEqual(before);
  });

  it('a rename and a move in one PATCH do both', async () => {
    const second = (await columns())[1]!;
    const res = await ws.call('PATCH', `/api/columns/item/${second.uuid}`, { body: { displayName: 'Moved and renamed', position: 0 } });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ displayName: 'Moved and renamed', position: 0 });
    expect((await columns())[0]).toMatchObject({ uuid: second.uuid, displayName: 'Moved and renamed' });
  });

  it.each([[-1], ['last+1'], ['1'], [1.5], [null], [true]])('position %s is 400 VALIDATION_FAILED naming the range, and nothing moves', async (bad) => {
    const before = await columns();
    const position = bad === 'last+1' ? before.length : bad;
    const res = await move(before[0]!, position);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_FAILED');
    expect(res.body.error.message).toContain(`from 0 to ${before.length - 1}`);
    expect(res.body.error.details).toEqual([expect.objectContaining({ field: 'position' })]);
    expect(await columns()).toEqual(before);
  });

  it('a column added goes last; removing one in the middle closes the gap', async () => {
    const added = await ws.call('POST', '/api/columns', { body: { viewUuid, displayName: 'Shout', formula: 'UPPER(name)' } });
    expect(added.status).toBe(201);
    const count = (await columns()).length;
    expect(added.body.data.position).toBe(count - 1);
    expect((await move(added.body.data, 1)).status).toBe(200);
    const del = await ws.call('DELETE', `/api/columns/item/${added.body.data.uuid}`);
    expect(del.status).toBe(204);
    const after = await columns();
    expect(after).toHaveLength(count - 1);
    expect(after.map((c) => c.position)).toEqual([...after.keys()]);
  });

  it('dropping a physical column moved to the middle closes the gap too', async () => {
    const added = await ws.call('POST', '/api/columns', { body: { viewUuid, displayName: 'Nickname', widgetType: 'STRING' } });
    expect(added.status).toBe(201);
    expect((await move(added.body.data, 1)).status).toBe(200);
    const count = (await columns()).length;
    expect((await ws.call('DELETE', `/api/columns/item/${added.body.data.uuid}`)).status).toBe(204);
    const after = await columns();
    expect(after).toHaveLength(count - 1);
    expect(after.map((c) => c.position)).toEqual([...after.keys()]);
  });

  it('computed columns appear in records in their view order', async () => {
    const a = (await ws.call('POST', '/api/columns', { body: { viewUuid, displayName: 'Alpha', formula: 'id + 1' } })).body.data;
    const b = (await ws.call('POST', '/api/columns', { body: { viewUuid, displayName: 'Beta', formula: 'id + 2' } })).body.data;
    const computedKeys = async () => Object.keys((await ws.call('GET', ws.records('/customers?size=1'))).body.data[0]).filter((k) => k === 'alpha' || k === 'beta');
    expect(await computedKeys()).toEqual(['alpha', 'beta']);
    expect((await move(b, 0)).status).toBe(200);
    expect(await computedKeys()).toEqual(['beta', 'alpha']);
    expect(a.position).toBeLessThan(b.position);
  });
});
