/**
 * Request id, timing and one pino line per request (never tokens or keys: the query string is
 * left out). The line is written when the response is finished or the connection closed, so a
 * streamed answer (an import's NDJSON events) is timed to its end, not to its first byte.
 * Levels: 5xx `error` (the service failed), 503 `warn` (a dependency is down, the client may retry),
 * everything else `info` (4xx are the client's doing).
 */
import { randomUUID } from 'node:crypto';
import type { Context, Next } from 'koa';
import type { Logger } from 'pino';

type Level = 'error' | 'warn' | 'info';

function levelOf(status: number): Level {
  if (status === 503) return 'warn';
  return status >= 500 ? 'error' : 'info';
}

function writeLine(logger: Logger, ctx: Context, requestId: string, started: bigint): void {
  const status = ctx.res.headersSent ? ctx.res.statusCode : ctx.status;
  const level = levelOf(status);
  // A level the logger drops costs nothing more than this check (a silent logger in benches and tests).
  if (!logger.isLevelEnabled(level)) return;
  const durationMs = Number(process.hrtime.bigint() - started) / 1e6;
  const line: Record<string, unknown> = { requestId, method: ctx.method, path: ctx.path, status, durationMs: Math.round(durationMs * 100) / 100 };
  // A response that never finished: the client went away or the connection was cut mid-stream.
  if (!ctx.res.writableFinished) line.aborted = true;
  const error: unknown = ctx.state.error ?? ctx.state.errorCause;
  if (error !== undefined) line.err = error;
  logger[level](line, ctx.state.error ? 'request failed' : 'request');
}

export function requestLog(logger: Logger) {
  return async (ctx: Context, next: Next): Promise<void> => {
    const started = process.hrtime.bigint();
    const requestId = randomUUID();
    ctx.state.requestId = requestId;
    // Straight to Node: Koa's ctx.set normalises and re-checks what is a fixed, valid header here.
    ctx.res.setHeader('X-Request-Id', requestId);
    // 'close' follows 'finish' in every case and also comes when the connection is cut.
    ctx.res.once('close', () => writeLine(logger, ctx, requestId, started));
    await next();
  };
}
