/**
 * Rate limits as deployed (DESIGN §16): three compiled instances behind HAProxy with
 * RATE_LIMIT_PER_MINUTE=N. With REDIS_URL on the shared Redis (under a key prefix of this run,
 * deleted after) one API key gets N answers in a minute across the three, not 3N; with a private
 * redis-server that the test then stops, requests still succeed (fail open).
 */
import type { ChildProcess } from 'node:child_process';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/free-port.ts';
import type { ApiResponse } from '../support/harness.ts';
import { expectError } from '../support/http-expect.ts';
import { deleteRedisKeys, startRedis } from '../support/redis-server.ts';
import { postgresTarget, vendorsToRun } from '../support/vendors.ts';
import { scrape } from '../plugins/metrics/scrape.ts';
import { uniquePrefix } from '../plugins/rate-limit/service.ts';
import { clusterSkipReason, startCluster, type Cluster } from './cluster.ts';
import { createControlDatabase, createWorkspace, type ClusterWorkspace, type ControlDatabase } from './workspace.ts';

const skipReason = clusterSkipReason() ?? ((await vendorsToRun([postgresTarget])).length === 0 ? 'skipped: PostgreSQL at 127.0.0.1:5432 is unreachable' : undefined);
if (skipReason) console.warn(`test/cluster: ${skipReason}`);

const SHARED_REDIS = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const LIMIT = 12;


describe.skipIf(skipReason !== undefined)(`a rate limit across three instances behind HAProxy${skipReason ? ` (${skipReason})` : ''}`, () => {
  const prefix = uniquePrefix();
  let control: ControlDatabase;
  let cluster: Cluster | undefined;
  let ws: ClusterWorkspace;
  let redis: ChildProcess | undefined;
  const limited = (redisUrl: string, keyPrefix: string) => ({ RATE_LIMIT_PER_MINUTE: String(LIMIT), REDIS_URL: redisUrl, REDIS_KEY_PREFIX: keyPrefix });
  const list = () => ws.records(balancerUrl(), 'GET', '/orders?size=1');
  const balancerUrl = () => cluster?.balancer.url ?? 'http://127.0.0.1:1';
  /** Three instances with `env` in place of whatever ran before. */
  async function restart(env: Record<string, string>): Promise<Cluster> {
    await cluster?.stop();
    cluster = undefined;
    cluster = await startCluster(control.url, env);
    return cluster;
  }

  beforeAll(async () => {
    control = await createControlDatabase('wdapi_cluster');
  });

  afterAll(async () => {
    await cluster?.stop();
    if (redis && redis.exitCode === null && redis.signalCode === null) redis.kill('SIGKILL');
    await ws?.db.drop();
    await control?.drop();
    await deleteRedisKeys(SHARED_REDIS, prefix);
  });

  it(`with Redis shared: one key gets ${LIMIT} answers, then 429 from every instance`, async () => {
    const cluster = await restart(limited(SHARED_REDIS, prefix));
    ws = await createWorkspace(cluster.balancer.url);
    const answers: ApiResponse[] = [];
    for (let i = 0; i < LIMIT * 3; i++) answers.push(await list());
    const servedBy = (status: number) => [...new Set(answers.filter((a) => a.status === status).map((a) => a.headers.get('x-served-by')))].sort();
    const allowed = answers.filter((a) => a.status === 200);
    const refused = answers.filter((a) => a.status === 429);
    console.log(`shared Redis, limit ${LIMIT}/min: ${allowed.length} allowed (by ${servedBy(200).join(', ')}), ${refused.length} refused (by ${servedBy(429).join(', ')})`);
    expect(answers.map((a) => a.status)).toEqual([...Array(LIMIT).fill(200), ...Array(LIMIT * 2).fill(429)]);
    // One counter: the remaining budget falls by one per request whichever instance answers.
    expect(allowed.map((a) => Number(a.headers.get('ratelimit-remaining')))).toEqual(Array.from({ length: LIMIT }, (_, i) => LIMIT - 1 - i));
    expect(servedBy(200)).toEqual(['i1', 'i2', 'i3']);
    expect(servedBy(429)).toEqual(['i1', 'i2', 'i3']);
    for (const answer of refused) {
      expectError(answer, 429, 'RATE_LIMITED');
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    }
    const refusals = (await Promise.all(cluster.instances.map((i) => scrape(i.url)))).reduce((sum, m) => sum + m.total('wdapi_rate_limit_refusals_total'), 0);
    expect(refusals).toBe(LIMIT * 2);
    const client = new Redis(SHARED_REDIS);
    try {
      expect((await client.keys(`${prefix}*`)).length).toBeGreaterThan(0);
    } finally {
      client.disconnect();
    }
  }, 120_000);

  it('with a private Redis that stops: every request is still answered (fail open) and each instance logs it', async () => {
    const port = await freePort();
    redis = await startRedis(port);
    const cluster = await restart(limited(`redis://127.0.0.1:${port}`, uniquePrefix()));
    const counted = await list();
    expect(counted.status).toBe(200);
    expect(counted.headers.get('ratelimit-remaining')).toBe(String(LIMIT - 1));
    const gone = new Promise((resolve) => redis?.once('exit', resolve));
    redis.kill('SIGTERM');
    await gone;
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT * 3; i++) statuses.push((await list()).status);
    console.log(`private Redis stopped, limit ${LIMIT}/min: ${statuses.filter((s) => s === 200).length} of ${statuses.length} answered 200`);
    expect(statuses).toEqual(Array(LIMIT * 3).fill(200));
    for (const instance of cluster.instances) expect(instance.output(), instance.name).toMatch(/rate limit: (Redis unreachable|counter store failed)/);
  }, 120_000);
});
