/**
 * Counts and times every request by method, route template and status. The template (what the
 * router matched) keeps the label set small; a path no route matched gets one fixed label, so
 * scanners cannot grow the series without bound.
 */
import type { Context, Next } from 'koa';
import type { ServiceMetrics } from './registry.ts';

export const UNMATCHED_ROUTE = '(unmatched)';

function routeOf(ctx: Context): string {
  const matched = (ctx as Context & { _matchedRoute?: unknown })._matchedRoute;
  return typeof matched === 'string' ? matched : UNMATCHED_ROUTE;
}

/** Sits outside the error middleware, so the status is the one the client gets. */
export function requestMetrics(metrics: ServiceMetrics) {
  return async (ctx: Context, next: Next): Promise<void> => {
    const started = performance.now();
    try {
      await next();
    } finally {
      metrics.requests.record(ctx.method, routeOf(ctx), ctx.status, (performance.now() - started) / 1000);
    }
  };
}
