/** Spec "Expansion rules" 1-7 and DESIGN §12 "Expansion and fields" (whitelist per hop, depth). */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, startWorkspace, type TestWorkspace } from '../support/harness.ts';
import { ORDER_MODEL } from '../support/fixture-model.ts';
import { expectError, expectList, idsOf, resetEntityOptions } from '../support/http-expect.ts';
import { vendorsToRun } from '../support/vendors.ts';

const vendors = await vendorsToRun();

/**
 * The fixture is only two levels deep (orders → customer → region); two more tables make a chain
 * of four: parcels → shipment → order → customer → region.
 */
async function addDeepChain(ws: TestWorkspace): Promise<void> {
  const t = (name: string) => ws.db.table(name);
  // Table-level FOREIGN KEY: MySQL/MariaDB parse an inline REFERENCES and ignore it.
  await ws.db.query(`CREATE TABLE ${t('shipments')} (id ${ws.db.sql.autoId}, order_id integer NOT NULL, carrier varchar(20) NOT NULL,
    FOREIGN KEY (order_id) REFERENCES ${t('orders')}(id))`);
  await ws.db.query(`CREATE TABLE ${t('parcels')} (id ${ws.db.sql.autoId}, shipment_id integer, weight numeric(6,2),
    FOREIGN KEY (shipment_id) REFERENCES ${t('shipments')}(id))`);
  await ws.db.query(`INSERT INTO ${t('shipments')} (order_id, carrier) VALUES (1, 'DHL'), (4, 'UPS')`);
  await ws.db.query(`INSERT INTO ${t('parcels')} (shipment_id, weight) VALUES (1, 2.5), (2, 1), (NULL, 3)`);
  const sync = await ws.call('POST', ws.admin('/sync'), { token: ADMIN_TOKEN });
  if (sync.status !== 200) throw new Error(`sync failed: ${JSON.stringify(sync.body)}`);
}

describe.each(vendors)('expand on $name', (target) => {
  let ws: TestWorkspace;
  beforeAll(async () => {
    ws = await startWorkspace(target);
    await addDeepChain(ws);
  });
  afterAll(async () => ws?.close());
  // Only the entities a test changed are reset: every options change reloads the workspace model.
  const touched = new Set<string>();
  afterEach(async () => {
    await resetEntityOptions(ws, ADMIN_TOKEN, [...touched]);
    touched.clear();
  });

  const get = async (path: string) => {
    const res = await ws.call('GET', ws.records(path));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data;
  };
  const options = async (entity: string, body: Record<string, unknown>) => {
    touched.add(entity);
    const res = await ws.call('PATCH', ws.admin(`/entities/${entity}`), { token: ADMIN_TOKEN, body });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  };

  it('without expand only the foreign key value is returned', async () => {
    const order = await get('/orders/1');
    expect(order.customerId).toBe(1);
    expect(order).not.toHaveProperty('customer');
    expect(order).not.toHaveProperty('product');
  });

  it('expand=customer adds the related record and the foreign key stays', async () => {
    const order = await get('/orders/5?expand=customer');
    expect(order.customerId).toBe(5);
    expect(order.customer).toEqual(await get('/customers/5'));
    expect(order).not.toHaveProperty('product');
  });

  it('expand applies to every record of a list', async () => {
    const data = expectList(await ws.call('GET', ws.records('/orders?expand=customer&size=1000')));
    expect(data).toHaveLength(ORDER_MODEL.length);
    for (const order of data) expect((order.customer as { id: unknown }).id).toBe(order.customerId);
  });

  it('nested expansion a.b adds the related record of the related record', async () => {
    const order = await get('/orders/2?expand=customer.region');
    expect(order.customer).toMatchObject({ id: 2, regionId: 2, region: await get('/regions/2') });
    expect(order).not.toHaveProperty('product');
  });

  it('flat and nested expansions may be mixed in one expand', async () => {
    const order = await get('/orders/3?expand=product,customer.region');
    expect(order.product).toEqual(await get('/products/3'));
    expect(order.customer.region).toEqual(await get('/regions/3'));
    const repeated = await get('/orders/3?expand=customer&expand=customer.region&expand=product');
    expect(repeated).toEqual(order);
  });

  it('a null foreign key expands to null', async () => {
    const order = await get('/orders/7?expand=product');
    expect(order.productId).toBeNull();
    expect(order.product).toBeNull();
    const nested = await get('/orders/4?expand=customer.region');
    expect(nested.customer.regionId).toBeNull();
    expect(nested.customer.region).toBeNull();
  });

  it('pagination totals stay correct when expanding', async () => {
    const plain = await ws.call('GET', ws.records('/orders?size=7&page=2&filter[status.eq]=new'));
    const expanded = await ws.call('GET', ws.records('/orders?size=7&page=2&filter[status.eq]=new&expand=customer.region,product'));
    expect(expanded.body.meta).toEqual(plain.body.meta);
    expect(idsOf(expanded)).toEqual(idsOf(plain));
    const all = await ws.call('GET', ws.records('/orders?expand=customer.region,product'));
    expect(all.body.meta).toMatchObject({ totalElements: ORDER_MODEL.length, totalPages: Math.ceil(ORDER_MODEL.length / 20) });
  });

  it('a default expansion from the entity options applies when expand is absent', async () => {
    await options('orders', { defaultExpand: ['customer.region'] });
    const order = await get('/orders/1');
    expect(order.customer.region).toEqual(await get('/regions/1'));
    const data = expectList(await ws.call('GET', ws.records('/orders?size=3')));
    expect(data.every((o) => o.customer !== undefined)).toBe(true);
  });

  it('an explicit expand replaces the default expansion', async () => {
    await options('orders', { defaultExpand: ['customer'] });
    const order = await get('/orders/1?expand=product');
    expect(order).not.toHaveProperty('customer');
    expect(order.product).toEqual(await get('/products/1'));
  });

  it('a relationship outside the whitelist is 400 BAD_REQUEST listing the allowed names', async () => {
    await options('orders', { expandable: ['customer'] });
    expectError(await ws.call('GET', ws.records('/orders/1?expand=product')), 400, 'BAD_REQUEST', 'product', 'allowed', 'customer');
    expectError(await ws.call('GET', ws.records('/orders?expand=customer,product')), 400, 'BAD_REQUEST', 'product');
    expect((await get('/orders/1?expand=customer')).customer.id).toBe(1);
  });

  it('an empty whitelist makes nothing expandable', async () => {
    await options('orders', { expandable: [] });
    expectError(await ws.call('GET', ws.records('/orders/1?expand=customer')), 400, 'BAD_REQUEST', 'customer');
    expectError(await ws.call('GET', ws.records('/orders?expand=product')), 400, 'BAD_REQUEST', 'product');
    expect(await get('/orders/1')).not.toHaveProperty('customer');
  });

  it('without a whitelist every relationship is expandable', async () => {
    const order = await get('/orders/1?expand=customer.region,product');
    expect(order.customer.region).not.toBeUndefined();
    expect(order.product).not.toBeUndefined();
  });

  it('each hop is checked against the whitelist of the entity it leaves', async () => {
    await options('orders', { expandable: ['customer'] });
    await options('customers', { expandable: [] });
    expectError(await ws.call('GET', ws.records('/orders/1?expand=customer.region')), 400, 'BAD_REQUEST', 'region');
    await options('customers', { expandable: ['region'] });
    expect((await get('/orders/1?expand=customer.region')).customer.region.id).toBe(1);
    await options('orders', { expandable: ['product'] });
    expectError(await ws.call('GET', ws.records('/orders/1?expand=customer.region')), 400, 'BAD_REQUEST', 'customer');
    // The whitelist of customers governs customers' own endpoint too.
    await options('customers', { expandable: [] });
    expectError(await ws.call('GET', ws.records('/customers/1?expand=region')), 400, 'BAD_REQUEST', 'region');
  });

  it('nesting deeper than maxExpandDepth is 400 naming the maximum and the whole expression', async () => {
    await options('orders', { maxExpandDepth: 1 });
    const res = await ws.call('GET', ws.records('/orders/1?expand=customer.region'));
    expectError(res, 400, 'BAD_REQUEST', 'customer.region');
    expect(res.body.error.message).toMatch(/\b1\b/);
    expectError(await ws.call('GET', ws.records('/orders?expand=product,customer.region')), 400, 'BAD_REQUEST', 'customer.region');
    expect((await get('/orders/1?expand=customer')).customer.id).toBe(1);
  });

  it('the default maximum depth 3 allows a.b.c', async () => {
    const parcel = await get('/parcels/1?expand=shipment.order.customer');
    expect(parcel.shipment).toMatchObject({ id: 1, carrier: 'DHL', order: { id: 1, customer: { id: 1, name: 'Ada' } } });
    expect(parcel.shipment.order.customer).not.toHaveProperty('region');
  });

  it('the default maximum depth 3 refuses a.b.c.d naming the maximum and the whole expression', async () => {
    const res = await ws.call('GET', ws.records('/parcels/1?expand=shipment.order.customer.region'));
    expectError(res, 400, 'BAD_REQUEST', 'shipment.order.customer.region');
    expect(res.body.error.message).toMatch(/\b3\b/);
  });

  it('a raised maxExpandDepth allows four levels', async () => {
    await options('parcels', { maxExpandDepth: 4 });
    const parcel = await get('/parcels/2?expand=shipment.order.customer.region');
    expect(parcel.shipment.order.customer).toMatchObject({ id: 4, region: null });
  });

  it('a null foreign key at the first hop expands to null without nested keys', async () => {
    const parcel = await get('/parcels/3?expand=shipment.order.customer');
    expect(parcel.shipmentId).toBeNull();
    expect(parcel.shipment).toBeNull();
  });

  it('expanding something that is not a relationship is 400 BAD_REQUEST', async () => {
    expectError(await ws.call('GET', ws.records('/orders/1?expand=buyer')), 400, 'BAD_REQUEST', 'buyer');
    expectError(await ws.call('GET', ws.records('/orders/1?expand=status')), 400, 'BAD_REQUEST', 'status');
    expectError(await ws.call('GET', ws.records('/orders/1?expand=customer.vip')), 400, 'BAD_REQUEST', 'vip');
    expectError(await ws.call('GET', ws.records('/orders/1?expand=customer..region')), 400, 'BAD_REQUEST');
  });
});
