/**
 * The same scenarios against this checkout and another commit in the same run:
 * both services compiled, each alone in a child process on the same data set, taking turns in
 * short rounds so background load hits both alike. Per side: req/s, p99 and the child's own CPU
 * per answered request (it drifts far less than req/s on a shared machine); the ratios say
 * whether this checkout regressed before it lands.
 */
import { checkoutHead, checkoutRef, type Checkout } from './checkout-ref.ts';
import { removeCreatedOrders } from './dataset.ts';
import { sampleHttp } from './load.ts';
import type { Scenario } from './requests.ts';
import { startServiceProcess, type ServiceProcess } from './service-process.ts';
import { summarise, type Measurement, type Sample } from './stats.ts';
import type { Timing } from './sides.ts';

export interface CompareBench {
  readonly ref: string;
  readonly databaseUrl: string;
  readonly scenarios: readonly Scenario[];
  readonly timing: Timing;
  readonly connections: number;
  readonly log: (message: string) => void;
}

interface Side {
  readonly checkout: Checkout;
  readonly service: ServiceProcess;
}

export interface CompareSide extends Measurement {
  readonly cpuMicros: number;
}

export interface CompareRow {
  readonly scenario: string;
  readonly ours: CompareSide;
  readonly theirs: CompareSide;
}

export interface CompareResult {
  readonly ours: string;
  readonly theirs: string;
  readonly rows: readonly CompareRow[];
}

async function sampleSide(side: Side, scenario: Scenario, connections: number, seconds: number, firstIndex: number): Promise<Sample> {
  const { service } = side;
  return sampleHttp({
    url: service.url, apiKey: service.apiKey, connections, method: scenario.method, path: service.records(scenario.path),
    ...(scenario.body ? { body: scenario.body } : {}), warmup: 0, duration: seconds, firstIndex,
  });
}

/** Rounds in turns; each side warms up once before its first round, outside the CPU it is charged. */
async function measureScenario(bench: CompareBench, sides: readonly Side[], scenario: Scenario): Promise<CompareSide[]> {
  const samples = sides.map((): Sample[] => []);
  const cpu = sides.map(() => 0);
  const { rounds, warmup, duration } = bench.timing;
  for (let round = 0; round < rounds; round++) {
    for (const [i, side] of sides.entries()) {
      bench.log(`compare ${scenario.id} ${side.checkout.label}: round ${round + 1}/${rounds}`);
      const firstIndex = round * 100_000;
      if (round === 0 && warmup > 0) await sampleSide(side, scenario, bench.connections, warmup, firstIndex);
      await side.service.mark();
      samples[i]?.push(await sampleSide(side, scenario, bench.connections, duration / rounds, firstIndex));
      cpu[i] = (cpu[i] ?? 0) + (await side.service.read()).cpuMicros;
    }
  }
  return sides.map((_, i) => {
    const measurement = summarise(samples[i] ?? []);
    return { ...measurement, cpuMicros: (cpu[i] ?? 0) / Math.max(1, measurement.requests + measurement.errors) };
  });
}

async function startSide(checkout: Checkout, databaseUrl: string, controlDatabase: string): Promise<Side> {
  return { checkout, service: await startServiceProcess(databaseUrl, checkout.child, controlDatabase) };
}

export async function runCompare(bench: CompareBench): Promise<CompareResult> {
  const ours = await checkoutHead();
  const theirs = await checkoutRef(bench.ref, bench.log);
  const sides: Side[] = [];
  try {
    sides.push(await startSide(ours, bench.databaseUrl, 'wdapi_bench_compare_ours'));
    sides.push(await startSide(theirs, bench.databaseUrl, 'wdapi_bench_compare_theirs'));
    const rows: CompareRow[] = [];
    for (const scenario of bench.scenarios) {
      const [mine, other] = await measureScenario(bench, sides, scenario);
      if (!mine || !other) throw new Error(`compare ${scenario.id}: a side was not measured`);
      rows.push({ scenario: scenario.id, ours: mine, theirs: other });
    }
    const name = (c: Checkout): string => `${c.label} (${c.commit.slice(0, 12)})`;
    return { ours: name(ours), theirs: name(theirs), rows };
  } finally {
    for (const side of sides) await side.service.close();
    await removeCreatedOrders(bench.databaseUrl);
  }
}

const HEADERS = ['scenario', 'req/s', 'ref req/s', 'req/s ratio', 'µs/req', 'ref µs/req', 'CPU ratio', 'p99 ms', 'ref p99 ms', 'errors'];

function rowOf(row: CompareRow): string[] {
  const { ours, theirs } = row;
  const f = (x: number, digits: number): string => (Number.isFinite(x) ? x.toFixed(digits) : '-');
  return [
    row.scenario, f(ours.rps, 1), f(theirs.rps, 1), `${f(ours.rps / theirs.rps, 2)}x`,
    f(ours.cpuMicros, 0), f(theirs.cpuMicros, 0), `${f(ours.cpuMicros / theirs.cpuMicros, 2)}x`,
    f(ours.p99, 2), f(theirs.p99, 2), `${ours.errors}/${theirs.errors}`,
  ];
}

/** Ratios are this checkout over the ref: req/s below 1x or CPU above 1x is a regression. */
export function formatCompare(result: CompareResult): string {
  const rows = [HEADERS, ...result.rows.map(rowOf)];
  const widths = HEADERS.map((_, c) => Math.max(...rows.map((row) => (row[c] ?? '').length)));
  const line = (row: string[]): string => row.map((cell, c) => (c === 0 ? cell.padEnd(widths[c] ?? 0) : cell.padStart(widths[c] ?? 0))).join('  ');
  return [
    `compare: ${result.ours} against ref ${result.theirs}; ratios are ours / ref's (req/s < 1x or CPU > 1x: slower)`,
    line(HEADERS),
    widths.map((w) => '-'.repeat(w)).join('  '),
    ...rows.slice(1).map(line),
  ].join('\n');
}
