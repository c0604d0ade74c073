/** DESIGN §13 and "§13–14 exact answers", Relations: one-to-many expansion over HTTP. */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, startWorkspace, type TestWorkspace } from '../support/harness.ts';
import { ORDER_MODEL } from '../support/fixture-model.ts';
import { expectError, resetEntityOptions } from '../support/http-expect.ts';
import { vendorsToRun } from '../support/vendors.ts';

const vendors = await vendorsToRun();

type Row = Record<string, unknown>;

const ordersOf = (customerId: number) => ORDER_MODEL.filter((o) => o.customerId === customerId);

describe.each(vendors)('one-to-many expansion on $name', (target) => {
  let ws: TestWorkspace;
  beforeAll(async () => {
    ws = await startWorkspace(target);
  });
  afterAll(async () => ws?.close());
  const touched = new Set<string>();
  afterEach(async () => {
    await resetEntityOptions(ws, ADMIN_TOKEN, [...touched]);
    touched.clear();
  });

  const list = async (path: string) => {
    const res = await ws.call('GET', ws.records(path));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body as { data: Row[]; meta: Row };
  };
  const options = async (entity: string, body: Record<string, unknown>) => {
    touched.add(entity);
    const res = await ws.call('PATCH', ws.admin(`/entities/${entity}`), { token: ADMIN_TOKEN, body });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  };

  it('refuses before it runs a page whose arrays may hold more items than MAX_RESPONSE_ITEMS', async () => {
    const nested = '/customers?size=5&expand=orders,orders.customer,orders.customer.orders&expandSize[orders]=1000&expandSize[orders.customer.orders]=1000';
    const res = await ws.call('GET', ws.records(nested));
    expectError(res, 400, 'BAD_REQUEST');
    expect(res.body.error.message).toMatch(/more than 100000 items/);
    expect(res.body.error.message).toMatch(/MAX_RESPONSE_ITEMS/);
    const export_ = await ws.call('GET', ws.records('/customers?format=ndjson&expand=orders,orders.customer,orders.customer.orders&expandSize[orders]=1000&expandSize[orders.customer.orders]=1000'));
    expectError(export_, 400, 'BAD_REQUEST');
    const legit = await list('/orders?size=1000&expand=customer');
    expect(legit.data.length).toBe(ORDER_MODEL.length);
    const page = await list('/customers?size=1000&expand=orders');
    expect(page.meta.expandSizes).toEqual({ orders: 20 });
    await list('/customers?size=5&expand=orders,orders.customer,orders.customer.orders&expandSize[orders]=100&expandSize[orders.customer.orders]=100');
  });

  it('GET /customers/2?expand=orders gives the orders as an array, by id ascending', async () => {
    const res = await ws.call('GET', ws.records('/customers/2?expand=orders'));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const orders = res.body.data.orders as Row[];
    expect(orders.map((o) => o.id)).toEqual(ordersOf(2).map((o) => o.id));
    const plain = await ws.call('GET', ws.records(`/orders/${orders[0]?.id}`));
    expect(orders[0]).toEqual(plain.body.data);
  });

  it('every customer of a list page gets its array; meta.expandSizes lists the default limit', async () => {
    const body = await list('/customers?expand=orders&sort=id,asc&size=5');
    expect(body.meta.expandSizes).toEqual({ orders: 20 });
    expect(body.meta.totalElements).toBe(12);
    for (const customer of body.data) {
      expect((customer.orders as Row[]).map((o) => o.id)).toEqual(ordersOf(customer.id as number).map((o) => o.id));
    }
  });

  it('without one-to-many expansion meta has no expandSizes', async () => {
    const body = await list('/orders?expand=customer&size=2');
    expect(body.meta).not.toHaveProperty('expandSizes');
  });

  it('expandSize, expandSort and expandWhere shape each array; the parent stays', async () => {
    const body = await list('/customers?expand=orders&expandSize[orders]=2&expandSort[orders]=amount,desc&expandWhere[orders]=status%20%3D%20%27paid%27&sort=id');
    expect(body.meta.expandSizes).toEqual({ orders: 2 });
    expect(body.data).toHaveLength(12);
    for (const customer of body.data) {
      const expected = ordersOf(customer.id as number)
        .filter((o) => o.status === 'paid')
        .sort((a, b) => Number(b.amount) - Number(a.amount) || Number(a.id) - Number(b.id))
        .slice(0, 2);
      expect((customer.orders as Row[]).map((o) => o.id)).toEqual(expected.map((o) => o.id));
    }
  });

  it('a chain through a junction: expand=orders,orders.product', async () => {
    const { data } = await list('/customers?expand=orders,orders.product&sort=id&size=3');
    const orders = data.flatMap((customer) => customer.orders as Row[]);
    // The loop below must see products, or it proves nothing.
    expect(orders.filter((order) => order.productId !== null).length).toBeGreaterThan(0);
    for (const order of orders) {
      if (order.productId === null) expect(order.product).toBeNull();
      else expect((order.product as Row).id).toBe(order.productId);
    }
  });

  it('nested arrays use the path: regions → customers → orders', async () => {
    const body = await list('/regions?expand=customers,customers.orders&expandSize[customers.orders]=1&sort=id');
    expect(body.meta.expandSizes).toEqual({ customers: 20, 'customers.orders': 1 });
    const north = body.data.find((r) => r.id === 1) as Row;
    const customers = north.customers as Row[];
    expect(customers.length).toBeGreaterThan(0);
    for (const c of customers) {
      expect(c.regionId).toBe(1);
      expect((c.orders as Row[]).map((o) => o.id)).toEqual(ordersOf(c.id as number).slice(0, 1).map((o) => o.id));
    }
  });

  it('many-to-one then one-to-many: orders?expand=customer,customer.orders', async () => {
    const { data } = await list('/orders?expand=customer,customer.orders&expandSize[customer.orders]=3&sort=id&size=4');
    for (const order of data) {
      const customer = order.customer as Row;
      expect((customer.orders as Row[]).map((o) => o.id)).toEqual(ordersOf(customer.id as number).slice(0, 3).map((o) => o.id));
    }
  });

  it('fields narrows array items to exactly the named fields', async () => {
    const { data } = await list('/customers?expand=orders&fields=id,name,orders.amount&sort=id&size=2');
    expect(Object.keys(data[0] ?? {})).toEqual(['id', 'name', 'orders']);
    for (const order of (data[0]?.orders as Row[])) expect(Object.keys(order)).toEqual(['amount']);
  });

  it('fields naming orders.* without expand=orders is 400 naming the expand', async () => {
    expectError(await ws.call('GET', ws.records('/customers?fields=id,orders.amount')), 400, 'BAD_REQUEST', 'expand=orders');
  });

  it('a parent without orders gets []', async () => {
    const { data } = await list('/customers?expand=orders&expandWhere[orders]=amount%20%3E%20100000&size=3');
    for (const customer of data) expect(customer.orders).toEqual([]);
  });

  it('filter[orders.status.eq] keeps parents having such an order; their arrays keep every order', async () => {
    const { data } = await list('/customers?filter[orders.quantity.eq]=5&expand=orders&sort=id&size=50');
    const expected = [...new Set(ORDER_MODEL.filter((o) => o.quantity === 5).map((o) => o.customerId))].sort((a, b) => Number(a) - Number(b));
    expect(data.map((c) => c.id)).toEqual(expected);
    for (const customer of data) expect((customer.orders as Row[]).length).toBe(ordersOf(customer.id as number).length);
  });

  it('bad expandSize values are 400', async () => {
    for (const bad of ['0', '1001', '-1', '1.5', '', 'x']) {
      expectError(await ws.call('GET', ws.records(`/customers?expand=orders&expandSize[orders]=${bad}`)), 400, 'BAD_REQUEST', 'expandSize');
    }
  });

  it('expandSize for a path that is not an expanded array is 400', async () => {
    expectError(await ws.call('GET', ws.records('/customers?expandSize[orders]=3')), 400, 'BAD_REQUEST', 'expandSize[orders]');
    expectError(await ws.call('GET', ws.records('/orders?expand=customer&expandSize[customer]=3')), 400, 'BAD_REQUEST', 'expandSize[customer]');
  });

  it('a bad expandSort is 400 naming expandSort[path]', async () => {
    expectError(await ws.call('GET', ws.records('/customers?expand=orders&expandSort[orders]=nope,asc')), 400, 'BAD_REQUEST', 'expandSort[orders]');
  });

  it('sorting by a one-to-many path is 400', async () => {
    expectError(await ws.call('GET', ws.records('/customers?sort=orders.amount,desc')), 400, 'BAD_REQUEST', 'orders');
  });

  it('a bad expandWhere is 400 INVALID_FORMULA with a position', async () => {
    const res = await ws.call('GET', ws.records('/customers?expand=orders&expandWhere[orders]=nope%20%3D%201'));
    expectError(res, 400, 'INVALID_FORMULA');
    expect(res.body.error.details.position).toMatchObject({ offset: 0, line: 1, column: 1 });
  });

  it('an expandWhere that is not boolean, or too long, names expandWhere[path]', async () => {
    expectError(await ws.call('GET', ws.records('/customers?expand=orders&expandWhere[orders]=amount')), 400, 'INVALID_FORMULA', 'expandWhere[orders]');
    const long = `status = '${'x'.repeat(4100)}'`;
    expectError(await ws.call('GET', ws.records(`/customers?expand=orders&fields=id&expandWhere[orders]=${encodeURIComponent(long)}`)), 400, 'INVALID_FORMULA', 'expandWhere[orders]');
  });

  it('a bad expandSort or expandWhere is 400 even when fields leaves the array out', async () => {
    const bad = '/customers?expand=orders&fields=id';
    expectError(await ws.call('GET', ws.records(`${bad}&expandSort[orders]=nope`)), 400, 'BAD_REQUEST', 'nope');
    expectError(await ws.call('GET', ws.records(`${bad}&expandWhere[orders]=nope%20%3D%201`)), 400, 'INVALID_FORMULA');
    expectError(await ws.call('GET', ws.records(`${bad}&expandWhere[orders]=`)), 400, 'INVALID_FORMULA');
    const nested = '/orders?expand=customer,customer.orders&fields=id';
    expectError(await ws.call('GET', ws.records(`${nested}&expandSort[customer.orders]=nope`)), 400, 'BAD_REQUEST', 'nope');
    expectError(await ws.call('GET', ws.records(`${nested}&expandWhere[customer.orders]=amount`)), 400, 'INVALID_FORMULA');
  });

  it('the whitelist and the maximum depth apply per hop', async () => {
    await options('customers', { expandable: ['region'] });
    expectError(await ws.call('GET', ws.records('/customers?expand=orders')), 400, 'BAD_REQUEST', 'orders');
    await options('customers', { expandable: null, maxExpandDepth: 1 });
    expectError(await ws.call('GET', ws.records('/customers?expand=orders.product')), 400, 'BAD_REQUEST', 'depth');
  });

  it('expandable and defaultExpand accept one-to-many names', async () => {
    await options('customers', { expandable: ['orders'], defaultExpand: ['orders'] });
    const body = await list('/customers?sort=id&size=2');
    expect(body.meta.expandSizes).toEqual({ orders: 20 });
    expect((body.data[0]?.orders as Row[]).map((o) => o.id)).toEqual(ordersOf(1).map((o) => o.id));
    expectError(await ws.call('GET', ws.records('/customers?expand=region')), 400, 'BAD_REQUEST', 'region');
    await options('customers', { expandable: null, defaultExpand: ['orders.product'] });
    const deep = await list('/customers/1');
    expect((deep.data as unknown as Row).orders).toBeDefined();
  });

  it('cursor paging carries the arrays and expandSizes', async () => {
    const first = await list('/customers?expand=orders&expandSize[orders]=1&paging=cursor&size=5');
    expect(first.meta.expandSizes).toEqual({ orders: 1 });
    const next = await list(`/customers?expand=orders&expandSize[orders]=2&after=${first.meta.nextCursor as string}&size=5`);
    expect(next.data[0]?.id).toBe(6);
    expect((next.data[0]?.orders as Row[]).length).toBe(2);
  });
});
