/**
 * K, rate limiting: scenario C with RATE_LIMIT_PER_MINUTE on and its counters in Redis (REDIS_URL,
 * default the local 127.0.0.1:6379, under a key prefix of this run, deleted after), beside the
 * bench's service without a limit; both in this process, so harness/sides.ts counts their CPU.
 * Figures only: the cost against the bound is printed, never asserted.
 */
import { Redis } from 'ioredis';
import { deleteRedisKeys } from '../../test/support/redis-server.ts';
import { dropControlDatabase } from '../harness/control-db.ts';
import { formatBaseComparison, cpuDelta, type BaseComparison } from '../harness/report-comparison.ts';
import { scenarioById, type Scenario } from '../harness/requests.ts';
import { ORG, startBenchService, WS } from '../harness/service.ts';
import { httpSide, measureSides, type HttpRequest } from '../harness/sides.ts';
import type { InProcessBench } from './against-floor.ts';

/** The design's bound on what rate limiting with Redis may cost scenario C's req/s. */
export const RATE_LIMIT_COST_BOUND = 0.1;

const ADMIN_URL = process.env.PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
/** A control database of its own, dropped after: the bench's other services keep theirs. */
const LIMITED_CONTROL = 'wdapi_bench_ratelimit_control';
/** High enough that the bench never reaches it: K measures the counting, not refusals. */
const UNREACHED_LIMIT = 1_000_000;

const request = (s: Scenario): HttpRequest => ({ method: s.method, path: `/api/v1/${ORG}/${WS}${s.path}`, ...(s.body ? { body: s.body } : {}) });

async function redisAnswers(redisUrl: string): Promise<boolean> {
  const redis = new Redis(redisUrl, { lazyConnect: true, retryStrategy: () => null, maxRetriesPerRequest: 0 });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    return (await redis.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    redis.disconnect();
  }
}

export async function runRateLimited(bench: InProcessBench): Promise<BaseComparison | string> {
  const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  if (!(await redisAnswers(redisUrl))) return `skipped: no Redis answers at ${redisUrl}`;
  const keyPrefix = `wdapi-bench-${process.pid}-${Date.now()}:`;
  const limited = await startBenchService(bench.databaseUrl, LIMITED_CONTROL, 'postgres', { rateLimit: { perMinute: UNREACHED_LIMIT, redisUrl, keyPrefix } });
  try {
    const c = scenarioById('C');
    const target = { connections: bench.connections };
    const sides = [
      httpSide('service', { ...target, url: bench.service.url, apiKey: bench.service.apiKey }, request(c)),
      httpSide('service, rate limit in Redis', { ...target, url: limited.url, apiKey: limited.apiKey }, request(c)),
    ];
    const [base, subject] = await measureSides(sides, bench.timing, (m) => bench.log(`K ${m}`));
    if (!base || !subject) throw new Error('K: a side was not measured');
    return { id: 'K', label: `scenario C (${c.label}) with RATE_LIMIT_PER_MINUTE=${UNREACHED_LIMIT} and REDIS_URL vs without`, base, subject };
  } finally {
    await limited.service.close();
    await dropControlDatabase(ADMIN_URL, LIMITED_CONTROL);
    await deleteRedisKeys(redisUrl, keyPrefix);
  }
}

export function formatRateLimited(result: BaseComparison | string): string[] {
  return formatBaseComparison(result, 'K', (ratio, r) =>
    `rate limiting costs ${((1 - ratio) * 100).toFixed(1)}% of req/s (bound ${RATE_LIMIT_COST_BOUND * 100}%: ${1 - ratio <= RATE_LIMIT_COST_BOUND ? 'within' : 'OVER'}), ${cpuDelta(r)}`);
}
