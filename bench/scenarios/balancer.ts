/**
 * J, a load balancer: scenario A through HAProxy (Debian's package) in front of two compiled
 * instances, beside one of those instances asked directly. On a 2-core machine that shows the
 * balancer's overhead, not scaling. The servers are child processes, so their CPU is read from
 * /proc: the instance for the direct side, both instances and HAProxy for the balanced side.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { ADMIN_TOKEN } from '../../test/support/harness.ts';
import { startCluster, type Cluster } from '../../test/cluster/cluster.ts';
import { haproxyInstalled } from '../../test/cluster/haproxy.ts';
import { dropControlDatabase, freshControlDatabase } from '../harness/control-db.ts';
import { cpuDelta, formatBaseComparison, type BaseComparison } from '../harness/report-comparison.ts';
import { scenarioById, type Scenario } from '../harness/requests.ts';
import { ORG, WS } from '../harness/service.ts';
import { httpSide, measureSides, type HttpRequest, type Side, type SideResult } from '../harness/sides.ts';
import type { InProcessBench } from './against-floor.ts';

const ADMIN_URL = process.env.PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
/** A control database of its own, dropped after: the bench's other services keep theirs. */
const CLUSTER_CONTROL = 'wdapi_bench_cluster_control';

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

export async function runBalanced(bench: InProcessBench): Promise<BaseComparison | string> {
  if (!haproxyInstalled()) return 'skipped: HAProxy is not installed (apt-get install -y haproxy)';
  let cluster: Cluster | undefined;
  try {
    cluster = await startCluster(await freshControlDatabase(ADMIN_URL, CLUSTER_CONTROL), {}, 2);
    const apiKey = await benchWorkspace(cluster.balancer.url, bench.databaseUrl);
    const [first, second] = cluster.instances;
    if (!first || !second) throw new Error('J: two instances expected');
    const a = scenarioById('A');
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

export function formatBalanced(result: BaseComparison | string): string[] {
  return formatBaseComparison(result, 'J', (ratio, r) => `through HAProxy: ${ratio.toFixed(2)}x the req/s of one instance direct, ${cpuDelta(r)} (both instances and HAProxy counted)`);
}
