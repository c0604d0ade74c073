/** Request id, timing and one pino line per request (never tokens or keys: the query string is left out). */
import { randomUUID } from 'node:crypto';
import type { Context, Next } from 'koa';
import type { Logger } from 'pino';

export function requestLog(logger: Logger) {
  return async (ctx: Context, next: Next): Promise<void> => {
    const started = process.hrtime.bigint();
    const requestId = randomUUID();
    ctx.state.requestId = requestId;
    ctx.set('X-Request-Id', requestId);
    try {
      await next();
    } finally {
      const durationMs = Number(process.hrtime.bigint() - started) / 1e6;
      const line = { requestId, method: ctx.method, path: ctx.path, status: ctx.status, durationMs: Math.round(durationMs * 100) / 100 };
      if (ctx.state.error) logger.error({ ...line, err: ctx.state.error }, 'request failed');
      else logger.info(line, 'request');
    }
  };
}
