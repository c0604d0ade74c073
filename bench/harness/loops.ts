/**
 * Load without HTTP: one call (`work(i)`, for example a floor's SQL on a bare driver pool) from
 * N concurrent loops, for a set time. The raw-driver floors are measured this way.
 */
import { performance } from 'node:perf_hooks';
import type { Sample } from './stats.ts';

type Work = (i: number) => Promise<unknown>;

/** Runs `work` from `loops` concurrent loops until `seconds` pass; latencies of completed calls only. */
async function drive(work: Work, loops: number, seconds: number, first: number): Promise<Sample> {
  const latencies: number[] = [];
  // Each call takes the next index, so rotating ids walk on across calls.
  let next = first;
  let errors = 0;
  const start = performance.now();
  const deadline = start + seconds * 1000;
  const loop = async (): Promise<void> => {
    while (performance.now() < deadline) {
      const began = performance.now();
      try {
        await work(next++);
        latencies.push(performance.now() - began);
      } catch {
        errors += 1;
      }
    }
  };
  await Promise.all(Array.from({ length: loops }, loop));
  return { latencies, seconds: (performance.now() - start) / 1000, errors };
}

export async function sampleLoops(work: Work, loops: number, warmup: number, seconds: number, first: number): Promise<Sample> {
  if (warmup > 0) await drive(work, loops, warmup, first);
  return drive(work, loops, seconds, first);
}
