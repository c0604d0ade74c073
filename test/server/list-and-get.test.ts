/**
 * Spec "Response envelopes", "Query parameters on read endpoints" (page, size), DESIGN §6 (count)
 * and §12 (bad input): the list and get endpoints.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORDERS } from '../support/fixture.ts';
import { startWorkspace, type TestWorkspace } from '../support/harness.ts';
import { expectError, expectList, idsOf } from '../support/http-expect.ts';
import { vendorsToRun } from '../support/vendors.ts';

const vendors = await vendorsToRun();
const ORDER_COUNT = ORDERS.length;
const ALL_IDS = ORDERS.map((o) => o.id);

describe.each(vendors)('list and get on $name', (target) => {
  let ws: TestWorkspace;
  beforeAll(async () => {
    ws = await startWorkspace(target);
  });
  afterAll(async () => ws?.close());

  describe('list envelope and meta', () => {
    it('a list answers {data, meta} with page, size, totalElements, totalPages and countMode', async () => {
      const res = await ws.call('GET', ws.records('/orders?size=10&page=1'));
      const data = expectList(res);
      expect(res.body.meta).toEqual({ page: 1, size: 10, totalElements: ORDER_COUNT, totalPages: Math.ceil(ORDER_COUNT / 10), countMode: 'exact' });
      expect(data.map((r) => r.id)).toEqual(ALL_IDS.slice(10, 20));
    });

    it('page defaults to 0 and size to 20', async () => {
      const res = await ws.call('GET', ws.records('/orders'));
      expect(idsOf(res)).toEqual(ALL_IDS.slice(0, 20));
      expect(res.body.meta).toMatchObject({ page: 0, size: 20, totalElements: ORDER_COUNT, totalPages: 3 });
    });

    it('the last page holds the remainder', async () => {
      const res = await ws.call('GET', ws.records('/orders?page=2'));
      expect(idsOf(res)).toEqual(ALL_IDS.slice(40));
      expect(res.body.meta).toMatchObject({ page: 2, size: 20, totalElements: ORDER_COUNT, totalPages: 3 });
    });

    it('a page beyond the last gives an empty data array and the real totals', async () => {
      for (const page of [3, 50, 999_999_999]) {
        const res = await ws.call('GET', ws.records(`/orders?page=${page}`));
        expect(idsOf(res)).toEqual([]);
        expect(res.body.meta).toMatchObject({ page, size: 20, totalElements: ORDER_COUNT, totalPages: 3 });
      }
    });

    it('an empty result has totalElements 0 and totalPages 0', async () => {
      const res = await ws.call('GET', ws.records('/orders?filter[id.gt]=100000'));
      expect(idsOf(res)).toEqual([]);
      expect(res.body.meta).toMatchObject({ page: 0, totalElements: 0, totalPages: 0 });
    });
  });

  describe('size and page limits', () => {
    it('size accepts 1 and 1000', async () => {
      const one = await ws.call('GET', ws.records('/orders?size=1'));
      expect(idsOf(one)).toEqual([1]);
      expect(one.body.meta).toMatchObject({ size: 1, totalPages: ORDER_COUNT });
      const max = await ws.call('GET', ws.records('/orders?size=1000'));
      expect(idsOf(max)).toEqual(ALL_IDS);
      expect(max.body.meta).toMatchObject({ size: 1000, totalPages: 1 });
    });

    it.each([
      ['size=0', 'size'],
      ['size=1001', 'size'],
      ['size=-1', 'size'],
      ['size=1.5', 'size'],
      ['size=abc', 'size'],
      ['size=', 'size'],
      ['page=-1', 'page'],
      ['page=1.0', 'page'],
      ['page=x', 'page'],
      ['page=1&page=2', 'page'],
    ])('%s is 400 BAD_REQUEST in the error envelope naming the parameter', async (params, name) => {
      expectError(await ws.call('GET', ws.records(`/orders?${params}`)), 400, 'BAD_REQUEST', name);
    });
  });

  describe('count modes', () => {
    it('count=exact counts the filtered rows', async () => {
      const res = await ws.call('GET', ws.records('/orders?count=exact&size=5&filter[status.eq]=paid'));
      const paid = ORDERS.filter((o) => o.status === 'paid').length;
      expect(res.body.meta).toEqual({ page: 0, size: 5, totalElements: paid, totalPages: Math.ceil(paid / 5), countMode: 'exact' });
    });

    it('count=none gives null totalElements and totalPages and countMode none', async () => {
      const res = await ws.call('GET', ws.records('/orders?count=none&size=5'));
      expect(idsOf(res)).toEqual(ALL_IDS.slice(0, 5));
      expect(res.body.meta).toEqual({ page: 0, size: 5, totalElements: null, totalPages: null, countMode: 'none' });
    });

    it('count=estimated below the threshold counts exactly and says countMode exact', async () => {
      const res = await ws.call('GET', ws.records('/orders?count=estimated&size=7&filter[quantity.gte]=3'));
      const matching = ORDERS.filter((o) => Number(o.quantity) >= 3).length;
      expect(res.body.meta).toEqual({ page: 0, size: 7, totalElements: matching, totalPages: Math.ceil(matching / 7), countMode: 'exact' });
    });

    it('an unknown count mode is 400 BAD_REQUEST', async () => {
      expectError(await ws.call('GET', ws.records('/orders?count=fast')), 400, 'BAD_REQUEST', 'count');
    });
  });

  describe('get', () => {
    it('get answers 200 {data: record} with every field of the entity', async () => {
      const res = await ws.call('GET', ws.records('/orders/2'));
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(['data']);
      expect(res.body.data).toMatchObject({ id: 2, customerId: 2, productId: 2, quantity: 2, amount: 13.07, status: 'paid', note: '', orderedAt: '2026-02-11T01:30:00.000Z' });
      expect(Object.keys(res.body.data).sort()).toEqual(['amount', 'createdAt', 'customerId', 'id', 'note', 'orderedAt', 'productId', 'quantity', 'status', 'updatedAt']);
    });

    it('get and list return the same record', async () => {
      const one = await ws.call('GET', ws.records('/orders/17'));
      const list = await ws.call('GET', ws.records('/orders?filter[id.eq]=17'));
      expect(expectList(list)).toEqual([one.body.data]);
    });

    it('values follow DESIGN §4: decimals as numbers, booleans, dates YYYY-MM-DD, timestamps ISO UTC with ms', async () => {
      const customer = (await ws.call('GET', ws.records('/customers/2'))).body.data;
      expect(customer).toMatchObject({ vip: false, birthDate: '1971-02-15', regionId: 2 });
      expect(customer.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      const product = (await ws.call('GET', ws.records('/products/3'))).body.data;
      expect(product).toEqual({ id: 3, sku: 'MN-03', name: 'Monitor', price: 229 });
    });

    it('get of a missing id is 404 NOT_FOUND', async () => {
      expectError(await ws.call('GET', ws.records('/orders/9999')), 404, 'NOT_FOUND');
    });

    it.each(['abc', '1.5', '99999999999', '1e2', '%20'])('get of an id that cannot exist for the key type (%s) is 404', async (id) => {
      expectError(await ws.call('GET', ws.records(`/orders/${id}`)), 404, 'NOT_FOUND');
    });

    it('an unknown entity is 404 NOT_FOUND', async () => {
      expectError(await ws.call('GET', ws.records('/nothing')), 404, 'NOT_FOUND');
      expectError(await ws.call('GET', ws.records('/nothing/1')), 404, 'NOT_FOUND');
    });

    it('a method the route does not have is 405 METHOD_NOT_ALLOWED with Allow, in the envelope', async () => {
      const res = await ws.call('PATCH', ws.records('/orders/1'), { body: {} });
      expect(res.status).toBe(405);
      expect(res.body.error.code).toBe('METHOD_NOT_ALLOWED');
      expect(res.headers.get('allow')).toContain('GET');
      expect(res.body.error.message).toContain('allowed: ');
    });

    it('a method the service does not implement is 501 NOT_IMPLEMENTED in the envelope', async () => {
      const res = await ws.call('LOCK', ws.records('/orders/1'));
      expect(res.status).toBe(501);
      expect(res.body.error.code).toBe('NOT_IMPLEMENTED');
    });
  });
});
