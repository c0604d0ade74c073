/**
 * A/B tool for the service's CPU per request against the Koa floor (not part of `npm run bench`,
 * whose verdicts keep the alternating rounds its targets were set against):
 *
 *   SC=D ROUNDS=10 SECS=4 npx tsx bench/tools/side-by-side.ts      (SC: A-none, B-none, C, D or G)
 *
 * The service and the floor run in two processes, under load at the same time, and each one's
 * CPU comes from /proc. Both see the same moment of this shared machine: D's per-round ratios
 * stayed within 1.11–1.22 over 10 rounds, where alternating rounds in one process gave 0.96–1.43
 * (C's spread more, 1.01–1.42: take 10 rounds or more). Contention adds
 * about the same CPU to both sides, so the ratio is lower than the bench's; compare the gap in
 * µs, or the ratio between two commits, not the ratio with the bench's target.
 */
import { fork } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { removeCreatedOrders } from '../harness/dataset.ts';
import { sampleHttp, type LoadJob } from '../harness/load.ts';
import { SCENARIOS } from '../harness/requests.ts';
import { WHERE_PATH } from '../scenarios/where.ts';
import type { SideInfo } from './side-process.ts';
import { median } from '../harness/stats.ts';

const scenarioId = process.env.SC ?? 'D';
const rounds = Number(process.env.ROUNDS ?? 10);
const seconds = Number(process.env.SECS ?? 4);
const connections = Number(process.env.CONNS ?? 5);

interface Side {
  readonly pid: number;
  readonly info: SideInfo;
  stop(): void;
}

function startSide(mode: 'service' | 'koa'): Promise<Side> {
  const child = fork(new URL('./side-process.ts', import.meta.url).pathname, [mode], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, BENCH_CONTROL_DATABASE: `wdapi_side_${mode}` },
  });
  return new Promise((resolve) => child.once('message', (info) => resolve({ pid: child.pid ?? 0, info: info as SideInfo, stop: () => child.send('stop') })));
}

/** User and system CPU of every thread of `pid`, in µs. */
function cpuMicros(pid: number): number {
  let ticks = 0;
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    const stat = readFileSync(`/proc/${pid}/task/${task}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    ticks += Number(fields[11]) + Number(fields[12]);
  }
  return ticks * 10_000;
}

function scenarioOf(id: string): { method: 'GET' | 'POST'; path: string; body?: string } {
  const found = id === 'G' ? { method: 'GET' as const, path: WHERE_PATH } : SCENARIOS.find((s) => s.id === id);
  if (!found) throw new Error(`unknown scenario ${id}`);
  return found;
}

const scenario = scenarioOf(scenarioId);
let nextIndex = 0;
function job(side: Side, duration: number): LoadJob {
  nextIndex += 200_000;
  const { url, apiKey, records } = side.info;
  return { method: scenario.method, path: records + scenario.path, ...(scenario.body ? { body: scenario.body } : {}), url, apiKey, connections, warmup: 0, duration, firstIndex: nextIndex };
}

const service = await startSide('service');
const koa = await startSide('koa');
await Promise.all([sampleHttp(job(service, 3)), sampleHttp(job(koa, 3))]);
const ratios: number[] = [];
const gaps: number[] = [];
for (let round = 0; round < rounds; round++) {
  const before = [cpuMicros(service.pid), cpuMicros(koa.pid)];
  const [ours, floor] = await Promise.all([sampleHttp(job(service, seconds)), sampleHttp(job(koa, seconds))]);
  const ourCpu = (cpuMicros(service.pid) - (before[0] ?? 0)) / (ours.latencies.length + ours.errors);
  const floorCpu = (cpuMicros(koa.pid) - (before[1] ?? 0)) / (floor.latencies.length + floor.errors);
  ratios.push(ourCpu / floorCpu);
  gaps.push(ourCpu - floorCpu);
  console.log(`round ${round + 1}: service ${ourCpu.toFixed(1)} µs (errors ${ours.errors}), Koa ${floorCpu.toFixed(1)} µs, ratio ${(ourCpu / floorCpu).toFixed(3)}`);
}
console.log(`${scenarioId}: median ratio ${median(ratios).toFixed(3)}, median gap ${median(gaps).toFixed(1)} µs (${ratios.map((r) => r.toFixed(2)).join(' ')})`);
service.stop();
koa.stop();
// D's orders would otherwise lie in front of every newest-first page of later runs.
await removeCreatedOrders(service.info.databaseUrl);
