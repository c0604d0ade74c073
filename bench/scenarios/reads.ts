/**
 * Issue 15's scenarios, each against a floor in the same run:
 * E one-to-many expansion vs a Koa route running one LATERAL + json_agg statement;
 * F cursor page 50,000 vs cursor page 0 (OFFSET page 50,000 printed beside them);
 * G `where` vs a Koa route running the same condition written by hand.
 * A subject that answers non-2xx is reported as failed and the floors are still measured.
 */
import { isDeepStrictEqual } from 'node:util';
import type pg from 'pg';
import { send } from '../harness/capture-sql.ts';
import { httpSide, measureSides, sqlSide, type HttpRequest, type HttpTarget, type Side, type Timing } from '../harness/sides.ts';
import { checkFarPage, walkToCursor } from './cursor.ts';
import { customersWithOrders } from '../floors/expand.ts';
import type { KoaFloor } from '../floors/koa.ts';
import { paidOrBigOrders } from '../floors/where.ts';
import type { Result15 } from '../harness/report-comparison.ts';
import {
  CURSOR_FIRST_PATH, cursorAfterPath, EXPAND_MANY_PATH, EXPAND_SIZE, FAR_PAGE, OFFSET_FAR_PATH, WHERE_PATH, type Group15,
} from './expand.ts';
import type { BenchService } from '../harness/service.ts';

export interface Bench15 {
  readonly service: BenchService;
  readonly floor: KoaFloor;
  readonly pool: pg.Pool;
  readonly connections: number;
  readonly timing: Timing;
  log(message: string): void;
}

interface Plan15 {
  readonly label: string;
  readonly subject: Side;
  readonly floor: Side;
  readonly beside: Side[];
  readonly failure: string | null;
}

const get = (bench: Bench15, path: string): HttpRequest => ({ method: 'GET', path: bench.service.records(path) });

/** Why the service cannot be measured on `path`, or null when it answers 2xx like the floor (if one is given). */
async function failureOf(bench: Bench15, path: string, floorUrl: string | null): Promise<string | null> {
  const request = { method: 'GET' as const, path: bench.service.records(path) };
  const ours = await send(bench.service, request);
  if (ours.status < 200 || ours.status >= 300) {
    const error = (ours.body as { error?: { message?: string } } | null)?.error;
    return `failed: HTTP ${ours.status} ${error?.message ?? JSON.stringify(ours.body)}`;
  }
  if (floorUrl === null) return null;
  const theirs = await send({ ...bench.service, url: floorUrl }, request);
  if (isDeepStrictEqual(ours.body, theirs.body)) return null;
  bench.log(`${path}: service and floor differ\nservice: ${JSON.stringify(ours.body)}\nfloor:   ${JSON.stringify(theirs.body)}`);
  return 'failed: the answer differs from the floor\'s (both printed on stderr)';
}

/** The LATERAL floor alone: its customers and their orders are what the service's own lists answer. */
async function checkExpandFloor(bench: Bench15): Promise<void> {
  const page = await customersWithOrders(bench.pool, 20, 0, EXPAND_SIZE);
  const get = async (path: string): Promise<unknown> => (await send(bench.service, { method: 'GET', path: bench.service.records(path) })).body;
  const customers = (await get('/customers?size=20')) as { data: Record<string, unknown>[]; meta: Record<string, unknown> };
  const bare = page.data.map(({ orders: _orders, ...customer }) => customer);
  const { expandSizes: _sizes, ...meta } = page.meta;
  if (!isDeepStrictEqual(bare, customers.data) || !isDeepStrictEqual(meta, customers.meta)) throw new Error('the LATERAL floor\'s customers differ from GET /customers');
  for (const customer of page.data) {
    const orders = (await get(`/orders?filter[customerId.eq]=${customer.id}&sort=id,asc&size=${EXPAND_SIZE}&count=none`)) as { data: unknown };
    if (!isDeepStrictEqual(customer.orders, orders.data)) throw new Error(`the LATERAL floor's orders of customer ${customer.id} differ from GET /orders`);
  }
}

async function planExpand(bench: Bench15, http: HttpTarget, koa: HttpTarget): Promise<Plan15> {
  await checkExpandFloor(bench);
  return {
    label: `${EXPAND_MANY_PATH} vs one LATERAL + json_agg statement (count exact, beside it)`,
    subject: httpSide('service', http, get(bench, EXPAND_MANY_PATH)),
    floor: httpSide('Koa + LATERAL', koa, get(bench, EXPAND_MANY_PATH)),
    beside: [sqlSide('raw pg LATERAL', () => customersWithOrders(bench.pool, 20, 0, EXPAND_SIZE), bench.connections)],
    failure: await failureOf(bench, EXPAND_MANY_PATH, koa.url),
  };
}

async function planCursor(bench: Bench15, http: HttpTarget): Promise<Plan15> {
  const began = Date.now();
  const cursor = await walkToCursor(bench.service, (FAR_PAGE - 1) * 20);
  bench.log(`F: walked to the cursor of page ${FAR_PAGE} in ${((Date.now() - began) / 1000).toFixed(1)}s`);
  await checkFarPage(bench.service, cursor);
  return {
    label: `cursor page ${FAR_PAGE} of orders (size 20, sort=id,asc, count=none) vs cursor page 0; OFFSET ${OFFSET_FAR_PATH} beside`,
    subject: httpSide(`cursor page ${FAR_PAGE}`, http, get(bench, cursorAfterPath(cursor))),
    floor: httpSide('cursor page 0', http, get(bench, CURSOR_FIRST_PATH)),
    beside: [httpSide(`OFFSET page ${FAR_PAGE}`, http, get(bench, OFFSET_FAR_PATH))],
    failure: null,
  };
}

async function planWhere(bench: Bench15, http: HttpTarget, koa: HttpTarget): Promise<Plan15> {
  return {
    label: `${decodeURIComponent(WHERE_PATH)} vs the condition written by hand`,
    subject: httpSide('service', http, get(bench, WHERE_PATH)),
    floor: httpSide('Koa + hand SQL', koa, get(bench, WHERE_PATH)),
    beside: [sqlSide('raw pg hand SQL', () => paidOrBigOrders(bench.pool, 20, 0), bench.connections)],
    failure: await failureOf(bench, WHERE_PATH, koa.url),
  };
}

function plan(bench: Bench15, group: Group15): Promise<Plan15> {
  const http = { url: bench.service.url, apiKey: bench.service.apiKey, connections: bench.connections };
  const koa = { ...http, url: bench.floor.url };
  switch (group) {
    case 'E':
      return planExpand(bench, http, koa);
    case 'F':
      return planCursor(bench, http);
    case 'G':
      return planWhere(bench, http, koa);
  }
}

export async function runIssue15(bench: Bench15, groups: readonly Group15[]): Promise<Result15[]> {
  const results: Result15[] = [];
  for (const group of groups) {
    const planned = await plan(bench, group);
    if (planned.failure) bench.log(`${group}: ${planned.failure}; measuring the floors only`);
    const sides = [...(planned.failure ? [] : [planned.subject]), planned.floor, ...planned.beside];
    const measured = await measureSides(sides, bench.timing, (m) => bench.log(`${group} ${m}`));
    const subject = planned.failure ? null : (measured.shift() ?? null);
    const [floor, ...beside] = measured;
    if (!floor) throw new Error(`${group}: the floor was not measured`);
    results.push({ id: group, label: planned.label, subjectLabel: planned.subject.label, subject, floor, beside, failure: planned.failure });
  }
  return results;
}
