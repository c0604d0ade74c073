/**
 * Sides of a comparison measured in turns (round 1: every side, round 2: every side, …), each
 * with the CPU time this process spent while it ran. The service, the Koa floor and the raw-pg
 * loops all run in this process and the load generator in a child, so that CPU time is the
 * server side's alone: divided by the requests answered it is the server CPU-µs per request.
 */
import { sampleLoops } from './loops.ts';
import { sampleHttp } from './load.ts';
import { summarise, type Measurement, type Sample } from './stats.ts';

export interface Side {
  readonly label: string;
  /** `firstIndex` starts the walk of rotating ids, so later rounds do not repeat earlier ids. */
  sample(seconds: number, firstIndex: number): Promise<Sample>;
}

/** One round of one side: what the verdicts pair with the floor's figures of the same round. */
export interface RoundFigures {
  readonly rps: number;
  readonly p99: number;
  readonly cpuMicros: number;
}

export interface SideResult extends Measurement {
  readonly label: string;
  /** user + system CPU of the serving process per answered request, in µs. */
  readonly cpuMicros: number;
  /** Each round's figures, in order (paired.ts). */
  readonly rounds: readonly RoundFigures[];
}

export interface Timing {
  readonly duration: number;
  readonly warmup: number;
  readonly rounds: number;
}

export interface HttpTarget {
  readonly url: string;
  readonly apiKey: string;
  readonly connections: number;
}

/** A request shape; `{id}` in the path is replaced per request by a rotating order id. */
export interface HttpRequest {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly body?: string;
}

export function httpSide(label: string, target: HttpTarget, request: HttpRequest): Side {
  const { url, apiKey, connections } = target;
  return { label, sample: (duration, firstIndex) => sampleHttp({ ...request, url, apiKey, connections, warmup: 0, duration, firstIndex }) };
}

/** `work(i)` is one call; `loops` calls run at a time, as many as the HTTP sides' connections. */
export function sqlSide(label: string, work: (i: number) => Promise<unknown>, loops: number): Side {
  return { label, sample: (seconds, firstIndex) => sampleLoops(work, loops, 0, seconds, firstIndex) };
}

async function timed(side: Side, seconds: number, firstIndex: number): Promise<{ sample: Sample; cpu: number }> {
  const before = process.cpuUsage();
  const sample = await side.sample(seconds, firstIndex);
  const used = process.cpuUsage(before);
  return { sample, cpu: used.user + used.system };
}

function roundFigures(sample: Sample, cpu: number): RoundFigures {
  const { rps, p99, requests, errors } = summarise([sample]);
  return { rps, p99, cpuMicros: cpu / Math.max(1, requests + errors) };
}

/** Warm-ups run apart from the timed samples, so their CPU is not counted. */
export async function measureSides(sides: readonly Side[], timing: Timing, log: (message: string) => void): Promise<SideResult[]> {
  const samples = sides.map((): Sample[] => []);
  const rounds = sides.map((): RoundFigures[] => []);
  const cpu = sides.map(() => 0);
  for (let round = 0; round < timing.rounds; round++) {
    for (const [i, side] of sides.entries()) {
      log(`${side.label}: round ${round + 1}/${timing.rounds}`);
      const firstIndex = round * 100_000;
      if (round === 0 && timing.warmup > 0) await side.sample(timing.warmup, firstIndex);
      const { sample, cpu: used } = await timed(side, timing.duration / timing.rounds, firstIndex);
      samples[i]?.push(sample);
      rounds[i]?.push(roundFigures(sample, used));
      cpu[i] = (cpu[i] ?? 0) + used;
    }
  }
  return sides.map((side, i) => {
    const measurement = summarise(samples[i] ?? []);
    return { label: side.label, ...measurement, cpuMicros: (cpu[i] ?? 0) / Math.max(1, measurement.requests + measurement.errors), rounds: rounds[i] ?? [] };
  });
}
