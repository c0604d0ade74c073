/**
 * The Koa floor: hand-written routes on their own Koa app answering the same paths with the
 * same JSON as the service, by running the captured SQL and nesting the joined columns by hand.
 * No auth, no schema model, no planner: what is left is Koa, the router, pg and JSON.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Router from '@koa/router';
import Koa from 'koa';
import { koaBody } from 'koa-body';
import type pg from 'pg';
import { ordersByStatus } from './aggregate.ts';
import { customersWithOrders } from './expand.ts';
import { createOrder, getOrder, insertValues, listOrders, type CountMode, type FloorSql, type Row } from './sql.ts';
import { paidOrBigOrders } from './where.ts';
import { ORG, WS } from '../harness/service.ts';

export interface KoaFloor {
  readonly url: string;
  close(): Promise<void>;
}

/** How a driver hands over what the JSON needs converted: timestamps, decimals, booleans. */
export interface FloorValues {
  readonly time: (value: unknown) => unknown;
  readonly num: (value: unknown) => unknown;
  readonly bool: (value: unknown) => unknown;
}

/** pg: timestamps as Date (the service's type parsers), decimals as text, booleans as booleans. */
const PG_VALUES: FloorValues = {
  time: (value) => (value instanceof Date ? value.toISOString() : value),
  num: (value) => (value === null ? null : Number(value)),
  bool: (value) => value,
};

/**
 * The list's JSON by hand from the captured page statement's columns: c0..c9 the order; c10 the
 * customer's join key, c11..c17 its fields; c18 the region's key, c19..c20 its fields.
 */
export function orderShapes({ time, num, bool }: FloorValues): { orderJson: (row: Row) => Row; expandedOrderJson: (row: Row) => Row } {
  const orderJson = (row: Row): Row => ({
    id: row.c0, customerId: row.c1, productId: row.c2, quantity: row.c3, amount: num(row.c4), status: row.c5,
    note: row.c6, orderedAt: time(row.c7), createdAt: time(row.c8), updatedAt: time(row.c9),
  });
  const expandedOrderJson = (row: Row): Row => {
    const region = row.c18 === null ? null : { id: row.c19, name: row.c20 };
    const customer = row.c10 === null ? null : {
      id: row.c11, name: row.c12, email: row.c13, regionId: row.c14, vip: bool(row.c15), birthDate: row.c16, createdAt: time(row.c17), region,
    };
    return { ...orderJson(row), customer };
  };
  return { orderJson, expandedOrderJson };
}

const { orderJson, expandedOrderJson } = orderShapes(PG_VALUES);

function countModeOf(value: unknown): CountMode {
  return value === 'none' || value === 'estimated' ? value : 'exact';
}

function routes(pool: pg.Pool, sql: FloorSql): Router {
  const router = new Router({ prefix: `/api/v1/${ORG}/${WS}` });
  router.get('/orders', async (ctx, next) => {
    // The where scenario (G) has its own hand-written route (whereRoutes).
    if (ctx.query.where !== undefined) return next();
    const size = Number(ctx.query.size ?? 20);
    const page = Number(ctx.query.page ?? 0);
    const expand = ctx.query.expand === 'customer,customer.region';
    const result = await listOrders(pool, sql, expand, countModeOf(ctx.query.count), size, page);
    const totalPages = result.total === null ? null : Math.ceil(result.total / size);
    ctx.body = {
      data: result.rows.map(expand ? expandedOrderJson : orderJson),
      meta: { page, size, totalElements: result.total, totalPages, countMode: result.mode },
    };
  });
  // Before get-by-id, which would otherwise take 'aggregate' for an order id.
  aggregateRoutes(router, pool);
  router.get('/orders/:id', async (ctx) => {
    const row = await getOrder(pool, sql, Number(ctx.params.id));
    if (!row) return ctx.throw(404);
    ctx.body = { data: orderJson(row) };
  });
  router.post('/orders', koaBody({ json: true, urlencoded: false, text: false, multipart: false }), async (ctx) => {
    const row = await createOrder(pool, sql, insertValues(ctx.request.body as Row));
    if (!row) return ctx.throw(500);
    ctx.status = 201;
    ctx.body = { data: orderJson(row) };
  });
  return whereRoutes(expandRoutes(router, pool), pool);
}

/** The aggregate scenario (H): the status aggregate by hand; groupBy and metrics are not read (the bench asks one shape). */
function aggregateRoutes(router: Router, pool: pg.Pool): Router {
  return router.get('/orders/aggregate', async (ctx) => {
    ctx.body = await ordersByStatus(pool, Number(ctx.query.size ?? 20), Number(ctx.query.page ?? 0));
  });
}

/** The expansion scenario (E): one-to-many expansion (`expandSize[orders]` as DESIGN §13 spells it). */
function expandRoutes(router: Router, pool: pg.Pool): Router {
  return router.get('/customers', async (ctx) => {
    const size = Number(ctx.query.size ?? 20);
    const page = Number(ctx.query.page ?? 0);
    ctx.body = await customersWithOrders(pool, size, page, Number(ctx.query['expandSize[orders]'] ?? 20));
  });
}

/** The where scenario (G): its condition by hand; the formula text itself is not read. */
function whereRoutes(router: Router, pool: pg.Pool): Router {
  return router.get('/orders', async (ctx) => {
    const size = Number(ctx.query.size ?? 20);
    const page = Number(ctx.query.page ?? 0);
    const rows = await paidOrBigOrders(pool, size, page);
    ctx.body = { data: rows.map(orderJson), meta: { page, size, totalElements: null, totalPages: null, countMode: 'none' } };
  });
}

export function startKoaFloor(pool: pg.Pool, sql: FloorSql): Promise<KoaFloor> {
  return serveFloor(routes(pool, sql));
}

/** A hand-written router on its own Koa app and loopback port (the MariaDB floor uses it too). */
export async function serveFloor(router: Router): Promise<KoaFloor> {
  const app = new Koa();
  app.silent = true;
  app.use(router.routes());
  const server: Server = createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeIdleConnections();
    }),
  };
}
