/**
 * The request limiter (DESIGN §16): RATE_LIMIT_PER_MINUTE requests per key and minute, counted in
 * Redis when REDIS_URL is set (shared by every instance) and in process memory otherwise.
 * A Redis outage never refuses or fails a request: the limiter answers "allowed" and logs it.
 */
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { LimitDecision } from './decision.ts';
import { DEFAULT_KEY_PREFIX, type RateLimitOptions } from './options.ts';

export { DEFAULT_KEY_PREFIX, type RateLimitOptions } from './options.ts';

export interface RequestLimiter {
  consume(key: string): Promise<LimitDecision>;
  /**
   * Settles once the counter store answered its first connection attempt, either way, or after
   * READY_WAIT_MS: until Redis is ready requests are allowed uncounted, so a start waits a moment
   * for it, but an outage never holds the start.
   */
  ready(): Promise<void>;
  close(): Promise<void>;
}

const WINDOW_SECONDS = 60;
const READY_WAIT_MS = 2000;
/** How often an ongoing store outage is logged again. */
const OUTAGE_LOG_EVERY_MS = 10_000;

/** ioredis loads only for a Redis store: a service without REDIS_URL never needs it. */
async function redisClient(url: string, logger: Logger): Promise<Redis> {
  const { Redis } = await import('ioredis');
  // No offline queue: while Redis is away a command fails at once instead of holding the request.
  const client = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1, retryStrategy: (times) => Math.min(times * 200, 5000) });
  let lastLogged = 0;
  client.on('error', (error: Error) => {
    if (Date.now() - lastLogged < OUTAGE_LOG_EVERY_MS) return;
    lastLogged = Date.now();
    logger.warn({ err: error.message }, 'rate limit: Redis unreachable, requests are not limited meanwhile');
  });
  return client;
}

function firstAnswer(client: Redis): Promise<void> {
  if (client.status === 'ready') return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(done, READY_WAIT_MS);
    client.once('ready', done);
    client.once('error', done);
    function done(): void {
      clearTimeout(timer);
      client.off('ready', done);
      client.off('error', done);
      resolve();
    }
  });
}

function decisionOf(res: RateLimiterRes, limit: number, allowed: boolean): LimitDecision {
  return { allowed, limit, remaining: res.remainingPoints, resetMs: res.msBeforeNext };
}

export async function createRequestLimiter(options: RateLimitOptions, logger: Logger): Promise<RequestLimiter> {
  const limit = options.perMinute;
  const keyPrefix = `${options.keyPrefix ?? DEFAULT_KEY_PREFIX}ratelimit`;
  const client = options.redisUrl ? await redisClient(options.redisUrl, logger) : undefined;
  const store: RateLimiterAbstract = client
    ? new RateLimiterRedis({ storeClient: client, points: limit, duration: WINDOW_SECONDS, keyPrefix, rejectIfRedisNotReady: true })
    : new RateLimiterMemory({ points: limit, duration: WINDOW_SECONDS, keyPrefix });
  let lastOutageLog = 0;
  const failOpen = (error: unknown): LimitDecision => {
    if (Date.now() - lastOutageLog >= OUTAGE_LOG_EVERY_MS) {
      lastOutageLog = Date.now();
      logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'rate limit: counter store failed, request allowed');
    }
    return { allowed: true, limit, remaining: limit, resetMs: WINDOW_SECONDS * 1000 };
  };
  return {
    async consume(key) {
      try {
        return decisionOf(await store.consume(key), limit, true);
      } catch (rejection) {
        // The library rejects with a RateLimiterRes when the key is over its limit, an Error when the store failed.
        if (rejection instanceof RateLimiterRes) return decisionOf(rejection, limit, false);
        return failOpen(rejection);
      }
    },
    ready: () => (client ? firstAnswer(client) : Promise.resolve()),
    async close() {
      if (client) client.disconnect();
    },
  };
}

/** The same limiter, telling `onRefused` about every refusal (the metrics' refusal counter). */
export function observedLimiter(limiter: RequestLimiter, onRefused: () => void): RequestLimiter {
  return {
    async consume(key) {
      const decision = await limiter.consume(key);
      if (!decision.allowed) onRefused();
      return decision;
    },
    ready: () => limiter.ready(),
    close: () => limiter.close(),
  };
}
