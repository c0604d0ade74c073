/**
 * Issue 18's scenarios (bench/scenarios18.ts):
 * J scenario A through HAProxy (Debian's package) in front of two compiled instances, beside one
 *   of those instances asked directly. On a 2-core machine that shows the balancer's overhead,
 *   not scaling. The servers are child processes, so their CPU is read from /proc: the instance
 *   for the direct side, both instances and HAProxy for the balanced side.
 * K scenario C with RATE_LIMIT_PER_MINUTE on and its counters in Redis (REDIS_URL, default the
 *   local 127.0.0.1:6379, under a key prefix of this run, deleted after), beside the bench's
 *   service without a limit; both in this process, so compare.ts counts their CPU.
 * Figures only: the cost against the 10% bound is printed, never asserted.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Redis } from 'ioredis';
import { deleteRedisKeys } from '../../test/support/redis-server.ts';
import { ADMIN_TOKEN } from '../../test/support/harness.ts';
import { startCluster, type Cluster } from '../../test/cluster/cluster.ts';
import { haproxyInstalled } from '../../test/cluster/haproxy.ts';
import { httpSide, measureSides, type HttpRequest, type Side, type SideResult } from '../harness/sides.ts';
import { dropControlDatabase, freshControlDatabase } from '../harness/control-db.ts';
import type { Bench16 } from './aggregate.ts';
import { SCENARIOS, type Scenario } from '../harness/requests.ts';
import { RATE_LIMIT_COST_BOUND, type Group18 } from './rate-limit.ts';
import { ORG, startBenchService, WS } from '../harness/service.ts';

export interface Comparison18 {
  readonly id: Group18;
  readonly label: string;
  readonly base: SideResult;
  readonly subject: SideResult;
}

export interface Results18 {
  readonly J: Comparison18 | string | null;
  readonly K: Comparison18 | string | null;
}

const ADMIN_URL = process.env.PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
/** Control databases of their own, dropped after: the bench's other services keep theirs. */
const CLUSTER_CONTROL = 'wdapi_bench_cluster_control';
const LIMITED_CONTROL = 'wdapi_bench_ratelimit_control';
/** High enough that the bench never reaches it: K measures the counting, not refusals. */
const UNREACHED_LIMIT = 1_000_000;

function scenario(id: 'A' | 'C'): Scenario {
  const found = SCENARIOS.find((s) => s.id === id);
  if (!found) throw new Error(`scenario ${id} is not defined`);
  return found;
}

const request = (s: Scenario): HttpRequest => ({ method: s.method, path: `/api/v1/${ORG}/${WS}${s.path}`, ...(s.body ? { body: s.body } : {}) });

const TICKS_PER_SECOND = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

/** user + system CPU of `pid` so far, in µs (fields 14 and 15 of /proc/<pid>/stat). */
function processCpuMicros(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1_000_000) / TICKS_PER_SECOND;
}

/** `side`, also counting the CPU of `pids` over its timed samples (the first call is the warm-up when `warmup`). */
function withChildCpu(side: Side, pids: readonly number[], warmup: boolean): { side: Side; micros: () => number } {
  let calls = 0;
  let micros = 0;
  const total = () => pids.reduce((sum, pid) => sum + processCpuMicros(pid), 0);
  return {
    micros: () => micros,
    side: {
      label: side.label,
      async sample(seconds, firstIndex) {
        const before = total();
        const sample = await side.sample(seconds, firstIndex);
        if (!(warmup && calls === 0)) micros += total() - before;
        calls += 1;
        return sample;
      },
    },
  };
}

async function adminPost(url: string, path: string, body: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(`${url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const parsed = (await response.json()) as { data?: Record<string, unknown> };
  if (response.status !== 201) throw new Error(`POST ${path} answered ${response.status}: ${JSON.stringify(parsed)}`);
  return parsed.data ?? {};
}

/** Org, workspace on the bench database and an API key, created through `url`; the key. */
async function benchWorkspace(url: string, databaseUrl: string): Promise<string> {
  await adminPost(url, '/api/admin/v1/orgs', { slug: ORG, name: ORG });
  await adminPost(url, `/api/admin/v1/orgs/${ORG}/workspaces`, { slug: WS, name: WS, database: { vendor: 'postgres', url: databaseUrl, schema: 'public' } });
  return String((await adminPost(url, `/api/admin/v1/orgs/${ORG}/workspaces/${WS}/api-keys`, { name: 'bench' })).key);
}

async function runBalanced(bench: Bench16): Promise<Comparison18 | string> {
  if (!haproxyInstalled()) return 'skipped: HAProxy is not installed (apt-get install -y haproxy)';
  let cluster: Cluster | undefined;
  try {
    cluster = await startCluster(await freshControlDatabase(ADMIN_URL, CLUSTER_CONTROL), {}, 2);
    const apiKey = await benchWorkspace(cluster.balancer.url, bench.databaseUrl);
    const [first, second] = cluster.instances;
    if (!first || !second) throw new Error('J: two instances expected');
    const a = scenario('A');
    const target = { apiKey, connections: bench.connections };
    const warmup = bench.timing.warmup > 0;
    const direct = withChildCpu(httpSide('one instance, direct', { ...target, url: first.url }, request(a)), [first.process.pid ?? -1], warmup);
    const balanced = withChildCpu(httpSide('HAProxy, two instances', { ...target, url: cluster.balancer.url }, request(a)), [first.process.pid ?? -1, second.process.pid ?? -1, cluster.balancer.pid], warmup);
    const [base, subject] = await measureSides([direct.side, balanced.side], bench.timing, (m) => bench.log(`J ${m}`));
    if (!base || !subject) throw new Error('J: a side was not measured');
    const perRequest = (result: SideResult, micros: number) => ({ ...result, cpuMicros: micros / Math.max(1, result.requests + result.errors) });
    return { id: 'J', label: `scenario A (${a.label}) through HAProxy vs one instance direct`, base: perRequest(base, direct.micros()), subject: perRequest(subject, balanced.micros()) };
  } finally {
    await cluster?.stop();
    await dropControlDatabase(ADMIN_URL, CLUSTER_CONTROL);
  }
}

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

async function runRateLimited(bench: Bench16): Promise<Comparison18 | string> {
  const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  if (!(await redisAnswers(redisUrl))) return `skipped: no Redis answers at ${redisUrl}`;
  const keyPrefix = `wdapi-bench-${process.pid}-${Date.now()}:`;
  const limited = await startBenchService(bench.databaseUrl, LIMITED_CONTROL, 'postgres', { rateLimit: { perMinute: UNREACHED_LIMIT, redisUrl, keyPrefix } });
  try {
    const c = scenario('C');
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

export async function runIssue18(bench: Bench16, groups: readonly Group18[]): Promise<Results18> {
  const J = groups.includes('J') ? await runBalanced(bench) : null;
  const K = groups.includes('K') ? await runRateLimited(bench) : null;
  return { J, K };
}

function row(result: SideResult): string {
  const errors = result.errors > 0 ? `, ${result.errors} errors` : '';
  return `${result.label.padEnd(30)} ${result.rps.toFixed(0).padStart(7)} req/s  p50 ${result.p50.toFixed(1)} ms  p99 ${result.p99.toFixed(1)} ms  server CPU ${result.cpuMicros.toFixed(0)} µs/request${errors}`;
}

function formatComparison(result: Comparison18 | string | null, id: Group18): string[] {
  if (result === null) return [];
  if (typeof result === 'string') return [`${id}: ${result}`];
  const ratio = result.subject.rps / result.base.rps;
  const cpu = result.subject.cpuMicros - result.base.cpuMicros;
  const cpuDelta = `${cpu >= 0 ? '+' : ''}${cpu.toFixed(0)} µs server CPU per request`;
  const verdict =
    id === 'K'
      ? `rate limiting costs ${((1 - ratio) * 100).toFixed(1)}% of req/s (bound ${RATE_LIMIT_COST_BOUND * 100}%: ${1 - ratio <= RATE_LIMIT_COST_BOUND ? 'within' : 'OVER'}), ${cpuDelta}`
      : `through HAProxy: ${ratio.toFixed(2)}x the req/s of one instance direct, ${cpuDelta} (both instances and HAProxy counted)`;
  return [`${id}: ${result.label}`, `   ${row(result.base)}`, `   ${row(result.subject)}`, `   ${verdict}`];
}

export function formatIssue18(results: Results18): string {
  return ['Issue 18 (many instances; figures from a machine shared with other work)', ...formatComparison(results.J, 'J'), ...formatComparison(results.K, 'K')].join('\n');
}
