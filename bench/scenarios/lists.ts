/**
 * A–D, the list, get and create requests (harness/requests.ts): the service against the Koa floor
 * (floors/koa.ts, the captured SQL behind hand-written routes) and raw pg (floors/pg.ts), the three
 * taking turns in short rounds.
 */
import { isDeepStrictEqual } from 'node:util';
import type pg from 'pg';
import type { KoaFloor } from '../floors/koa.ts';
import { sqlWork } from '../floors/pg.ts';
import type { FloorSql } from '../floors/sql.ts';
import { send } from '../harness/capture-sql.ts';
import type { ScenarioResult } from '../harness/report.ts';
import { CAPTURE_ID, type Scenario } from '../harness/requests.ts';
import type { BenchService } from '../harness/service.ts';
import { httpSide, measureSides, sqlSide, type Timing } from '../harness/sides.ts';

export interface ListBench {
  readonly service: BenchService;
  readonly floor: KoaFloor;
  readonly pool: pg.Pool;
  readonly sql: FloorSql;
  readonly connections: number;
  readonly timing: Timing;
  log(message: string): void;
}

/** The Koa floor must answer what the service answers, or the comparison means nothing. */
async function checkSameJson(service: BenchService, floor: KoaFloor, scenario: Scenario): Promise<void> {
  const path = service.records(scenario.path.replace('{id}', String(CAPTURE_ID)));
  const request = { method: scenario.method, path, ...(scenario.body ? { body: scenario.body } : {}) };
  const [ours, theirs] = await Promise.all([send(service, request), send({ ...service, url: floor.url }, request)]);
  const strip = (body: unknown): unknown => {
    if (scenario.id !== 'D') return body;
    const { id: _id, createdAt: _c, updatedAt: _u, ...rest } = (body as { data: Record<string, unknown> }).data;
    return rest;
  };
  if (ours.status !== theirs.status || !isDeepStrictEqual(strip(ours.body), strip(theirs.body))) {
    throw new Error(`scenario ${scenario.id}: the Koa floor's answer differs from the service's\nservice: ${JSON.stringify(ours.body)}\nfloor:   ${JSON.stringify(theirs.body)}`);
  }
}

/**
 * The three targets take turns in short rounds (service, Koa, raw pg, service, …) so that a
 * change in background load hits all three alike; each warms up once, before its first round.
 */
async function measureList(bench: ListBench, scenario: Scenario): Promise<ScenarioResult> {
  const { service, floor } = bench;
  const request = { method: scenario.method, path: service.records(scenario.path), ...(scenario.body ? { body: scenario.body } : {}) };
  const target = { url: service.url, apiKey: service.apiKey, connections: bench.connections };
  const sides = [
    httpSide('service', target, request),
    httpSide('Koa', { ...target, url: floor.url }, request),
    sqlSide('raw pg', sqlWork(bench.pool, bench.sql, scenario), bench.connections),
  ];
  const [ours, koa, rawPg] = await measureSides(sides, bench.timing, (message) => bench.log(`${scenario.id} (${scenario.label}) ${message}`));
  if (!ours || !koa || !rawPg) throw new Error(`scenario ${scenario.id}: a side was not measured`);
  return { scenario, service: ours, koa, rawPg };
}

/** Every scenario's answers are checked against the floor's before the first one is measured. */
export async function runLists(bench: ListBench, scenarios: readonly Scenario[]): Promise<ScenarioResult[]> {
  for (const scenario of scenarios) await checkSameJson(bench.service, bench.floor, scenario);
  const results: ScenarioResult[] = [];
  for (const scenario of scenarios) results.push(await measureList(bench, scenario));
  return results;
}
