/**
 * Request id, timing and one pino line per request (never tokens or keys: the query string is
 * left out). The line is written when the response is finished or the connection closed, so a
 * streamed answer (an import's NDJSON events) is timed to its end, not to its first byte.
 * Levels: 5xx `error` (the service failed), 503 `warn` (a dependency is down, the client may retry),
 * everything else `info` (4xx are the client's doing).
 * A client that leaves before any answer was sent is logged as 499 (nginx's "client closed
 * request") with `aborted: true`; the 404 Koa starts every response with was never sent to anyone.
 * One cut off in the middle of a streamed answer keeps the status it got, with `aborted: true`.
 *
 * Not an async function: it only registers what runs at the end, so a request pays no promise
 * and no await for it. Others that want the end of every request (metrics) are told by the same
 * listener instead of wrapping the request in a middleware of their own.
 */
import { randomUUID } from 'node:crypto';
import type { Context, Middleware } from 'koa';
import type { Logger } from 'pino';

type Level = 'error' | 'warn' | 'info';

/** What every request ends with; `status` is the one the client got, or 499 when it left before any. */
export interface RequestEnd {
  readonly ctx: Context;
  readonly status: number;
  readonly seconds: number;
}

export type RequestEndObserver = (end: RequestEnd) => void;

function levelOf(status: number): Level {
  if (status === 503) return 'warn';
  return status >= 500 ? 'error' : 'info';
}

/** The status a client that closed the connection before the answer is logged with. */
const CLIENT_CLOSED_REQUEST = 499;

function statusOf(ctx: Context): number {
  if (ctx.res.headersSent) return ctx.res.statusCode;
  return ctx.res.writableFinished ? ctx.status : CLIENT_CLOSED_REQUEST;
}

function writeLine(logger: Logger, ctx: Context, requestId: string, status: number, seconds: number): void {
  const level = levelOf(status);
  // A level the logger drops costs nothing more than this check (a silent logger in benches and tests).
  if (!logger.isLevelEnabled(level)) return;
  const line: Record<string, unknown> = { requestId, method: ctx.method, path: ctx.path, status, durationMs: Math.round(seconds * 100_000) / 100 };
  // A response that never finished: the client went away or the connection was cut mid-stream.
  if (!ctx.res.writableFinished) line.aborted = true;
  const error: unknown = ctx.state.error ?? ctx.state.errorCause;
  if (error !== undefined) line.err = error;
  logger[level](line, ctx.state.error ? 'request failed' : 'request');
}

export function requestLog(logger: Logger, observers: readonly RequestEndObserver[] = []): Middleware {
  return (ctx, next) => {
    const started = performance.now();
    const requestId = randomUUID();
    ctx.state.requestId = requestId;
    // Straight to Node: Koa's ctx.set normalises and re-checks what is a fixed, valid header here.
    ctx.res.setHeader('X-Request-Id', requestId);
    // 'close' follows 'finish' in every case and also comes when the connection is cut. It comes
    // once, so a plain listener does: once() would wrap it and remove it again, on every request.
    ctx.res.on('close', () => {
      const status = statusOf(ctx);
      const seconds = (performance.now() - started) / 1000;
      writeLine(logger, ctx, requestId, status, seconds);
      for (const observe of observers) observe({ ctx, status, seconds });
    });
    return next();
  };
}
