/**
 * E, one-to-many expansion: 20 customers, each with its first 5 orders, against a Koa route
 * running one LATERAL + json_agg statement (floors/expand.ts); raw pg running that statement beside.
 */
import { isDeepStrictEqual } from 'node:util';
import { customersWithOrders } from '../floors/expand.ts';
import { send } from '../harness/capture-sql.ts';
import type { ComparisonTargets } from '../harness/report-comparison.ts';
import { httpSide, sqlSide } from '../harness/sides.ts';
import { getRequest, httpTargets, subjectFailure, type ComparisonPlan, type InProcessBench } from './against-floor.ts';

/** The number of orders per customer (DESIGN §13 spells the limit `expandSize[orders]`). */
export const EXPAND_SIZE = 5;
/** Under `/api/v1/{org}/{ws}`. */
export const EXPAND_MANY_PATH = `/customers?size=20&expand=orders&expandSize[orders]=${EXPAND_SIZE}`;

export const EXPAND_TARGETS: ComparisonTargets = { minShare: 0.6, maxP99Ratio: 2 };

/** The LATERAL floor alone: its customers and their orders are what the service's own lists answer. */
async function checkExpandFloor(bench: InProcessBench): Promise<void> {
  const page = await customersWithOrders(bench.pool, 20, 0, EXPAND_SIZE);
  const get = async (path: string): Promise<unknown> => (await send(bench.service, getRequest(bench, path))).body;
  const customers = (await get('/customers?size=20')) as { data: Record<string, unknown>[]; meta: Record<string, unknown> };
  const bare = page.data.map(({ orders: _orders, ...customer }) => customer);
  const { expandSizes: _sizes, ...meta } = page.meta;
  if (!isDeepStrictEqual(bare, customers.data) || !isDeepStrictEqual(meta, customers.meta)) throw new Error('the LATERAL floor\'s customers differ from GET /customers');
  for (const customer of page.data) {
    const orders = (await get(`/orders?filter[customerId.eq]=${customer.id}&sort=id,asc&size=${EXPAND_SIZE}&count=none`)) as { data: unknown };
    if (!isDeepStrictEqual(customer.orders, orders.data)) throw new Error(`the LATERAL floor's orders of customer ${customer.id} differ from GET /orders`);
  }
}

export async function planExpand(bench: InProcessBench): Promise<ComparisonPlan> {
  const { http, koa } = httpTargets(bench);
  await checkExpandFloor(bench);
  return {
    label: `${EXPAND_MANY_PATH} vs one LATERAL + json_agg statement (count exact, beside it)`,
    subject: httpSide('service', http, getRequest(bench, EXPAND_MANY_PATH)),
    floor: httpSide('Koa + LATERAL', koa, getRequest(bench, EXPAND_MANY_PATH)),
    beside: [sqlSide('raw pg LATERAL', () => customersWithOrders(bench.pool, 20, 0, EXPAND_SIZE), bench.connections)],
    failure: await subjectFailure(bench, EXPAND_MANY_PATH, koa.url),
  };
}
