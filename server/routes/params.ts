/** Small helpers every route module shares. */
import type { Context } from 'koa';
import { notFound } from '../../core/errors.ts';
import { hasBadText } from '../../core/schema/coerce.ts';
import type { Services } from '../shared/services.ts';

/** True when a raw path segment is not valid percent-encoded UTF-8 (the router then hands it over undecoded). */
function malformedSegment(segment: string): boolean {
  try {
    decodeURIComponent(segment);
    return false;
  } catch {
    return true;
  }
}

/**
 * A path parameter ('' when absent; the routes' own lookups then answer 404). No org, workspace,
 * view, column, record or job can be named by a NUL or a lone surrogate (no vendor stores them),
 * nor by a segment that is not UTF-8: such a name is 404 here, before it reaches a query.
 */
export function param(ctx: Context, name: string): string {
  const value = (ctx.params as Record<string, string | undefined>)[name] ?? '';
  if (hasBadText(value)) throw notFound(`'${name}' names nothing: the path holds a NUL or a character that is not valid UTF-8`);
  // The router leaves a segment that fails to decode as it came, so only then is the raw path looked at.
  if (value.includes('%') && ctx.path.split('/').some(malformedSegment)) throw notFound(`'${name}' names nothing: the path is not valid percent-encoded UTF-8`);
  return value;
}
