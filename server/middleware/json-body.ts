/** JSON bodies only (spec: all request bodies are application/json); anything else is 415. */
import type { Context, Next } from 'koa';
import { koaBody } from 'koa-body';
import { ApiError } from '../../core/errors.ts';

function hasBody(ctx: Context): boolean {
  return Number(ctx.get('content-length') || 0) > 0 || ctx.get('transfer-encoding') !== '';
}

export function jsonBody(limitBytes: number) {
  const parse = koaBody({ json: true, urlencoded: false, text: false, multipart: false, jsonLimit: limitBytes, jsonStrict: false });
  return async (ctx: Context, next: Next): Promise<void> => {
    if (!hasBody(ctx)) {
      ctx.request.body = undefined;
      return next();
    }
    if (!ctx.is('application/json', '+json')) throw new ApiError('UNSUPPORTED_MEDIA_TYPE', 'the request body must be application/json');
    await parse(ctx, next);
  };
}
