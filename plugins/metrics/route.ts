/** GET /metrics in Prometheus text format; with METRICS_TOKEN set, only for that bearer token. */
import { timingSafeEqual } from 'node:crypto';
import Router from '@koa/router';
import { ApiError } from '../../core/errors.ts';
import type { ServiceMetrics } from './registry.ts';

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

function checkToken(header: string, token: string | undefined): void {
  if (token === undefined) return;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match?.[1] || !sameToken(match[1], token)) throw new ApiError('UNAUTHORIZED', 'send Authorization: Bearer <METRICS_TOKEN>');
}

export function metricsRoutes(metrics: ServiceMetrics, token: string | undefined, beforeScrape: () => void = () => undefined): Router {
  const router = new Router();
  router.get('/metrics', async (ctx) => {
    checkToken(ctx.get('authorization'), token);
    beforeScrape();
    ctx.type = metrics.registry.contentType;
    ctx.body = await metrics.registry.metrics();
  });
  return router;
}
