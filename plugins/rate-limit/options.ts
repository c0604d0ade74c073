/** What RATE_LIMIT_PER_MINUTE configures; apart from the limiter so that reading the environment loads no Redis client. */
export interface RateLimitOptions {
  readonly perMinute: number;
  /** Counters in Redis when set; otherwise in this process. */
  readonly redisUrl?: string;
  /** Prefix of every Redis key this service writes (REDIS_KEY_PREFIX). */
  readonly keyPrefix?: string;
}

export const DEFAULT_KEY_PREFIX = 'wdapi:';
