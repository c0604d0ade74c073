/**
 * DESIGN §14 "Aggregates" and "§13–14 exact answers" (Aggregates): `GET …/{entity}/aggregate` and
 * `GET /api/data/{viewSlug}/aggregate` over real HTTP on every vendor, answers checked against the
 * fixture model and against SQL run directly on the workspace database.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, startWorkspace, type ApiResponse, type TestWorkspace } from '../support/harness.ts';
import { CUSTOMER_MODEL, ORDER_MODEL, type ModelRow } from '../support/fixture-model.ts';
import { ORDERS } from '../support/fixture.ts';
import { expectError, query } from '../support/http-expect.ts';
import { vendorsToRun } from '../support/vendors.ts';

const vendors = await vendorsToRun();

/** Exact cents of each order's decimal amount: sums and means compared without float drift. */
const CENTS = new Map(ORDERS.map((o) => [o.id, Math.round(Number(o.amount) * 100)]));
const cents = (r: ModelRow): number => CENTS.get(r.id as number) ?? NaN;
const iso = (ms: number): string => new Date(ms).toISOString();

function groupsOf(rows: readonly ModelRow[], key: string): Map<unknown, ModelRow[]> {
  const groups = new Map<unknown, ModelRow[]>();
  for (const row of rows) groups.set(row[key] ?? null, [...(groups.get(row[key] ?? null) ?? []), row]);
  return groups;
}

function expectClose(actual: unknown, exact: number): void {
  expect(typeof actual).toBe('number');
  expect(Math.abs((actual as number) - exact) / Math.abs(exact)).toBeLessThanOrEqual(1e-12);
}

describe.each(vendors)('aggregates on $name', (target) => {
  let ws: TestWorkspace;
  beforeAll(async () => {
    ws = await startWorkspace(target);
  });
  afterAll(async () => ws?.close());

  const aggregate = (params: [string, string][], entity = 'orders'): Promise<ApiResponse> => ws.call('GET', ws.records(`/${entity}/aggregate${query(params)}`));
  const ok = async (params: [string, string][], entity = 'orders'): Promise<ApiResponse> => {
    const res = await aggregate(params, entity);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res;
  };

  it('groups by a field with every metric family, keyed as requested', async () => {
    const res = await ok([['groupBy', 'status'], ['metrics', 'count,countDistinct:customerId,sum:amount,avg:amount,min:orderedAt,max:orderedAt']]);
    const groups = groupsOf(ORDER_MODEL, 'status');
    expect(res.body.meta).toEqual({ page: 0, size: 20, totalElements: groups.size });
    expect(res.body.data.map((r: { group: unknown }) => r.group)).toEqual([{ status: 'new' }, { status: 'paid' }, { status: 'shipped' }]);
    for (const row of res.body.data) {
      const rows = groups.get(row.group.status) ?? [];
      const sum = rows.reduce((s, r) => s + cents(r), 0);
      const times = rows.map((r) => r.orderedAt as number);
      expect(Object.keys(row).sort()).toEqual(['avg', 'count', 'countDistinct', 'group', 'max', 'min', 'sum']);
      expect(row.count).toBe(rows.length);
      expect(row.countDistinct).toEqual({ customerId: new Set(rows.map((r) => r.customerId)).size });
      expect(row.sum).toEqual({ amount: sum / 100 });
      expectClose(row.avg.amount, sum / 100 / rows.length);
      expect(row.min).toEqual({ orderedAt: iso(Math.min(...times)) });
      expect(row.max).toEqual({ orderedAt: iso(Math.max(...times)) });
    }
  });

  it('equals the same GROUP BY run directly on the database', async () => {
    const t = ws.db.table('orders');
    const direct = await ws.db.query(`SELECT status, COUNT(*) AS n, SUM(amount) AS total, SUM(quantity) AS qty, MIN(amount) AS low FROM ${t} GROUP BY status ORDER BY status`);
    const res = await ok([['groupBy', 'status'], ['metrics', 'count,sum:amount,sum:quantity,min:amount']]);
    expect(res.body.data).toEqual(direct.map((d) => ({ group: { status: d.status }, count: Number(d.n), sum: { amount: Number(d.total), quantity: Number(d.qty) }, min: { amount: Number(d.low) } })));
  });

  it('without groupBy answers one row with group {} (also over no rows); a later page is []', async () => {
    const all = await ok([['metrics', 'count,sum:quantity,avg:quantity']]);
    const quantity = ORDER_MODEL.reduce((s, r) => s + (r.quantity as number), 0);
    expect(all.body).toEqual({ data: [{ group: {}, count: 45, sum: { quantity }, avg: { quantity: quantity / 45 } }], meta: { page: 0, size: 20, totalElements: 1 } });
    const none = await ok([['metrics', 'count,sum:amount,min:status'], ['filter[status.eq]', 'nope']]);
    expect(none.body.data).toEqual([{ group: {}, count: 0, sum: { amount: null }, min: { status: null } }]);
    const later = await ok([['metrics', 'count'], ['page', '1']]);
    expect(later.body).toEqual({ data: [], meta: { page: 1, size: 20, totalElements: 1 } });
  });

  it('defaults to count when no metric is named', async () => {
    const res = await ok([['groupBy', 'status']]);
    expect(res.body.data[0]).toEqual({ group: { status: 'new' }, count: 15 });
  });

  it('NULL is a group of its own, last ascending and first descending', async () => {
    const groups = groupsOf(ORDER_MODEL, 'productId');
    const asc = await ok([['groupBy', 'productId'], ['metrics', 'count']]);
    expect(asc.body.data).toEqual([1, 2, 3, null].map((productId) => ({ group: { productId }, count: groups.get(productId)?.length })));
    const desc = await ok([['groupBy', 'productId'], ['sort', 'productId,desc']]);
    expect(desc.body.data.map((r: { group: { productId: unknown } }) => r.group.productId)).toEqual([null, 3, 2, 1]);
  });

  it('groups through a many-to-one path, with a second key', async () => {
    const res = await ok([['groupBy', 'customer.regionId,status'], ['metrics', 'count,sum:amount'], ['size', '100']]);
    const expected = new Map<string, ModelRow[]>();
    for (const r of ORDER_MODEL) {
      const key = JSON.stringify([r['customer.regionId'], r.status]);
      expected.set(key, [...(expected.get(key) ?? []), r]);
    }
    expect(res.body.meta.totalElements).toBe(expected.size);
    const keys = res.body.data.map((r: { group: Record<string, unknown> }) => [r.group['customer.regionId'], r.group.status]);
    const order = [...expected.keys()].map((k) => JSON.parse(k) as [number | null, string]).sort((a, b) => (a[0] === b[0] ? (a[1] < b[1] ? -1 : 1) : a[0] === null ? 1 : b[0] === null ? -1 : a[0] - b[0]));
    expect(keys).toEqual(order);
    for (const row of res.body.data) {
      const rows = expected.get(JSON.stringify([row.group['customer.regionId'], row.group.status])) ?? [];
      expect(row.count).toBe(rows.length);
      expect(row.sum.amount).toBe(rows.reduce((s, r) => s + cents(r), 0) / 100);
    }
  });

  it('sorts by a requested metric (count, sum:amount), ties broken by the group keys; pages and a page past the end', async () => {
    const byCount = await ok([['groupBy', 'customerId'], ['metrics', 'count,sum:amount'], ['sort', 'count,desc'], ['size', '100']]);
    const groups = groupsOf(ORDER_MODEL, 'customerId');
    const expected = [...groups.entries()].map(([id, rows]) => ({ id: id as number, count: rows.length, sum: rows.reduce((s, r) => s + cents(r), 0) }));
    expect(byCount.body.data.map((r: { group: { customerId: number } }) => r.group.customerId)).toEqual([...expected].sort((a, b) => b.count - a.count || a.id - b.id).map((e) => e.id));
    const bySum = await ok([['groupBy', 'customerId'], ['metrics', 'count,sum:amount'], ['sort', 'sum:amount,desc'], ['size', '5'], ['page', '1']]);
    expect(bySum.body.data.map((r: { group: { customerId: number } }) => r.group.customerId)).toEqual([...expected].sort((a, b) => b.sum - a.sum || a.id - b.id).slice(5, 10).map((e) => e.id));
    expect(bySum.body.meta).toEqual({ page: 1, size: 5, totalElements: 12 });
    const byAvg = await ok([['groupBy', 'status'], ['metrics', 'avg:amount'], ['sort', 'avg:amount,asc']]);
    const avgs = byAvg.body.data.map((r: { avg: { amount: number } }) => r.avg.amount);
    expect(avgs).toEqual([...avgs].sort((a, b) => a - b));
    const past = await ok([['groupBy', 'customerId'], ['page', '3'], ['size', '5']]);
    expect(past.body).toEqual({ data: [], meta: { page: 3, size: 5, totalElements: 12 } });
    // The last page, short (its position gives the count) and exactly full (the count statement does).
    const short = await ok([['groupBy', 'customerId'], ['page', '2'], ['size', '5']]);
    expect([short.body.data.length, short.body.meta.totalElements]).toEqual([2, 12]);
    const full = await ok([['groupBy', 'customerId'], ['page', '2'], ['size', '4']]);
    expect([full.body.data.length, full.body.meta.totalElements]).toEqual([4, 12]);
    const first = await ok([['groupBy', 'customerId'], ['size', '12']]);
    expect([first.body.data.length, first.body.meta.totalElements]).toEqual([12, 12]);
  });

  it('applies filter[...] and where before grouping', async () => {
    const keep = (r: ModelRow) => (r.amount as number) > 50 && r['customer.vip'] === true && r.status !== 'new';
    const res = await ok([['groupBy', 'status'], ['metrics', 'count,max:amount'], ['filter[customer.vip.eq]', 'true'], ['where', "amount > 50 AND status <> 'new'"]]);
    const groups = groupsOf(ORDER_MODEL.filter(keep), 'status');
    expect(res.body.data).toEqual([...groups.entries()].sort(([a], [b]) => (String(a) < String(b) ? -1 : 1)).map(([status, rows]) => ({ group: { status }, count: rows.length, max: { amount: Math.max(...rows.map((r) => r.amount as number)) } })));
  });

  it('gives §4 wire values: dates, timestamps, decimals, text', async () => {
    const births = CUSTOMER_MODEL.map((c) => c.birthDate).filter((d): d is string => d !== null).sort();
    const customers = await ok([['metrics', 'min:birthDate,max:birthDate,min:name,countDistinct:regionId']], 'customers');
    expect(customers.body.data).toEqual([{ group: {}, min: { birthDate: births[0], name: '100%_done' }, max: { birthDate: births[births.length - 1] }, countDistinct: { regionId: 3 } }]);
    const vip = await ok([['groupBy', 'vip'], ['metrics', 'count']], 'customers');
    expect(vip.body.data).toEqual([{ group: { vip: false }, count: 8 }, { group: { vip: true }, count: 4 }]);
    const products = await ok([['metrics', 'sum:price,avg:price,max:price']], 'products');
    expect(products.body.data).toEqual([{ group: {}, sum: { price: 298.4 }, avg: { price: 298.4 / 3 }, max: { price: 229 } }]);
  });

  it('refuses unknown fields and metrics, non-numeric sum/avg, and a sort on anything not requested (400 BAD_REQUEST)', async () => {
    expectError(await aggregate([['groupBy', 'nope']]), 400, 'BAD_REQUEST', 'nope');
    expectError(await aggregate([['groupBy', 'customer.nope']]), 400, 'BAD_REQUEST', 'customer.nope');
    expectError(await aggregate([['groupBy', 'items.x']]), 400, 'BAD_REQUEST');
    expectError(await aggregate([['metrics', 'median:amount']]), 400, 'BAD_REQUEST', 'median');
    expectError(await aggregate([['metrics', 'sum:nope']]), 400, 'BAD_REQUEST', 'nope');
    expectError(await aggregate([['metrics', 'sum']]), 400, 'BAD_REQUEST');
    expectError(await aggregate([['metrics', 'count:amount']]), 400, 'BAD_REQUEST');
    expectError(await aggregate([['metrics', 'sum:status']]), 400, 'BAD_REQUEST', 'status');
    expectError(await aggregate([['metrics', 'avg:orderedAt']]), 400, 'BAD_REQUEST', 'orderedAt');
    expectError(await aggregate([['metrics', 'min:customer.vip']]), 400, 'BAD_REQUEST');
    expectError(await aggregate([['metrics', 'count,'], ['groupBy', 'status']]), 400, 'BAD_REQUEST');
    expectError(await aggregate([['groupBy', 'status'], ['sort', 'quantity,asc']]), 400, 'BAD_REQUEST', 'quantity');
    expectError(await aggregate([['groupBy', 'status'], ['metrics', 'count'], ['sort', 'sum:amount,desc']]), 400, 'BAD_REQUEST', 'sum:amount');
    expectError(await aggregate([['groupBy', 'status'], ['sort', 'count,sideways']]), 400, 'BAD_REQUEST');
    expectError(await aggregate([['groupBy', 'status'], ['size', '0']]), 400, 'BAD_REQUEST');
    expectError(await aggregate([['groupBy', 'status'], ['size', '1001']]), 400, 'BAD_REQUEST');
    expectError(await aggregate([['groupBy', 'status'], ['expand', 'customer']]), 400, 'BAD_REQUEST', 'expand');
    expectError(await aggregate([['filter[nope.eq]', '1']]), 400, 'BAD_REQUEST', 'nope');
    expectError(await aggregate([['page', '1'], ['page', '2']]), 400, 'BAD_REQUEST');
  });

  it('a bad where is 400 INVALID_FORMULA', async () => {
    expectError(await aggregate([['groupBy', 'status'], ['where', 'amount +']]), 400, 'INVALID_FORMULA');
    expectError(await aggregate([['where', "status = 'x'; DROP TABLE orders"]]), 400, 'INVALID_FORMULA');
    expectError(await aggregate([['where', 'amount + 1']]), 400, 'INVALID_FORMULA');
  });

  it('/aggregate is not taken for a record id; an unknown entity is 404', async () => {
    const one = await ws.call('GET', ws.records('/orders/1'));
    expect(one.body.data.id).toBe(1);
    expect((await ok([])).body.data).toEqual([{ group: {}, count: 45 }]);
    expectError(await aggregate([], 'nope'), 404, 'NOT_FOUND');
    expect((await ws.call('GET', ws.records('/orders/aggregate'), { token: null })).status).toBe(401);
  });

  it('groups and aggregates computed columns: a named view, and the default view on the record endpoint', async () => {
    const created = await ws.call('POST', ws.admin('/views'), { token: ADMIN_TOKEN, body: { entity: 'orders', name: 'Agg view', slug: `agg-view-${target.name}` } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const view = created.body.data as { uuid: string; slug: string };
    const lineTotal = await ws.call('POST', '/api/columns', { body: { viewUuid: view.uuid, displayName: 'Line Total', formula: 'amount * quantity' } });
    expect(lineTotal.status, JSON.stringify(lineTotal.body)).toBe(201);
    const big = await ws.call('POST', '/api/columns', { body: { viewUuid: view.uuid, displayName: 'Big', formula: "CASE WHEN amount > 100 THEN 'big' ELSE 'small' END" } });
    expect(big.status, JSON.stringify(big.body)).toBe(201);
    const res = await ws.call('GET', `/api/data/${view.slug}/aggregate${query([['groupBy', 'big'], ['metrics', 'count,sum:lineTotal,max:lineTotal'], ['filter[status.neq]', 'new']])}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const kept = ORDER_MODEL.filter((r) => r.status !== 'new');
    const expected = ['big', 'small'].map((b) => {
      const rows = kept.filter((r) => ((r.amount as number) > 100 ? 'big' : 'small') === b);
      const totals = rows.map((r) => cents(r) * (r.quantity as number));
      return { group: { big: b }, count: rows.length, sum: { lineTotal: totals.reduce((s, x) => s + x, 0) / 100 }, max: { lineTotal: Math.max(...totals) / 100 } };
    });
    expect(res.body).toEqual({ data: expected, meta: { page: 0, size: 20, totalElements: 2 } });
    // The record endpoint reads the default view, which has no such column.
    expectError(await aggregate([['groupBy', 'big']]), 400, 'BAD_REQUEST', 'big');
    const views = await ws.call('GET', ws.admin('/views'), { token: ADMIN_TOKEN });
    const defaultView = (views.body.data as { uuid: string; entity: string; isDefault: boolean }[]).find((v) => v.entity === 'products' && v.isDefault);
    const doubled = await ws.call('POST', '/api/columns', { body: { viewUuid: defaultView?.uuid, displayName: 'Double Price', formula: 'price * 2' } });
    expect(doubled.status, JSON.stringify(doubled.body)).toBe(201);
    const products = await ok([['groupBy', 'doublePrice'], ['metrics', 'avg:doublePrice']], 'products');
    expect(products.body.data).toEqual([{ group: { doublePrice: 39 }, avg: { doublePrice: 39 } }, { group: { doublePrice: 99.8 }, avg: { doublePrice: 99.8 } }, { group: { doublePrice: 458 }, avg: { doublePrice: 458 } }]);
  });

  it('sums a double whose shortest digits end in a tie at the 16th digit the same on every vendor', async () => {
    const created = await ws.call('POST', ws.admin('/views'), { token: ADMIN_TOKEN, body: { entity: 'products', name: 'Tie view', slug: `tie-view-${target.name}` } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const view = created.body.data as { uuid: string; slug: string };
    // Printed -0.008821000000000015: 15 digits of the exact binary value end in …1, of the shortest digits in …2.
    const tie = await ws.call('POST', '/api/columns', { body: { viewUuid: view.uuid, displayName: 'Tie', formula: 'price * 0 - 0.008821000000000015' } });
    expect(tie.status, JSON.stringify(tie.body)).toBe(201);
    const res = await ws.call('GET', `/api/data/${view.slug}/aggregate${query([['metrics', 'count,sum:tie']])}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toEqual([{ group: {}, count: 3, sum: { tie: -0.02646300000000006 } }]);
  });

  it('a migration flag that blocks reads blocks aggregates (503)', async () => {
    const flag = await ws.call('PUT', ws.admin('/entities/customers/migration'), { token: ADMIN_TOKEN, body: { blocksReads: true, blocksWrites: false, retryAfterSeconds: 5 } });
    expect(flag.status, JSON.stringify(flag.body)).toBe(200);
    try {
      expectError(await aggregate([['metrics', 'count']], 'customers'), 503, 'SCHEMA_MIGRATION_IN_PROGRESS');
      // Grouping by a value of the flagged entity reads it; grouping orders by their own fields does not.
      expectError(await aggregate([['groupBy', 'customer.regionId']]), 503, 'SCHEMA_MIGRATION_IN_PROGRESS');
      expect((await aggregate([['groupBy', 'status']])).status).toBe(200);
    } finally {
      await ws.call('DELETE', ws.admin('/entities/customers/migration'), { token: ADMIN_TOKEN });
    }
  });
});
