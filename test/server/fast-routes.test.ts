/**
 * server/routes/fast-routes.ts must answer every request exactly as @koa/router alone would: the
 * same route, the same parameters, the same 404/405/501. Two Koa servers on loopback, one with the
 * fast routes in front of the router and one with the router only, get the same random requests.
 */
import Router from '@koa/router';
import fc from 'fast-check';
import type { Middleware } from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fastRoutes } from '../../server/routes/fast-routes.ts';
import { dispatchOf } from '../../server/routes/router-dispatch.ts';
import { serveKoa, type LoopbackServer } from '../support/koa-server.ts';

/**
 * What a route saw: its parameters, whether the middleware before it ran (`stamped`), and which of
 * the two routers matched it (`byKoaRouter`: @koa/router sets ctx.matched).
 */
function answer(name: string): Middleware {
  return (ctx) => {
    ctx.body = { route: name, params: ctx.params, stamped: ctx.state.stamped === true, byKoaRouter: (ctx as { matched?: unknown }).matched !== undefined };
  };
}

const stamp: Middleware = (ctx, next) => {
  ctx.state.stamped = true;
  return next();
};

/** The data API's route shapes (server/routes/records.ts and openapi.ts). */
function dataRouter(): Router {
  const openApi = new Router();
  openApi.get('/api/v1/:org/:ws/openapi.json', answer('openapi'));
  const records = new Router({ prefix: '/api/v1/:org/:ws' });
  records.get('/:entity', answer('list'));
  records.get('/:entity/aggregate', answer('aggregate'));
  records.get('/:entity/:id', answer('get'));
  records.post('/:entity', stamp, answer('create'));
  records.put('/:entity/:id', answer('update'));
  records.delete('/:entity/:id', answer('delete'));
  const root = new Router();
  root.use(openApi.routes());
  root.use(records.routes());
  return root;
}

interface Answer {
  readonly status: number;
  readonly allow: string | null;
  readonly body: Record<string, unknown> | null;
}

async function ask(server: LoopbackServer, method: string, path: string): Promise<Answer> {
  const response = await fetch(server.url + path, { method });
  const text = await response.text();
  return { status: response.status, allow: response.headers.get('allow'), body: text.startsWith('{') ? (JSON.parse(text) as Record<string, unknown>) : null };
}

const SEGMENTS = ['api', 'v1', 'API', 'o', 'w', 'orders', 'Orders', 'aggregate', 'AGGREGATE', 'openapi.json', 'OpenAPI.json', '42', 'a%20b', '%E2%82%AC', '%E0%A4%A', '%2F', 'x;y', '', 'é', 'a'.repeat(120)];
const path = fc
  .array(fc.constantFrom(...SEGMENTS), { minLength: 0, maxLength: 7 })
  .chain((rest) => fc.tuple(fc.constant(rest), fc.boolean(), fc.boolean()))
  .map(([rest, prefixed, trailingSlash]) => `/${(prefixed ? ['api', 'v1', ...rest] : rest).join('/')}${trailingSlash ? '/' : ''}`);
const method = fc.constantFrom('GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS');

describe('fast routes in front of @koa/router', () => {
  let fast: LoopbackServer;
  let plain: LoopbackServer;

  beforeAll(async () => {
    fast = await serveKoa(fastRoutes(dataRouter()) as Middleware);
    plain = await serveKoa(dispatchOf(dataRouter()) as Middleware);
  });

  afterAll(async () => {
    await fast?.close();
    await plain?.close();
  });

  it('takes the plain requests itself, with the same route and parameters', async () => {
    const got = await ask(fast, 'GET', '/api/v1/o/w/orders/42');
    expect(got.body).toEqual({ route: 'get', params: { org: 'o', ws: 'w', entity: 'orders', id: '42' }, stamped: false, byKoaRouter: false });
    const created = await ask(fast, 'POST', '/api/v1/o/w/orders');
    expect(created.body).toEqual({ route: 'create', params: { org: 'o', ws: 'w', entity: 'orders' }, stamped: true, byKoaRouter: false });
    expect((await ask(fast, 'GET', '/api/v1/o/w/orders/aggregate')).body).toMatchObject({ route: 'aggregate', byKoaRouter: false });
    expect((await ask(fast, 'GET', '/api/v1/o/w/openapi.json')).body).toMatchObject({ route: 'openapi', byKoaRouter: false });
  });

  it('answers every request as @koa/router alone does', async () => {
    await fc.assert(
      fc.asyncProperty(method, path, async (m, p) => {
        const [ours, theirs] = await Promise.all([ask(fast, m, p), ask(plain, m, p)]);
        const strip = (a: Answer) => ({ ...a, body: a.body ? { ...a.body, byKoaRouter: undefined } : null });
        expect(strip(ours)).toEqual(strip(theirs));
      }),
      { numRuns: 800 },
    );
  });
});
