/**
 * Benchmarks: issue 2 (the service against two floors on the same data set in the same run),
 * issue 15 (E one-to-many expansion, F far cursor page, G where; bench/issue15.ts), formula
 * compile, issue 16 (H aggregate, I export; bench/issue16.ts), issue 18 (J through HAProxy, K rate
 * limit in Redis; bench/issue18.ts), issue 19's MariaDB lists (M: A, A-none and B-none against
 * Koa + mysql2; bench/maria.ts), issue 19's memory (bench/memory19.ts), its start time
 * (bench/start19.ts) and issue 5 (CSV import and bulk insert, bench/import.ts).
 *
 *   npm run bench -- [--only A,B,E,F,G,15,H,I,16,J,K,18,M,memory,start,formula,import,admin] [--duration 15] [--warmup 3] [--rounds 3] [--fresh]
 *   npm run bench -- --compare <git ref> [--only A-none,B-none,C,D] (bench/compare-run.ts: this checkout
 *     against another commit, both compiled, in the same run; only the issue-2 scenarios A–D)
 *
 * `admin` (issue 17, bench/admin-app.ts) drives the admin application in Chromium on the same data set.
 *
 * `--duration` is the measured time per target and scenario, split into `--rounds` interleaved
 * rounds (scenario I instead takes 3 whole exports per side). Env: BENCH_DURATION, BENCH_WARMUP (seconds), BENCH_ROUNDS, BENCH_CONNECTIONS
 * (default 10), PG_URL (admin connection, default postgres://postgres@127.0.0.1:5432/test).
 * Prints a table and writes bench/results/latest.json. Figures only: nothing here asserts on timing.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { isDeepStrictEqual, parseArgs } from 'node:util';
import type pg from 'pg';
import { prepareDataset, removeCreatedOrders, DATASET } from './harness/dataset.ts';
import { startKoaFloor, type KoaFloor } from './floors/koa.ts';
import { sqlWork } from './floors/pg.ts';
import { httpSide, measureSides, sqlSide } from './harness/sides.ts';
import { benchImport, formatImport, type ImportBenchResult } from './scenarios/import.ts';
import { benchAdminApp, formatAdminApp, type AdminAppBenchResult } from './scenarios/admin-app.ts';
import { runIssue15 } from './scenarios/reads.ts';
import { runIssue16, type Results16 } from './scenarios/aggregate.ts';
import { formatIssue18, runIssue18 } from './scenarios/balancer.ts';
import { runMaria } from './scenarios/mariadb.ts';
import { formatCompare, runCompare } from './harness/compare-ref.ts';
import { formatMemory, runMemory, type MemoryResult } from './scenarios/memory.ts';
import { formatStart, runStart } from './scenarios/start.ts';
import { captureFloorSql, createFloorPool, type FloorSql } from './floors/sql.ts';
import { formatTable, judge, TARGETS, writeResults, type ScenarioResult } from './harness/report.ts';
import { formatTable15, judge15, TARGETS_15 } from './harness/report-comparison.ts';
import { formatExport, formatH, judgeExport, judgeH, summariseExport, TARGETS_16 } from './scenarios/export-report.ts';
import { CAPTURE_ID, selectScenarios, type Scenario } from './harness/requests.ts';
import { selectGroups15, type Group15 } from './scenarios/expand.ts';
import { selectGroups16, type Group16 } from './scenarios/export-request.ts';
import { selectGroups18, type Group18 } from './scenarios/rate-limit.ts';
import { startBenchService, type BenchService } from './harness/service.ts';
import { send } from './harness/capture-sql.ts';

interface Config {
  readonly adminUrl: string;
  readonly database: string;
  readonly fresh: boolean;
  readonly only: string[] | null;
  readonly duration: number;
  readonly warmup: number;
  readonly connections: number;
  readonly rounds: number;
  /** `--compare <git ref>`: measure this checkout against that commit instead of the floors. */
  readonly compare: string | null;
}

function readConfig(): Config {
  const { values } = parseArgs({
    options: {
      only: { type: 'string' },
      duration: { type: 'string' },
      warmup: { type: 'string' },
      rounds: { type: 'string' },
      fresh: { type: 'boolean' },
      compare: { type: 'string' },
    },
  });
  const seconds = (flag: string | undefined, env: string | undefined, fallback: number): number => {
    const value = Number(flag ?? env ?? fallback);
    if (!Number.isFinite(value) || value < 0) throw new Error(`not a number of seconds: ${flag ?? env}`);
    return value;
  };
  return {
    adminUrl: process.env.PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
    database: 'wdapi_bench',
    fresh: values.fresh ?? false,
    only: values.only ? values.only.split(',') : null,
    duration: seconds(values.duration, process.env.BENCH_DURATION, 15),
    warmup: seconds(values.warmup, process.env.BENCH_WARMUP, 3),
    connections: Number(process.env.BENCH_CONNECTIONS ?? 10),
    rounds: Math.max(1, Math.round(Number(values.rounds ?? process.env.BENCH_ROUNDS ?? 3))),
    compare: values.compare ?? null,
  };
}

function log(message: string): void {
  process.stderr.write(`[bench] ${message}\n`);
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
async function measureScenario(config: Config, service: BenchService, floor: KoaFloor, pool: pg.Pool, sql: FloorSql, scenario: Scenario): Promise<ScenarioResult> {
  const request = { method: scenario.method, path: service.records(scenario.path), ...(scenario.body ? { body: scenario.body } : {}) };
  const target = { url: service.url, apiKey: service.apiKey, connections: config.connections };
  const sides = [
    httpSide('service', target, request),
    httpSide('Koa', { ...target, url: floor.url }, request),
    sqlSide('raw pg', sqlWork(pool, sql, scenario), config.connections),
  ];
  const [ours, koa, rawPg] = await measureSides(sides, config, (message) => log(`${scenario.id} (${scenario.label}) ${message}`));
  if (!ours || !koa || !rawPg) throw new Error(`scenario ${scenario.id}: a side was not measured`);
  return { scenario, service: ours, koa, rawPg };
}

/** The formula-compile benchmark lives in its own file; run it when it is there. */
async function runFormulaCompile(): Promise<unknown> {
  const file = fileURLToPath(new URL('./scenarios/formula-compile.ts', import.meta.url));
  if (!existsSync(file)) {
    log('formula-compile: bench/formula-compile.ts not present, skipped');
    return null;
  }
  const module = (await import(pathToFileURL(file).href)) as { benchFormulaCompile?: () => unknown };
  if (typeof module.benchFormulaCompile !== 'function') {
    log('formula-compile: no benchFormulaCompile export, skipped');
    return null;
  }
  log('formula-compile');
  return (await module.benchFormulaCompile()) ?? null;
}

function wants(config: Config, pattern: RegExp): boolean {
  return !config.only || config.only.some((s) => pattern.test(s.trim()));
}

/** The scenarios A–D (default A-none, B-none, C, D) against another commit, printed as ratios. */
async function compareWithRef(config: Config, ref: string): Promise<void> {
  const scenarios = config.only ? selectScenarios(config.only) : selectScenarios(['A-none', 'B-none', 'C', 'D']);
  const db = await prepareDataset(config.adminUrl, config.database, config.fresh);
  const result = await runCompare({ ref, databaseUrl: db.url, scenarios, timing: config, connections: config.connections, log });
  process.stdout.write(`\n${formatCompare(result)}\n`);
  const file = fileURLToPath(new URL('./results/compare.json', import.meta.url));
  writeResults(file, { at: new Date().toISOString(), node: process.version, config: { duration: config.duration, warmup: config.warmup, rounds: config.rounds, connections: config.connections }, ...result });
  log(`results written to ${file}`);
}

async function main(): Promise<void> {
  const config = readConfig();
  if (config.compare) return compareWithRef(config, config.compare);
  const scenarios = selectScenarios(config.only);
  const groups15 = selectGroups15(config.only);
  const groups16 = selectGroups16(config.only);
  const groups18 = selectGroups18(config.only);
  const formulaCompile = wants(config, /^formula$/i) ? await runFormulaCompile() : null;
  const served = scenarios.length + groups15.length + groups16.length + groups18.length > 0 ? await runScenarios(config, scenarios, groups15, groups16, groups18) : null;
  const maria = wants(config, /^(M|maria)$/i) ? await runMaria({ timing: config, connections: config.connections, fresh: config.fresh, log }) : [];
  const memory = wants(config, /^mem(ory)?$/i) ? await measureMemory(config) : null;
  const start = wants(config, /^start$/i) ? await runStart(log) : null;
  let imported: ImportBenchResult | null = null;
  if (wants(config, /^(import|bulk)$/i)) {
    log('import and bulk (issue 5): 1M-row CSV import, then 1000-row bulk requests');
    imported = await benchImport();
  }
  let adminApp: AdminAppBenchResult | null = null;
  if (wants(config, /^admin$/i)) {
    log('admin app (issue 17): first-screen JavaScript and the first rows of orders in Chromium');
    const db = await prepareDataset(config.adminUrl, config.database, config.fresh);
    adminApp = await benchAdminApp(db.url);
  }
  if (served?.results.length) process.stdout.write(`\n${formatTable(served.results, served.verdicts)}\n`);
  if (maria.length) process.stdout.write(`\nMariaDB (issue 19: req/s >= 60% of Koa + mysql2)\n${formatTable(maria, maria.map((r) => judge(r, maria)), 'mysql2')}\n`);
  if (served?.issue15.length) process.stdout.write(`\n${formatTable15(served.issue15, served.issue15.map(judge15))}\n`);
  if (served?.issue16.H) process.stdout.write(`\n${formatH(served.issue16.H, judgeH(served.issue16.H))}\n`);
  if (served?.issue16.I) process.stdout.write(`\n${formatExport(served.issue16.I, judgeExport(served.issue16.I))}\n`);
  if (memory) process.stdout.write(`\n${formatMemory(memory)}\n`);
  if (served && groups18.length > 0) process.stdout.write(`\n${formatIssue18(served.issue18)}\n`);
  if (start) process.stdout.write(`\n${formatStart(start)}\n`);
  if (formulaCompile !== null) process.stdout.write(`\nformula-compile: ${JSON.stringify(formulaCompile)}\n`);
  if (imported) process.stdout.write(`\n${formatImport(imported)}\n`);
  if (adminApp) process.stdout.write(`\n${formatAdminApp(adminApp)}\n`);
  const file = fileURLToPath(new URL('./results/latest.json', import.meta.url));
  writeResults(file, {
    at: new Date().toISOString(),
    node: process.version,
    config: { duration: config.duration, warmup: config.warmup, rounds: config.rounds, connections: config.connections, dataset: DATASET },
    targets: { ...TARGETS, issue15: TARGETS_15, issue16: TARGETS_16 },
    sql: served?.sql ?? null,
    results: served?.results.map((r, i) => ({ scenario: r.scenario, service: r.service, koa: r.koa, rawPg: r.rawPg, verdict: served.verdicts[i] })) ?? [],
    mariadb: maria.map((r) => ({ scenario: r.scenario, service: r.service, koa: r.koa, rawMysql2: r.rawPg, verdict: judge(r, maria) })),
    issue15: served?.issue15.map((r) => ({ ...r, verdict: judge15(r) })) ?? [],
    issue16: served ? issue16Json(served.issue16) : null,
    issue18: served?.issue18 ?? null,
    formulaCompile,
    memory,
    start,
    import: imported,
    adminApp,
  });
  log(`results written to ${file}`);
}

/** The service's RSS idle and under load, on the same data set as the scenarios. */
async function measureMemory(config: Config): Promise<MemoryResult> {
  const db = await prepareDataset(config.adminUrl, config.database, false);
  return runMemory({ databaseUrl: db.url, connections: config.connections, seconds: Math.max(2, config.duration / 4), log });
}

function issue16Json(results: Results16): unknown {
  const { H, I } = results;
  return {
    H: H ? { ...H, verdict: judgeH(H) } : null,
    I: I ? { ...I, summary: { floor: summariseExport(I.floor), csv: summariseExport(I.csv), ndjson: summariseExport(I.ndjson) }, verdict: judgeExport(I) } : null,
  };
}

/** Issue 2's, 15's, 16's and 18's scenarios: the service, the Koa floor and raw pg on the same data set. */
async function runScenarios(config: Config, scenarios: readonly Scenario[], groups15: readonly Group15[], groups16: readonly Group16[], groups18: readonly Group18[]) {
  log(`scenarios ${[...scenarios.map((s) => s.id), ...groups15, ...groups16, ...groups18].join(', ')}; ${config.warmup}s warm-up + ${config.duration}s each in ${config.rounds} rounds, ${config.connections} connections`);
  const db = await prepareDataset(config.adminUrl, config.database, config.fresh);
  log(`database ${db.name} ${db.rebuilt ? 'built' : 'reused'} (${DATASET.regions} regions, ${DATASET.customers} customers, ${DATASET.orders} orders)`);
  const service = await startBenchService(db.url);
  const pool = createFloorPool(db.url);
  let floor: KoaFloor | undefined;
  try {
    const sql = await captureFloorSql(service);
    floor = await startKoaFloor(pool, sql);
    for (const scenario of scenarios) await checkSameJson(service, floor, scenario);
    const results: ScenarioResult[] = [];
    for (const scenario of scenarios) results.push(await measureScenario(config, service, floor, pool, sql, scenario));
    // The orders D created (newest ids, status 'new') would lie in front of every newest-first page that
    // follows, and be exported by I; captureFloorSql creates one even when D is not measured.
    await removeCreatedOrders(db.url);
    const issue15 = await runIssue15({ service, floor, pool, connections: config.connections, timing: config, log }, groups15);
    const bench16 = { databaseUrl: db.url, service, floor, pool, connections: config.connections, timing: config, log };
    const issue16 = await runIssue16(bench16, groups16);
    const issue18 = await runIssue18(bench16, groups18);
    return { sql, results, verdicts: results.map((r) => judge(r, results)), issue15, issue16, issue18 };
  } finally {
    await floor?.close();
    await pool.end();
    await service.service.close();
    await removeCreatedOrders(db.url);
  }
}

await main();
