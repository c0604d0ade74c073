/**
 * The body of the OAuth token request: `application/x-www-form-urlencoded` (RFC 6749 §4.4.2) or,
 * as before, JSON; any other type gives an empty body, which the endpoint answers with its own
 * OAuth error. Read by the JSON body's reader (limit, UTF-8, content encodings) and parsed by
 * URLSearchParams, instead of koa-body, whose zod and formidable the service loaded only for this
 * (about 5 MB of heap and 10 MB of RSS at idle).
 */
import type { Context, Next } from 'koa';
import { decodeUtf8, hasBody, parseJson, readBytes } from './json-body.ts';

/**
 * The form's fields; a repeated one becomes an array, so that it fails the endpoint's string checks
 * (RFC 6749 §3.2: parameters MUST NOT be included more than once). The object has no prototype,
 * so a field named `toString` or `__proto__` finds nothing before it.
 */
function formFields(text: string): Record<string, string | string[]> {
  const fields: Record<string, string | string[]> = Object.create(null) as Record<string, string | string[]>;
  for (const [key, value] of new URLSearchParams(text)) {
    const before = fields[key];
    fields[key] = before === undefined ? value : [...(Array.isArray(before) ? before : [before]), value];
  }
  return fields;
}

export function tokenFormBody(limitBytes: number) {
  return async (ctx: Context, next: Next): Promise<void> => {
    const form = ctx.is('application/x-www-form-urlencoded');
    const json = !form && ctx.is('application/json', '+json');
    if (!hasBody(ctx) || (!form && !json)) {
      ctx.request.body = {};
      return next();
    }
    const text = decodeUtf8(await readBytes(ctx, limitBytes));
    ctx.request.body = (form ? formFields(text) : text === '' ? {} : parseJson(text)) as typeof ctx.request.body;
    return next();
  };
}
