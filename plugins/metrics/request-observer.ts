/**
 * Counts and times every request by method, route template and status. The template (what the
 * router matched) keeps the label set small; a path no route matched gets one fixed label, so
 * scanners cannot grow the series without bound.
 */
import type { Context } from 'koa';
import type { ServiceMetrics } from './registry.ts';

export const UNMATCHED_ROUTE = '(unmatched)';

function routeOf(ctx: Context): string {
  const matched = (ctx as Context & { _matchedRoute?: unknown })._matchedRoute;
  return typeof matched === 'string' ? matched : UNMATCHED_ROUTE;
}

/**
 * Told by the request log when a request ends (the response finished or the connection closed),
 * with the status the client got; the time runs to the last byte of a streamed answer.
 */
export function requestMetrics(metrics: ServiceMetrics) {
  return (end: { ctx: Context; status: number; seconds: number }): void => {
    metrics.requests.record(end.ctx.method, routeOf(end.ctx), end.status, end.seconds);
  };
}
