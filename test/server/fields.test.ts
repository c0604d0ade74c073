/** Spec "Field selection rules" 1-5 and DESIGN §12 (fields needing an expand). */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, startWorkspace, type TestWorkspace } from '../support/harness.ts';
import { ORDER_MODEL, sortedIds } from '../support/fixture-model.ts';
import { expectError, expectList, resetEntityOptions } from '../support/http-expect.ts';
import { vendorsToRun } from '../support/vendors.ts';

const vendors = await vendorsToRun();

const keys = (record: unknown): string[] => Object.keys(record as object).sort();

describe.each(vendors)('fields on $name', (target) => {
  let ws: TestWorkspace;
  beforeAll(async () => {
    ws = await startWorkspace(target);
  });
  afterAll(async () => ws?.close());
  let touched = false;
  afterEach(async () => {
    if (touched) await resetEntityOptions(ws, ADMIN_TOKEN, ['orders']);
    touched = false;
  });

  const get = async (path: string) => {
    const res = await ws.call('GET', ws.records(path));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data;
  };
  const options = async (body: Record<string, unknown>) => {
    touched = true;
    const res = await ws.call('PATCH', ws.admin('/entities/orders'), { token: ADMIN_TOKEN, body });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  };

  it('unlisted fields are omitted', async () => {
    const order = await get('/orders/2?fields=id,status,amount');
    expect(order).toEqual({ id: 2, status: 'paid', amount: 13.07 });
    const data = expectList(await ws.call('GET', ws.records('/orders?fields=note&size=3')));
    expect(data).toEqual([{ note: null }, { note: '' }, { note: 'note 2' }]);
  });

  it('fields=<relationship>.<field> with expand returns only the named fields of the related record', async () => {
    const order = await get('/orders/1?fields=customer.name&expand=customer');
    expect(order).toEqual({ customer: { name: 'Ada' } });
  });

  it('fields mixing top-level and related fields keep exactly those', async () => {
    const order = await get('/orders/1?fields=id,customerId,customer.name,customer.email&expand=customer');
    expect(order).toEqual({ id: 1, customerId: 1, customer: { name: 'Ada', email: 'user1@example.com' } });
  });

  it('fields reach into nested expansions', async () => {
    const order = await get('/orders/2?fields=id,customer.name,customer.region.name&expand=customer.region');
    expect(order).toEqual({ id: 2, customer: { name: 'Grace', region: { name: 'South' } } });
  });

  it('naming a relationship without a dot returns all of its fields', async () => {
    const order = await get('/orders/1?fields=id,customer&expand=customer');
    expect(keys(order)).toEqual(['customer', 'id']);
    expect(order.customer).toEqual(await get('/customers/1'));
  });

  it('an expanded relationship that fields does not mention is left out', async () => {
    const order = await get('/orders/1?fields=id,product.name&expand=customer,product');
    expect(order).toEqual({ id: 1, product: { name: 'Keyboard' } });
  });

  it('fields=<relationship>.<field> without the expand is 400 naming the expand it needs', async () => {
    expectError(await ws.call('GET', ws.records('/orders/1?fields=customer.name')), 400, 'BAD_REQUEST', 'expand=customer');
    expectError(await ws.call('GET', ws.records('/orders?fields=id,customer.region.name&expand=customer')), 400, 'BAD_REQUEST', 'expand=customer.region');
  });

  it('a bare relationship in fields without the expand is 400 like rel.field', async () => {
    expectError(await ws.call('GET', ws.records('/orders/1?fields=customer')), 400, 'BAD_REQUEST', 'expand=customer');
  });

  it('a default expansion satisfies the expand that fields needs', async () => {
    await options({ defaultExpand: ['customer'] });
    expect(await get('/orders/3?fields=customer.name')).toEqual({ customer: { name: 'Alan' } });
  });

  it('the admin-configured default field selection applies when fields is absent', async () => {
    await options({ defaultFields: ['id', 'status'] });
    expect(await get('/orders/2')).toEqual({ id: 2, status: 'paid' });
    const data = expectList(await ws.call('GET', ws.records('/orders?size=2')));
    expect(data).toEqual([{ id: 1, status: 'new' }, { id: 2, status: 'paid' }]);
  });

  it('an explicit fields replaces the default selection', async () => {
    await options({ defaultFields: ['id', 'status'] });
    expect(await get('/orders/2?fields=quantity')).toEqual({ quantity: 2 });
  });

  it('default fields may name related fields of a default expansion', async () => {
    await options({ defaultExpand: ['customer'], defaultFields: ['id', 'customer.name'] });
    expect(await get('/orders/1')).toEqual({ id: 1, customer: { name: 'Ada' } });
  });

  it('an explicit expand without the default one drops the default fields that needed it', async () => {
    await options({ defaultExpand: ['customer'], defaultFields: ['id', 'customer.name'] });
    expect(await get('/orders/1?expand=product')).toEqual({ id: 1 });
    expect(await get('/orders/1?expand=product&fields=id,product.name')).toEqual({ id: 1, product: { name: 'Keyboard' } });
  });

  it('fields combines with expand, sort, page and size in one request', async () => {
    const res = await ws.call('GET', ws.records('/orders?fields=id,customer.name&expand=customer&sort=customer.name,desc&page=1&size=5'));
    const data = expectList(res);
    const expected = sortedIds(ORDER_MODEL, [{ path: 'customer.name', direction: 'desc' }]).slice(5, 10);
    expect(data.map((r) => r.id)).toEqual(expected);
    const names = new Map(ORDER_MODEL.map((o) => [o.id, o['customer.name']]));
    expect(data).toEqual(expected.map((id) => ({ id, customer: { name: names.get(id) } })));
    expect(res.body.meta).toMatchObject({ page: 1, size: 5, totalElements: ORDER_MODEL.length });
  });

  it('fields does not stop sorting or filtering by unlisted fields', async () => {
    const data = expectList(await ws.call('GET', ws.records('/orders?fields=id&sort=amount,desc&filter[status.eq]=paid&size=3')));
    const expected = sortedIds(ORDER_MODEL.filter((o) => o.status === 'paid'), [{ path: 'amount', direction: 'desc' }]).slice(0, 3);
    expect(data).toEqual(expected.map((id) => ({ id })));
  });

  it('an unknown field is 400 BAD_REQUEST listing the valid fields', async () => {
    expectError(await ws.call('GET', ws.records('/orders/1?fields=id,colour')), 400, 'BAD_REQUEST', 'colour', 'status', 'customerId');
    expectError(await ws.call('GET', ws.records('/orders?fields=customer.colour&expand=customer')), 400, 'BAD_REQUEST', 'customer.colour');
    expectError(await ws.call('GET', ws.records('/orders?fields=status.length')), 400, 'BAD_REQUEST', 'status');
  });

  it('an empty entry in fields is 400 BAD_REQUEST', async () => {
    expectError(await ws.call('GET', ws.records('/orders?fields=id,,status')), 400, 'BAD_REQUEST', 'fields');
    expectError(await ws.call('GET', ws.records('/orders?fields=')), 400, 'BAD_REQUEST', 'fields');
  });
});
