/** Spec "Query parameters on read endpoints" (sort), DESIGN §6 and §12 "Sorting". */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorkspace, type TestWorkspace } from '../support/harness.ts';
import { CUSTOMER_MODEL, ORDER_MODEL, sortedIds, type SortKey } from '../support/fixture-model.ts';
import { expectError, expectList, idsOf, query } from '../support/http-expect.ts';
import { vendorsToRun } from '../support/vendors.ts';

const vendors = await vendorsToRun();

const asc = (path: string): SortKey => ({ path, direction: 'asc' });
const desc = (path: string): SortKey => ({ path, direction: 'desc' });

describe.each(vendors)('sort on $name', (target) => {
  let ws: TestWorkspace;
  beforeAll(async () => {
    ws = await startWorkspace(target);
  });
  afterAll(async () => ws?.close());

  const orderIds = async (params: [string, string][]) => idsOf(await ws.call('GET', ws.records(`/orders${query([...params, ['size', '1000']])}`)));

  it('sort=<field>,asc orders ascending', async () => {
    expect(await orderIds([['sort', 'quantity,asc']])).toEqual(sortedIds(ORDER_MODEL, [asc('quantity')]));
  });

  it('sort=<field>,desc orders descending (decimal)', async () => {
    expect(await orderIds([['sort', 'amount,desc']])).toEqual(sortedIds(ORDER_MODEL, [desc('amount')]));
  });

  it('sort on a timestamp field orders by instant', async () => {
    expect(await orderIds([['sort', 'orderedAt,desc']])).toEqual(sortedIds(ORDER_MODEL, [desc('orderedAt')]));
  });

  it('sort without a direction is ascending', async () => {
    expect(await orderIds([['sort', 'quantity']])).toEqual(sortedIds(ORDER_MODEL, [asc('quantity')]));
  });

  it('several keys with repeated sort= parameters apply in order', async () => {
    const expected = sortedIds(ORDER_MODEL, [asc('status'), desc('quantity'), desc('amount')]);
    expect(await orderIds([['sort', 'status,asc'], ['sort', 'quantity,desc'], ['sort', 'amount,desc']])).toEqual(expected);
  });

  it('several keys separated by ; apply in order', async () => {
    const expected = sortedIds(ORDER_MODEL, [desc('status'), asc('quantity')]);
    expect(await orderIds([['sort', 'status,desc;quantity,asc']])).toEqual(expected);
  });

  it('sort by rel.field of a many-to-one relationship works without expanding it', async () => {
    expect(await orderIds([['sort', 'customer.name,asc']])).toEqual(sortedIds(ORDER_MODEL, [asc('customer.name')]));
  });

  it('sort by rel.field works together with the expansion and keeps the output shape', async () => {
    const res = await ws.call('GET', ws.records('/orders?expand=customer&sort=customer.name,desc&size=1000'));
    const data = expectList(res);
    expect(data.map((r) => r.id)).toEqual(sortedIds(ORDER_MODEL, [desc('customer.name')]));
    expect(data.every((r) => typeof (r.customer as { name?: unknown }).name === 'string')).toBe(true);
  });

  it('sort by a two-hop rel.field (customer.region.name) with NULLs first descending', async () => {
    expect(await orderIds([['sort', 'customer.region.name,desc']])).toEqual(sortedIds(ORDER_MODEL, [desc('customer.region.name')]));
  });

  it('NULLs sort last ascending', async () => {
    const ids = await orderIds([['sort', 'productId,asc']]);
    expect(ids).toEqual(sortedIds(ORDER_MODEL, [asc('productId')]));
    const nulls = ORDER_MODEL.filter((o) => o.productId === null).length;
    expect(nulls).toBeGreaterThan(0);
    expect(ids.slice(-nulls)).toEqual(ORDER_MODEL.filter((o) => o.productId === null).map((o) => o.id));
  });

  it('NULLs sort first descending', async () => {
    const ids = await orderIds([['sort', 'productId,desc']]);
    expect(ids).toEqual(sortedIds(ORDER_MODEL, [desc('productId')]));
    expect(ids[0]).toBe(ORDER_MODEL.find((o) => o.productId === null)?.id);
  });

  it('NULLs sort last ascending and first descending on text, next to empty strings', async () => {
    expect(await orderIds([['sort', 'note,asc']])).toEqual(sortedIds(ORDER_MODEL, [asc('note')]));
    expect(await orderIds([['sort', 'note,desc']])).toEqual(sortedIds(ORDER_MODEL, [desc('note')]));
  });

  it('NULLs of a rel.field (missing related row) sort last ascending', async () => {
    expect(await orderIds([['sort', 'product.name,asc']])).toEqual(sortedIds(ORDER_MODEL, [asc('product.name')]));
  });

  it('NULLs on dates and booleans of another entity sort the same way', async () => {
    const res = await ws.call('GET', ws.records('/customers?sort=birthDate,asc&size=1000'));
    expect(idsOf(res)).toEqual(sortedIds(CUSTOMER_MODEL, [asc('birthDate')]));
    const vip = await ws.call('GET', ws.records('/customers?sort=vip,desc;regionId,asc&size=1000'));
    expect(idsOf(vip)).toEqual(sortedIds(CUSTOMER_MODEL, [desc('vip'), asc('regionId')]));
  });

  it('a stable tiebreak on id is appended so equal keys keep id order', async () => {
    const ids = await orderIds([['sort', 'status,desc']]);
    expect(ids).toEqual(sortedIds(ORDER_MODEL, [desc('status')]));
    // Pages of size 1 follow the same order: no overlap, nothing skipped.
    const paged: unknown[] = [];
    for (let page = 0; page < 10; page++) {
      paged.push(...idsOf(await ws.call('GET', ws.records(`/orders?sort=status,desc&size=1&page=${page}`))));
    }
    expect(paged).toEqual(ids.slice(0, 10));
  });

  it('sorting by id itself replaces the tiebreak', async () => {
    expect(await orderIds([['sort', 'id,desc']])).toEqual(ORDER_MODEL.map((o) => o.id).reverse());
  });

  it('an unknown sort field is 400 BAD_REQUEST listing the valid fields', async () => {
    expectError(await ws.call('GET', ws.records('/orders?sort=price,asc')), 400, 'BAD_REQUEST', 'price', 'quantity', 'orderedAt');
  });

  it('an unknown field behind a relationship is 400 naming it', async () => {
    expectError(await ws.call('GET', ws.records('/orders?sort=customer.shoeSize')), 400, 'BAD_REQUEST', 'customer.shoeSize');
    expectError(await ws.call('GET', ws.records('/orders?sort=buyer.name')), 400, 'BAD_REQUEST', 'buyer');
  });

  it('a direction other than asc or desc is 400 BAD_REQUEST', async () => {
    expectError(await ws.call('GET', ws.records('/orders?sort=quantity,up')), 400, 'BAD_REQUEST', 'up');
    expectError(await ws.call('GET', ws.records('/orders?sort=quantity,asc,desc')), 400, 'BAD_REQUEST');
  });
});
