import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, startWorkspace, type TestWorkspace } from '../support/harness.ts';
import { vendorsToRun } from '../support/vendors.ts';

const vendors = await vendorsToRun();

interface View {
  uuid: string;
  slug: string;
  entity: string;
  isDefault: boolean;
}

describe.each(vendors)('computed columns on $name', (target) => {
  let ws: TestWorkspace;
  let orders: View;
  const addColumn = (body: Record<string, unknown>) => ws.call('POST', '/api/columns', { body: { viewUuid: orders.uuid, ...body } });

  async function views(): Promise<View[]> {
    return (await ws.call('GET', ws.admin('/views'), { token: ADMIN_TOKEN })).body.data;
  }

  beforeAll(async () => {
    ws = await startWorkspace(target);
    orders = (await views()).find((v) => v.entity === 'orders' && v.isDefault) as View;
  });
  afterAll(async () => ws?.close());

  it('creating a computed column answers 201 with the column record; its field name is the camelCase display name', async () => {
    const res = await addColumn({ displayName: 'Total Price', formula: 'amount * quantity', widgetType: 'DECIMAL' });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ viewUuid: orders.uuid, kind: 'COMPUTED', fieldName: 'totalPrice', displayName: 'Total Price', formula: 'amount * quantity', widgetType: 'DECIMAL' });
    expect(typeof res.body.data.uuid).toBe('string');
  });

  it('the computed value appears in list and get responses of the default view', async () => {
    const list = await ws.call('GET', ws.records('/orders?sort=id,asc&size=3'));
    for (const row of list.body.data) expect(row.totalPrice).toBeCloseTo(row.amount * row.quantity, 9);
    const one = await ws.call('GET', ws.records('/orders/2'));
    expect(one.body.data.totalPrice).toBeCloseTo(one.body.data.amount * one.body.data.quantity, 9);
  });

  it('fields narrows computed columns too, and expansion keeps them', async () => {
    const narrowed = await ws.call('GET', ws.records('/orders/2?fields=id'));
    expect(Object.keys(narrowed.body.data)).toEqual(['id']);
    const kept = await ws.call('GET', ws.records('/orders/2?fields=id,totalPrice,customer.name&expand=customer'));
    expect(Object.keys(kept.body.data).sort()).toEqual(['customer', 'id', 'totalPrice']);
  });

  it('filters and sorts on a computed column like a regular one', async () => {
    const res = await ws.call('GET', ws.records('/orders?filter[totalPrice.gte]=300&sort=totalPrice,desc&size=1000'));
    expect(res.status).toBe(200);
    const totals = res.body.data.map((r: { totalPrice: number }) => r.totalPrice);
    expect(totals.length).toBeGreaterThan(0);
    expect(totals.every((t: number) => t >= 300)).toBe(true);
    expect([...totals].sort((a, b) => b - a)).toEqual(totals);
    const all = await ws.call('GET', ws.records('/orders?size=1000'));
    expect(res.body.meta.totalElements).toBe(all.body.data.filter((r: { totalPrice: number }) => r.totalPrice >= 300).length);
  });

  it('a computed column is read-only', async () => {
    const res = await ws.call('PUT', ws.records('/orders/2'), { body: { totalPrice: 5 } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_FAILED');
    expect(res.body.error.details[0]).toMatchObject({ field: 'totalPrice', rule: 'readOnly' });
  });

  it('formulas may read fields of a related record (rel.field)', async () => {
    const res = await addColumn({ displayName: 'Buyer', formula: "CONCAT(UPPER(customer.name), ' / ', status)" });
    expect(res.status).toBe(201);
    const one = await ws.call('GET', ws.records('/orders/1?expand=customer'));
    expect(one.body.data.buyer).toBe(`${one.body.data.customer.name.toUpperCase()} / ${one.body.data.status}`);
  });

  it('invalid formulas are refused at save time with INVALID_FORMULA and a position', async () => {
    const statement = await addColumn({ displayName: 'Bad', formula: 'amount; DROP TABLE orders' });
    expect(statement.status).toBe(400);
    expect(statement.body.error.code).toBe('INVALID_FORMULA');
    expect(statement.body.error.details.position).toMatchObject({ line: 1 });
    const unknown = await addColumn({ displayName: 'Bad', formula: 'nosuchcolumn + 1' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.code).toBe('INVALID_FORMULA');
    const fn = await addColumn({ displayName: 'Bad', formula: 'pg_sleep(1)' });
    expect(fn.status).toBe(400);
  });

  it('a field name already used in the view is 409', async () => {
    const res = await addColumn({ displayName: 'Amount', formula: 'amount + 1' });
    expect(res.status).toBe(409);
  });

  it('PATCH and DELETE take effect on the next query and never change the table', async () => {
    const tableColumns = async (): Promise<string[]> => Object.keys((await ws.db.query(`SELECT * FROM ${ws.db.table('orders')} WHERE id = 2`))[0] ?? {}).sort();
    const columnsBefore = await tableColumns();
    expect(columnsBefore.length).toBeGreaterThan(0);
    const created = await addColumn({ displayName: 'Doubled', formula: 'amount * 2' });
    const uuid = created.body.data.uuid;
    const patched = await ws.call('PATCH', `/api/columns/item/${uuid}`, { body: { formula: 'amount * 3', displayName: 'Tripled' } });
    expect(patched.status).toBe(200);
    expect(patched.body.data).toMatchObject({ fieldName: 'doubled', displayName: 'Tripled', formula: 'amount * 3' });
    const one = await ws.call('GET', ws.records('/orders/2'));
    expect(one.body.data.doubled).toBeCloseTo(one.body.data.amount * 3, 9);
    expect((await ws.call('DELETE', `/api/columns/item/${uuid}`)).status).toBe(204);
    const after = await ws.call('GET', ws.records('/orders/2'));
    expect(after.body.data).not.toHaveProperty('doubled');
    expect(await tableColumns()).toEqual(columnsBefore);
  });

  it('computed columns are per view: the view data query shows a view\'s own columns', async () => {
    const created = await ws.call('POST', ws.admin('/views'), { body: { entity: 'orders', name: 'Big orders' }, token: ADMIN_TOKEN });
    expect(created.status).toBe(201);
    const view = created.body.data as View;
    const col = await ws.call('POST', '/api/columns', { body: { viewUuid: view.uuid, displayName: 'Half', formula: 'amount / 2' } });
    expect(col.status).toBe(201);
    const data = await ws.call('GET', `/api/data/${view.slug}?filter[half.gt]=50&sort=half,asc`);
    expect(data.status).toBe(200);
    expect(data.body.data.length).toBeGreaterThan(0);
    expect(data.body.data.every((r: { half: number; amount: number }) => r.half > 50 && Math.abs(r.half - r.amount / 2) < 1e-9)).toBe(true);
    const record = await ws.call('GET', ws.records('/orders/2'));
    expect(record.body.data).not.toHaveProperty('half');
  });

  it('a re-sync that removes a column a formula uses marks the column broken and keeps the view working', async () => {
    await ws.db.query(`ALTER TABLE ${ws.db.table('orders')} ADD COLUMN discount numeric(5,2)`);
    let sync = await ws.call('POST', ws.admin('/sync'), { token: ADMIN_TOKEN });
    expect(sync.status).toBe(200);
    const col = await addColumn({ displayName: 'Net', formula: 'amount - COALESCE(discount, 0)' });
    expect(col.status).toBe(201);
    await ws.db.query(`ALTER TABLE ${ws.db.table('orders')} DROP COLUMN discount`);
    sync = await ws.call('POST', ws.admin('/sync'), { token: ADMIN_TOKEN });
    expect(sync.status).toBe(200);
    expect(sync.body.data.brokenColumns.map((c: { fieldName: string }) => c.fieldName)).toEqual(['net']);
    const list = await ws.call('GET', ws.records('/orders?size=2'));
    expect(list.status).toBe(200);
    expect(list.body.data[0].net).toBeNull();
  });

  it('a display group is a column of kind GROUP with members', async () => {
    const res = await addColumn({ kind: 'GROUP', displayName: 'Money', members: ['amount', 'quantity'] });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ kind: 'GROUP', members: ['amount', 'quantity'] });
    const columns = await ws.call('GET', `/api/views/${orders.uuid}/columns`);
    expect(columns.body.data.some((c: { kind: string }) => c.kind === 'GROUP')).toBe(true);
  });
});
