/**
 * The data API's routes matched by find-my-way (one walk of a radix tree) before @koa/router, which
 * tests a regular expression per route and composes a middleware chain on every request: about
 * 14 µs a get-by-id on this machine (bench/tools/side-by-side.ts, docs/performance.md).
 *
 * The routes are still declared once, on @koa/router Routers; this mirrors their plain routes.
 * A request is taken here only where both routers must agree: a path with no `%` (the two decode
 * differently), no empty segment and no trailing slash (@koa/router is not strict about those).
 * Everything else, and every request no route matches, goes to @koa/router unchanged, so its
 * 404, 405 and 501 answers stay as they were.
 */
import type Router from '@koa/router';
import type { RouterMiddleware } from '@koa/router';
import findMyWay, { type HTTPMethod } from 'find-my-way';
import type { Context, Middleware, Next } from 'koa';
import compose from 'koa-compose';
import { dispatchOf } from './router-dispatch.ts';

interface FastRoute {
  /** The route's template, as @koa/router records it for the request metrics. */
  readonly path: string;
  readonly run: (ctx: Context, next: Next) => Promise<unknown>;
}

/** Static segments and `:name` parameters only: the syntax both routers read the same way. */
const PLAIN_PATH = /^(?:\/(?::[A-Za-z_]\w*|[\w.-]+))+$/;

function takenHere(path: string): boolean {
  return !path.includes('%') && !path.includes('//') && !path.endsWith('/');
}

function noHandler(): void {
  // find-my-way wants a handler; the route itself travels in the store.
}

interface PlainRoute {
  readonly method: HTTPMethod;
  readonly route: FastRoute;
}

function keyOf({ method, route }: PlainRoute): string {
  return `${method} ${route.path.toLowerCase()}`;
}

/** Each method and template once: where @koa/router would chain two layers, it keeps the request. */
function plainRoutes(router: Router): PlainRoute[] {
  const found: PlainRoute[] = [];
  for (const layer of router.stack) {
    const path = layer.path;
    if (layer.methods.length === 0 || typeof path !== 'string' || !PLAIN_PATH.test(path)) continue;
    const route: FastRoute = { path, run: compose(layer.stack as Middleware[]) as FastRoute['run'] };
    for (const method of layer.methods) found.push({ method: method as HTTPMethod, route });
  }
  const counts = new Map<string, number>();
  for (const plain of found) counts.set(keyOf(plain), (counts.get(keyOf(plain)) ?? 0) + 1);
  return found.filter((plain) => counts.get(keyOf(plain)) === 1);
}

/** `router`'s plain routes matched first; anything else goes to the router's own dispatch. */
export function fastRoutes(router: Router): RouterMiddleware {
  const fallback = dispatchOf(router);
  // Case-insensitive like @koa/router; parameters keep the case they came in.
  const tree = findMyWay({ caseSensitive: false, ignoreTrailingSlash: false, ignoreDuplicateSlashes: false });
  for (const { method, route } of plainRoutes(router)) tree.on(method, route.path, noHandler, route);
  return (ctx, next) => {
    const path = ctx.path;
    const found = takenHere(path) ? tree.find(ctx.method as HTTPMethod, path) : null;
    if (!found) return fallback(ctx, next);
    const route = found.store as FastRoute;
    ctx.params = found.params as Record<string, string>;
    (ctx as Context & { _matchedRoute?: string })._matchedRoute = route.path;
    return route.run(ctx as unknown as Context, next);
  };
}
