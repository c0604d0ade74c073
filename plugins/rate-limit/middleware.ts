/**
 * Every limited request spends one unit of one budget (identity.ts). A request without a bearer
 * token spends its address's before it runs; one with a token spends its credential's once the
 * route verified it (chargeCredential, called by the routes' authentication); a token that never
 * verifies (refused, or a route that failed first) spends the address's when the request ends.
 * Probes and /metrics are never limited.
 */
import type { Context, Next } from 'koa';
import { ApiError } from '../../core/errors.ts';
import type { Principal } from '../auth/shared/auth-plugin.ts';
import { rateLimitHeaders } from './decision.ts';
import { addressKey, credentialKey } from './identity.ts';
import type { RequestLimiter } from './limiter.ts';

export const UNLIMITED_PATHS: ReadonlySet<string> = new Set(['/healthz', '/readyz', '/metrics']);

const CHARGED = 'rateLimitCharged';

async function charge(ctx: Context, limiter: RequestLimiter, key: string) {
  ctx.state[CHARGED] = true;
  const decision = await limiter.consume(key);
  ctx.set(rateLimitHeaders(decision));
  if (decision.allowed) return;
  throw new ApiError('RATE_LIMITED', `too many requests: at most ${decision.limit} per minute`);
}

/** Charges the verified credential; the request's first verification only. */
export async function chargeCredential(ctx: Context, limiter: RequestLimiter | undefined, principal: Principal): Promise<void> {
  if (!limiter || ctx.state[CHARGED] !== false) return;
  await charge(ctx, limiter, credentialKey(principal));
}

/** Sits inside the error middleware, so a refusal is rendered in the error envelope. */
export function rateLimitMiddleware(limiter: RequestLimiter) {
  return async (ctx: Context, next: Next): Promise<void> => {
    if (UNLIMITED_PATHS.has(ctx.path)) return next();
    ctx.state[CHARGED] = false;
    if (!ctx.get('authorization')) await charge(ctx, limiter, addressKey(ctx.ip));
    try {
      await next();
    } finally {
      // Charging can refuse: a refusal then replaces whatever the request ended with.
      if (ctx.state[CHARGED] === false) await charge(ctx, limiter, addressKey(ctx.ip));
    }
  };
}
