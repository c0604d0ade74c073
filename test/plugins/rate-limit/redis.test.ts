/**
 * Rate limits with counters in Redis (REDIS_URL): one limit across instances, and a Redis outage
 * that never takes the API down (DESIGN §16). Uses the shared Redis at 127.0.0.1:6379 under a
 * prefix of its own (deleted after), and a private redis-server it starts and kills.
 */
import type { ChildProcess } from 'node:child_process';
import { Redis } from 'ioredis';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN } from '../../support/harness.ts';
import { freePort as closedPort } from '../../support/free-port.ts';
import { expectError } from '../../support/http-expect.ts';
import { startRedis } from '../../support/redis-server.ts';
import { startLimited, uniquePrefix, type LimitedService } from './service.ts';

const SHARED_REDIS = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const LIMIT = 5;
const running: LimitedService[] = [];
const prefixes: string[] = [];

async function start(redisUrl: string, keyPrefix: string): Promise<LimitedService> {
  const limited = await startLimited({ perMinute: LIMIT, redisUrl, keyPrefix });
  running.push(limited);
  return limited;
}

async function deleteKeys(prefix: string): Promise<void> {
  const redis = new Redis(SHARED_REDIS);
  try {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
  } finally {
    redis.disconnect();
  }
}

afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
});
afterAll(async () => {
  for (const prefix of prefixes) await deleteKeys(prefix);
});

const listOrgs = (limited: LimitedService) => limited.call('GET', '/api/admin/v1/orgs', { token: ADMIN_TOKEN });

describe('counters in Redis', () => {
  it('two instances sharing Redis share the limit: the N+1st request on the second is refused', async () => {
    const prefix = uniquePrefix();
    prefixes.push(prefix);
    const [a, b] = [await start(SHARED_REDIS, prefix), await start(SHARED_REDIS, prefix)];
    const remaining: string[] = [];
    for (const instance of [a, a, a, b, b]) {
      const res = await listOrgs(instance);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      remaining.push(String(res.headers.get('ratelimit-remaining')));
    }
    expect(remaining).toEqual(['4', '3', '2', '1', '0']);
    const refused = await listOrgs(b);
    expectError(refused, 429, 'RATE_LIMITED');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // The counter is a Redis key under the configured prefix.
    const redis = new Redis(SHARED_REDIS);
    try {
      expect(await redis.keys(`${prefix}*`)).toEqual([`${prefix}ratelimit:admin`]);
    } finally {
      redis.disconnect();
    }
  }, 120_000);

  it('Redis unreachable from the start (a closed port): every request is served and a warning is logged', async () => {
    const limited = await start(`redis://127.0.0.1:${await closedPort()}`, uniquePrefix());
    for (let i = 0; i < LIMIT * 2; i++) expect((await listOrgs(limited)).status).toBe(200);
    expect(limited.logLines.some((line) => line.level === 40 && /rate limit/.test(String(line.msg)))).toBe(true);
  }, 120_000);
});

describe('Redis going away', () => {
  let server: ChildProcess | undefined;
  afterAll(() => {
    if (server?.exitCode === null) server.kill('SIGKILL');
  });

  it('counts while Redis is up; once it is killed requests still succeed (fail open) and the outage is logged', async () => {
    const port = await closedPort();
    server = await startRedis(port);
    const limited = await start(`redis://127.0.0.1:${port}`, uniquePrefix());
    const first = await listOrgs(limited);
    expect(first.status).toBe(200);
    expect(first.headers.get('ratelimit-remaining')).toBe(String(LIMIT - 1));
    server.kill('SIGKILL');
    await new Promise((resolve) => server?.once('exit', resolve));
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT * 2; i++) statuses.push((await listOrgs(limited)).status);
    expect(statuses).toEqual(Array(LIMIT * 2).fill(200));
    expect(limited.logLines.some((line) => line.level === 40 && /rate limit/.test(String(line.msg)))).toBe(true);
  }, 120_000);
});
