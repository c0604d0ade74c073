/** RATE_LIMIT_PER_MINUTE, REDIS_URL, REDIS_KEY_PREFIX and METRICS_TOKEN as server/config.ts reads them. */
import { describe, expect, it } from 'vitest';
import { readConfig, type Config } from '../../../server/config.ts';

const anyDir = (): undefined => undefined;

function configOf(env: Record<string, string>): Config {
  const result = readConfig(env, anyDir);
  if (!result.ok) throw new Error(result.problems.join('\n'));
  return result.config;
}

function problemsOf(env: Record<string, string>): readonly string[] {
  const result = readConfig(env, anyDir);
  return result.ok ? [] : result.problems;
}

describe('rate limit and metrics settings', () => {
  it('are off by default: no limit, /metrics open', () => {
    const config = configOf({});
    expect(config.rateLimit).toBeUndefined();
    expect(config.metricsToken).toBeUndefined();
  });

  it('RATE_LIMIT_PER_MINUTE alone counts in memory under the default prefix; with REDIS_URL in Redis', () => {
    expect(configOf({ RATE_LIMIT_PER_MINUTE: '600' }).rateLimit).toEqual({ perMinute: 600, keyPrefix: 'wdapi:' });
    expect(configOf({ RATE_LIMIT_PER_MINUTE: '60', REDIS_URL: 'redis://10.0.0.5:6379/2', REDIS_KEY_PREFIX: 'prod:' }).rateLimit).toEqual({ perMinute: 60, redisUrl: 'redis://10.0.0.5:6379/2', keyPrefix: 'prod:' });
  });

  it('a bad value is one line naming the variable, and secrets are not repeated', () => {
    const problems = problemsOf({ RATE_LIMIT_PER_MINUTE: '0', REDIS_URL: 'http://redis', REDIS_KEY_PREFIX: 'has space', METRICS_TOKEN: 'short-secret' });
    expect(problems.map((p) => p.split(':')[0])).toEqual(['REDIS_URL', 'REDIS_KEY_PREFIX', 'RATE_LIMIT_PER_MINUTE', 'METRICS_TOKEN']);
    expect(problems.join('\n')).not.toContain('short-secret');
    expect(problemsOf({ RATE_LIMIT_PER_MINUTE: 'many' })).toEqual(['RATE_LIMIT_PER_MINUTE: must be an integer from 1 to 1000000, got "many"']);
  });

  it('METRICS_TOKEN of 16 or more printable characters is kept', () => {
    expect(configOf({ METRICS_TOKEN: 'abcdefghijklmnop' }).metricsToken).toBe('abcdefghijklmnop');
  });
});
