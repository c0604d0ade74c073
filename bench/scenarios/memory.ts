/**
 * Memory: the compiled service alone in a child process with its control store
 * on PostgreSQL (as production runs it), its RSS at idle after start and workspace set-up, then
 * its peak RSS (the kernel's VmHWM, reset before the load) while scenarios A-none, B-none, C and D
 * run against it one after the other. Targets: ≤ 130 MB idle, ≤ 160 MB under load.
 */
import { buildDist } from '../harness/build-dist.ts';
import { controlDatabaseName } from '../harness/control-db.ts';
import { removeCreatedOrders } from '../harness/dataset.ts';
import { sampleHttp } from '../harness/load.ts';
import { SCENARIOS } from '../harness/requests.ts';
import { startServiceProcess } from '../harness/service-process.ts';

export const TARGETS_MEMORY = { idleMb: 130, loadMb: 160 } as const;

const LOAD_SCENARIOS = ['A-none', 'B-none', 'C', 'D'] as const;
/** Long enough for the pools to fill and the caches to settle after start. */
const SETTLE_MS = 2_000;

export interface MemoryResult {
  readonly runtime: string;
  /** RSS after start and settling (not the peak during start, which `startPeakMb` is). */
  readonly idleMb: number;
  readonly startPeakMb: number;
  readonly idleHeapMb: number;
  /** Peak during the whole load, the kernel's VmHWM when it could be reset, else sampled every 10 ms. */
  readonly loadPeakMb: number;
  readonly requests: number;
  readonly pass: boolean;
}

export interface MemoryBench {
  readonly databaseUrl: string;
  readonly connections: number;
  /** Seconds of load per scenario. */
  readonly seconds: number;
  readonly log: (message: string) => void;
}

const mb = (bytes: number): number => bytes / (1024 * 1024);

export async function runMemory(bench: MemoryBench): Promise<MemoryResult> {
  const build = await buildDist();
  const compiled = 'child' in build ? build.child : null;
  if (!compiled) bench.log(`memory: ${'failure' in build ? build.failure : ''}; the TypeScript child runs instead`);
  const service = await startServiceProcess(bench.databaseUrl, compiled, controlDatabaseName('memory'));
  try {
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    // `read` before any `mark`: the RSS as it stands once settled, no GC forced on the idle process.
    const idle = await service.read();
    await service.mark();
    let requests = 0;
    for (const id of LOAD_SCENARIOS) {
      const scenario = SCENARIOS.find((s) => s.id === id);
      if (!scenario) continue;
      bench.log(`memory: ${id} for ${bench.seconds}s`);
      const sample = await sampleHttp({
        url: service.url, apiKey: service.apiKey, connections: bench.connections, method: scenario.method,
        path: service.records(scenario.path), ...(scenario.body ? { body: scenario.body } : {}), warmup: 0, duration: bench.seconds, firstIndex: 0,
      });
      requests += sample.latencies.length;
    }
    const load = await service.read();
    const idleMb = mb(idle.rss);
    const loadPeakMb = mb(load.peakRss);
    return {
      runtime: compiled ? 'compiled (node dist/bench/harness/service-child.js)' : 'tsx (the build failed)',
      idleMb, startPeakMb: mb(idle.sampledPeakRss), idleHeapMb: mb(idle.heapUsed), loadPeakMb, requests,
      pass: idleMb <= TARGETS_MEMORY.idleMb && loadPeakMb <= TARGETS_MEMORY.loadMb,
    };
  } finally {
    await service.close();
    await removeCreatedOrders(bench.databaseUrl);
  }
}

export function formatMemory(result: MemoryResult): string {
  return [
    `memory (${result.runtime}, control store on PostgreSQL)`,
    `  idle RSS after start                ${result.idleMb.toFixed(0)} MB  (target <= ${TARGETS_MEMORY.idleMb}; V8 heap in use ${result.idleHeapMb.toFixed(0)} MB, peak during start ${result.startPeakMb.toFixed(0)} MB)`,
    `  peak RSS under A-none, B-none, C, D  ${result.loadPeakMb.toFixed(0)} MB  (target <= ${TARGETS_MEMORY.loadMb}; ${result.requests} requests)`,
    `  verdict ${result.pass ? 'PASS' : 'FAIL'}`,
  ].join('\n');
}
