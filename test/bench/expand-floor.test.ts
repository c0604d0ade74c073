/**
 * The bench's one-to-many floor (bench/floors/expand.ts, scenario E) must answer what the service
 * would: customers as GET /customers lists them, each with its first orders as GET /orders lists
 * them (by id, at most the limit, [] when none), and the meta of DESIGN §13. Checked on
 * PostgreSQL, the only vendor the bench runs on.
 */
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customersWithOrders } from '../../bench/floors/expand.ts';
import { createFloorPool } from '../../bench/floors/sql.ts';
import { EXPAND_MANY_PATH } from '../../bench/scenarios/expand.ts';
import { startWorkspace, type TestWorkspace } from '../support/harness.ts';
import { postgresTarget, vendorsToRun } from '../support/vendors.ts';

const vendors = await vendorsToRun([postgresTarget]);

describe.each(vendors)('the LATERAL expansion floor on $name', (target) => {
  let ws: TestWorkspace;
  let pool: pg.Pool;
  beforeAll(async () => {
    ws = await startWorkspace(target);
    // A customer without orders, so an empty array is part of the page.
    await ws.db.query(`INSERT INTO ${ws.db.table('customers')} (name, email) VALUES ('Nobody', 'nobody@example.com')`);
    pool = createFloorPool(String(ws.db.database.url));
  });
  afterAll(async () => {
    await pool?.end();
    await ws?.close();
  });

  const list = async (path: string) => {
    const res = await ws.call('GET', ws.records(path));
    expect(res.status).toBe(200);
    return res.body as { data: Record<string, unknown>[]; meta: Record<string, unknown> };
  };

  it.each([2, 5])('gives every customer of the page its first %i orders as the orders list does', async (limit) => {
    const floor = await customersWithOrders(pool, 20, 0, limit);
    const customers = await list('/customers?size=20');
    expect(floor.data.map(({ orders: _orders, ...customer }) => customer)).toEqual(customers.data);
    expect(floor.meta).toEqual({ ...customers.meta, expandSizes: { orders: limit } });
    for (const customer of floor.data) {
      const orders = await list(`/orders?filter[customerId.eq]=${customer.id}&sort=id,asc&size=${limit}&count=none`);
      expect(customer.orders).toEqual(orders.data);
    }
    expect(floor.data.map((c) => (c.orders as unknown[]).length)).toContain(0);
    // The fixture gives each customer 3 or 4 orders: a limit of 2 truncates, 5 does not.
    expect(Math.max(...floor.data.map((c) => (c.orders as unknown[]).length))).toBe(Math.min(limit, 4));
  });

  it('pages customers like the service (page 1 of 5)', async () => {
    const floor = await customersWithOrders(pool, 5, 1, 3);
    const customers = await list('/customers?size=5&page=1');
    expect(floor.data.map((c) => c.id)).toEqual(customers.data.map((c) => c.id));
  });

  it('answers the bench request exactly as the service does, once the service expands one-to-many', async () => {
    const res = await ws.call('GET', ws.records(EXPAND_MANY_PATH));
    // Until one-to-many expansion lands the service refuses the request; the bench reports that.
    if (res.status === 400) return expect(res.body.error.code).toBe('BAD_REQUEST');
    expect(res.status).toBe(200);
    expect(await customersWithOrders(pool, 20, 0, 5)).toEqual(res.body);
  });
});
