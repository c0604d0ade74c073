/**
 * M, MariaDB: the list scenarios A, A-none and B-none on the MariaDB copy of the data set,
 * the service against a hand-written Koa + mysql2 route and raw mysql2, in interleaved rounds like
 * the PostgreSQL scenarios. A service of its own (its own control database) holds the MariaDB
 * workspace, so the PostgreSQL service's caches and pools are not in its CPU figures.
 */
import { isDeepStrictEqual } from 'node:util';
import { send } from '../harness/capture-sql.ts';
import { httpSide, measureSides, sqlSide, type Timing } from '../harness/sides.ts';
import { captureMariaSql, createMariaPool, mariaWork, MARIA_SCENARIOS, startMariaKoaFloor } from '../floors/mariadb.ts';
import { prepareMariaDataset } from '../harness/mariadb-dataset.ts';
import type { ScenarioResult } from '../harness/report.ts';
import { SCENARIOS, type Scenario } from '../harness/requests.ts';
import { startBenchService, type BenchService } from '../harness/service.ts';
import type { KoaFloor } from '../floors/koa.ts';

export interface MariaBench {
  readonly timing: Timing;
  readonly connections: number;
  readonly fresh: boolean;
  readonly log: (message: string) => void;
}

async function checkSameJson(service: BenchService, floor: KoaFloor, scenario: Scenario): Promise<void> {
  const request = { method: scenario.method, path: service.records(scenario.path) };
  const [ours, theirs] = await Promise.all([send(service, request), send({ ...service, url: floor.url }, request)]);
  if (ours.status !== theirs.status || !isDeepStrictEqual(ours.body, theirs.body)) {
    throw new Error(`MariaDB ${scenario.id}: the Koa floor's answer differs from the service's\nservice: ${JSON.stringify(ours.body)}\nfloor:   ${JSON.stringify(theirs.body)}`);
  }
}

export async function runMaria(bench: MariaBench): Promise<ScenarioResult[]> {
  const scenarios = SCENARIOS.filter((s) => MARIA_SCENARIOS.includes(s.id));
  const db = await prepareMariaDataset(bench.fresh);
  bench.log(`MariaDB database wdapi_bench ${db.rebuilt ? 'built' : 'reused'}`);
  const service = await startBenchService(db.url, 'wdapi_bench_control_maria', 'mysql');
  const pool = createMariaPool(db.url);
  let floor: KoaFloor | undefined;
  try {
    const sql = await captureMariaSql(service);
    floor = await startMariaKoaFloor(pool, sql);
    for (const scenario of scenarios) await checkSameJson(service, floor, scenario);
    const results: ScenarioResult[] = [];
    for (const scenario of scenarios) {
      const target = { url: service.url, apiKey: service.apiKey, connections: bench.connections };
      const request = { method: scenario.method, path: service.records(scenario.path) };
      const sides = [
        httpSide('service', target, request),
        httpSide('Koa', { ...target, url: floor.url }, request),
        sqlSide('raw mysql2', mariaWork(pool, sql, scenario), bench.connections),
      ];
      const [ours, koa, raw] = await measureSides(sides, bench.timing, (message) => bench.log(`MariaDB ${scenario.id} ${message}`));
      if (!ours || !koa || !raw) throw new Error(`MariaDB ${scenario.id}: a side was not measured`);
      results.push({ scenario, service: ours, koa, rawPg: raw });
    }
    return results;
  } finally {
    await floor?.close();
    await pool.end();
    await service.service.close();
  }
}
