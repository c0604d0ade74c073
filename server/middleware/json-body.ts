/**
 * JSON bodies only (spec: all request bodies are application/json); anything else is 415.
 * The body is read as bytes and decoded here rather than by koa-body, whose UTF-8 decoder drops a
 * byte order mark and turns bytes that are not UTF-8 into U+FFFD without a word: a body in another
 * encoding would be stored garbled. JSON is UTF-8 (RFC 8259 §8.1), without a BOM.
 */
import bourne from '@hapi/bourne';
import inflate from 'inflation';
import type { Context, Next } from 'koa';
import getRawBody from 'raw-body';
import { ApiError, badRequest } from '../../core/errors.ts';

const UTF8_LABELS = ['utf-8', 'utf8'];

export function hasBody(ctx: Context): boolean {
  return Number(ctx.get('content-length') || 0) > 0 || ctx.get('transfer-encoding') !== '';
}

/** A charset parameter other than UTF-8 is refused before a byte is read. */
function checkCharset(ctx: Context): void {
  const charset = ctx.request.charset;
  if (charset !== '' && !UTF8_LABELS.includes(charset.toLowerCase())) {
    throw badRequest(`the request body must be JSON in UTF-8; charset '${charset}' is not supported`);
  }
}

function inflated(ctx: Context): NodeJS.ReadableStream {
  try {
    return inflate(ctx.req);
  } catch {
    throw new ApiError('UNSUPPORTED_MEDIA_TYPE', `Content-Encoding '${ctx.get('content-encoding')}' is not supported; use gzip, deflate, br or none`);
  }
}

/** Reads the (inflated) body, at most `limitBytes` of it; raw-body's 413 is rendered by the error middleware. */
export async function readBytes(ctx: Context, limitBytes: number): Promise<Buffer> {
  const identity = (ctx.get('content-encoding') || 'identity') === 'identity';
  const length = identity && ctx.get('content-length') ? Number(ctx.get('content-length')) : undefined;
  return getRawBody(inflated(ctx), { limit: limitBytes, ...(length !== undefined ? { length } : {}) });
}

const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export function decodeUtf8(bytes: Buffer): string {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) throw badRequest('the request body must not start with a byte order mark (JSON is UTF-8 without one)');
  try {
    return decoder.decode(bytes);
  } catch {
    throw badRequest('the request body is not valid UTF-8');
  }
}

export function parseJson(text: string): unknown {
  try {
    // bourne refuses `__proto__` keys, as koa-body did: no body may set an object's prototype.
    return bourne.parse(text, { protoAction: 'error' });
  } catch {
    throw badRequest('the request body is not valid JSON');
  }
}

export function jsonBody(limitBytes: number) {
  return async (ctx: Context, next: Next): Promise<void> => {
    if (!hasBody(ctx)) {
      ctx.request.body = undefined;
      return next();
    }
    // The type nearly every client sends needs no media-type parsing (and names no charset).
    if (ctx.req.headers['content-type'] !== 'application/json') {
      if (!ctx.is('application/json', '+json')) throw new ApiError('UNSUPPORTED_MEDIA_TYPE', 'the request body must be application/json');
      checkCharset(ctx);
    }
    const text = decodeUtf8(await readBytes(ctx, limitBytes));
    // The body's type is koa's declaration; JSON.parse yields exactly that.
    ctx.request.body = (text === '' ? undefined : parseJson(text)) as typeof ctx.request.body;
    return next();
  };
}
