/** The raw-driver floor: the scenario's SQL on a bare pg Pool, N concurrent loops, no HTTP. */
import { performance } from 'node:perf_hooks';
import type pg from 'pg';
import { createOrder, getOrder, insertValues, listOrders, type FloorSql } from './floor-sql.ts';
import { CREATE_ORDER_BODY, orderIdFor } from './ids.ts';
import type { Scenario } from './scenarios.ts';
import type { Sample } from './stats.ts';

type Work = (i: number) => Promise<unknown>;

export function sqlWork(pool: pg.Pool, sql: FloorSql, scenario: Scenario): Work {
  switch (scenario.id) {
    case 'A':
      return () => listOrders(pool, sql, false, 'exact', 20, 0);
    case 'A-none':
      return () => listOrders(pool, sql, false, 'none', 20, 0);
    case 'B-none':
      return () => listOrders(pool, sql, true, 'none', 20, 0);
    case 'B-exact':
      return () => listOrders(pool, sql, true, 'exact', 20, 0);
    case 'B-estimated':
      return () => listOrders(pool, sql, true, 'estimated', 20, 0);
    case 'C':
      return (i) => getOrder(pool, sql, orderIdFor(i));
    case 'D': {
      const body = JSON.parse(CREATE_ORDER_BODY) as Record<string, unknown>;
      return () => createOrder(pool, sql, insertValues(body));
    }
  }
}

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

export async function sampleRawPg(work: Work, loops: number, warmup: number, seconds: number, first: number): Promise<Sample> {
  if (warmup > 0) await drive(work, loops, warmup, first);
  return drive(work, loops, seconds, first);
}
