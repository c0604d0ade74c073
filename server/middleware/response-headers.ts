/**
 * Headers on every answer, errors and unknown routes included: API responses
 * are never to be sniffed as another type nor stored by a cache (they hold workspace data and
 * answers that depend on the credential). CORS only for the configured origins.
 */
import cors from '@koa/cors';
import type { Context, Middleware, Next } from 'koa';
import type { Lifecycle } from '../shared/services.ts';

/** Not an async function: it sets headers and hands on, with no promise of its own. */
export function responseHeaders(lifecycle: Lifecycle): Middleware {
  return (ctx: Context, next: Next) => {
    // Fixed, valid headers go straight to Node (Koa's ctx.set normalises and checks each value again).
    ctx.res.setHeader('X-Content-Type-Options', 'nosniff');
    ctx.res.setHeader('Cache-Control', 'no-store');
    // While draining, clients are told not to reuse the connection: the next request goes elsewhere.
    if (lifecycle.draining) ctx.res.setHeader('Connection', 'close');
    return next();
  };
}

/**
 * CORS for the listed origins only (exact `scheme://host[:port]`): other origins get no CORS
 * header at all, so browsers keep them out. Credentials travel as bearer headers, never cookies,
 * so `Access-Control-Allow-Credentials` is not sent.
 */
export function corsFor(origins: readonly string[]): Middleware | undefined {
  if (origins.length === 0) return undefined;
  const allowed = new Set(origins);
  return cors({
    origin: (ctx: Context) => (allowed.has(ctx.get('Origin')) ? ctx.get('Origin') : ''),
    allowMethods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowHeaders: ['Authorization', 'Content-Type', 'X-Import-Mapping'],
    exposeHeaders: ['X-Request-Id', 'Retry-After', 'Content-Disposition', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'],
    maxAge: 600,
  });
}
