/**
 * At most `limit` data requests of one credential at a time on this instance (DESIGN §11,
 * CONCURRENT_PER_CREDENTIAL): each runs its statements one after another, so a credential holds at
 * most `limit` of a workspace's pooled connections and cannot take the whole pool. One more is
 * 429 RATE_LIMITED with `Retry-After: 1`.
 *
 * A request takes its place once its credential is verified and authorised for the workspace, and
 * gives it back when its response closes: finished, or the client gone, and a streamed export only
 * when its stream ends. The count is per instance (a balancer spreads a credential's requests, and
 * each instance has its own pools). Cheap on the hot path: a Map get and set and one listener on the
 * response's 'close', no promise.
 */
import type { Context } from 'koa';
import { ApiError } from '../../core/errors.ts';
import type { Principal } from '../auth/shared/auth-plugin.ts';
import { credentialKey } from './identity.ts';

/** Seconds a refused client is told to wait: a data request usually ends well within one. */
const RETRY_AFTER_SECONDS = 1;

/** Set on a request that holds a place, so that a second access check in it does not take another. */
const HOLDS_PLACE = 'concurrentPlace';

export class ConcurrentRequests {
  private readonly running = new Map<string, number>();

  constructor(readonly limit: number) {}

  /** Takes a place for `principal` until the response closes; 429 when all of its places are taken. */
  enter(ctx: Context, principal: Principal): void {
    if (ctx.state[HOLDS_PLACE] === true) return;
    const key = credentialKey(principal);
    const running = this.running.get(key) ?? 0;
    if (running >= this.limit) {
      ctx.set('Retry-After', String(RETRY_AFTER_SECONDS));
      throw new ApiError('RATE_LIMITED', `too many requests at once: a credential runs at most ${this.limit} at a time`, undefined, { retryAfterSeconds: RETRY_AFTER_SECONDS });
    }
    this.running.set(key, running + 1);
    ctx.state[HOLDS_PLACE] = true;
    // 'close' comes once for every response, finished or cut, so the place is always given back.
    ctx.res.on('close', () => this.leave(key));
  }

  private leave(key: string): void {
    const running = (this.running.get(key) ?? 1) - 1;
    if (running > 0) this.running.set(key, running);
    else this.running.delete(key);
  }
}
