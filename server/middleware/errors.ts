/**
 * Errors are thrown where they happen and rendered here, once. Only ApiError messages reach
 * clients; anything else is a 500 with the request id, and its details go to the log.
 */
import type { Context, Next } from 'koa';
import { ApiError, type ErrorCode } from '../../core/errors.ts';
import { STATUS_BY_CODE } from '../shared/status.ts';

interface HttpLikeError {
  status?: number;
  statusCode?: number;
  type?: string;
  expose?: boolean;
}

/** Errors raised by Koa middleware (body parsing) carry a status; translate the ones clients cause. */
function fromHttpError(error: unknown): ApiError | null {
  if (typeof error !== 'object' || error === null) return null;
  const e = error as HttpLikeError;
  const status = e.status ?? e.statusCode;
  if (status === 413 || e.type === 'entity.too.large') return new ApiError('PAYLOAD_TOO_LARGE', 'the request body is too large');
  if (status === 415) return new ApiError('UNSUPPORTED_MEDIA_TYPE', 'the request body must be application/json');
  if (status === 400 || e.type === 'entity.parse.failed') return new ApiError('BAD_REQUEST', 'the request body is not valid JSON');
  return null;
}

export function renderError(ctx: Context, error: ApiError): void {
  ctx.status = STATUS_BY_CODE[error.code];
  const body: Record<string, unknown> = { code: error.code, message: error.message };
  if (error.details !== undefined) body.details = error.details;
  ctx.body = { error: body, ...(error.extra ?? {}) };
  if (error.code === 'SCHEMA_MIGRATION_IN_PROGRESS') ctx.set('Retry-After', String(error.extra?.retryAfterSeconds ?? 30));
  if (error.code === 'UNAUTHORIZED') ctx.set('WWW-Authenticate', 'Bearer');
}

/** After the routes: an unanswered path is a 404 and the router's 405/501 get the envelope. */
function answerUnrouted(ctx: Context): void {
  if (ctx.status === 404 && ctx.body === undefined) {
    renderError(ctx, new ApiError('NOT_FOUND', `no route for ${ctx.method} ${ctx.path}`));
  } else if (ctx.status === 405 || ctx.status === 501) {
    // Set by the router's allowedMethods(): keep the status and the Allow header, give it the envelope.
    const allowed = ctx.response.get('Allow');
    const code: ErrorCode = ctx.status === 405 ? 'METHOD_NOT_ALLOWED' : 'NOT_IMPLEMENTED';
    const what = ctx.status === 405 ? 'is not allowed on' : 'is not implemented for';
    ctx.body = { error: { code, message: `method ${ctx.method} ${what} ${ctx.path}${allowed ? `; allowed: ${allowed}` : ''}` } };
  }
}

function answerFailure(ctx: Context, error: unknown): void {
  const known = error instanceof ApiError ? error : fromHttpError(error);
  if (known) {
    // The cause (a driver error behind a 503) goes to the request's log line, never the body.
    if (known.cause !== undefined) ctx.state.errorCause = known.cause;
    renderError(ctx, known);
    return;
  }
  ctx.state.error = error;
  const code: ErrorCode = 'INTERNAL_ERROR';
  ctx.status = 500;
  ctx.body = { error: { code, message: `internal error; request id ${String(ctx.state.requestId ?? '')}` } };
}

/**
 * Not an async function: the request's promise is chained once instead of awaited in a frame of
 * its own (every request passes here). A middleware that throws synchronously still fails the
 * promise: koa-compose turns a throw into a rejection.
 */
export function errorMiddleware() {
  return (ctx: Context, next: Next): Promise<void> =>
    next().then(
      () => answerUnrouted(ctx),
      (error: unknown) => answerFailure(ctx, error),
    );
}
