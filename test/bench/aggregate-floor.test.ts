/**
 * The bench's aggregate floor (bench/floors/aggregate.ts, scenario H) must answer what the
 * service answers for `orders/aggregate?groupBy=status&metrics=count,sum:amount`, on a short page
 * (the count taken from the page) and on full and later pages (the count run apart). Checked on
 * PostgreSQL, the only vendor the bench runs on.
 */
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ordersByStatus } from '../../bench/floors/aggregate.ts';
import { createFloorPool } from '../../bench/floors/sql.ts';
import { AGGREGATE_PATH } from '../../bench/scenarios/aggregate.ts';
import { startWorkspace, type TestWorkspace } from '../support/harness.ts';
import { postgresTarget, vendorsToRun } from '../support/vendors.ts';

const vendors = await vendorsToRun([postgresTarget]);

describe.each(vendors)('the status aggregate floor on $name', (target) => {
  let ws: TestWorkspace;
  let pool: pg.Pool;
  beforeAll(async () => {
    ws = await startWorkspace(target);
    pool = createFloorPool(String(ws.db.database.url));
  });
  afterAll(async () => {
    await pool?.end();
    await ws?.close();
  });

  it.each([
    [20, 0],
    [2, 0],
    [2, 1],
    [2, 5],
  ])('answers size=%i&page=%i as the service does', async (size, page) => {
    const res = await ws.call('GET', ws.records(`${AGGREGATE_PATH}&size=${size}&page=${page}`));
    expect(res.status).toBe(200);
    expect(await ordersByStatus(pool, size, page)).toEqual(res.body);
  });

  it('has more than one group in the fixture, so the paged cases page', async () => {
    expect((await ordersByStatus(pool, 20, 0)).meta.totalElements).toBeGreaterThan(2);
  });
});
