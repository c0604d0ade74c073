/**
 * `npm run bench`: every scenario of bench/catalogue.ts, each against a floor measured in the same
 * run on the same data set (bench/scenarios/, on the harness of bench/harness/ and the floors of
 * bench/floors/).
 *
 *   npm run bench -- --list     every scenario's --only name and what it measures
 *   npm run bench -- [--only A,reads,H,memory,…] [--duration 15] [--warmup 3] [--rounds 3] [--fresh]
 *   npm run bench -- --compare <git ref> [--only A-none,B-none,C,D] (harness/compare-ref.ts: this
 *     checkout against another commit, both compiled, in the same run; only the scenarios A–D)
 *
 * `--duration` is the measured time per target and scenario, split into `--rounds` interleaved
 * rounds (scenario I instead takes 3 whole exports per side). Env: BENCH_DURATION, BENCH_WARMUP (seconds), BENCH_ROUNDS, BENCH_CONNECTIONS
 * (default 10), PG_URL (admin connection, default postgres://postgres@127.0.0.1:5432/test).
 * Prints a table and writes bench/results/latest.json. Figures only: nothing here asserts on timing.
 */
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { formatCatalogue, selectNames, unknownNames } from './catalogue.ts';
import { startKoaFloor, type KoaFloor } from './floors/koa.ts';
import { captureFloorSql, createFloorPool } from './floors/sql.ts';
import { formatCompare, runCompare } from './harness/compare-ref.ts';
import { prepareDataset, removeCreatedOrders, DATASET } from './harness/dataset.ts';
import { FLOOR_TARGETS, formatTable, judge, PARITY_TARGETS, writeResults, type ScenarioResult } from './harness/report.ts';
import { SCENARIOS, type Scenario } from './harness/requests.ts';
import { startBenchService } from './harness/service.ts';
import { benchAdminApp, formatAdminApp, type AdminAppBenchResult } from './scenarios/admin-app.ts';
import { AGGREGATE_TARGETS, formatAggregate, judgeAggregate, runAggregate } from './scenarios/aggregate.ts';
import type { InProcessBench } from './scenarios/against-floor.ts';
import { formatBalanced, runBalanced } from './scenarios/balancer.ts';
import { runExport } from './scenarios/export.ts';
import { EXPORT_TARGETS, formatExport, judgeExport, summariseExport, type ExportResult } from './scenarios/export-report.ts';
import { benchFormulaCompile } from './scenarios/formula-compile.ts';
import { benchImport, formatImport, type ImportBenchResult } from './scenarios/import.ts';
import { runLists } from './scenarios/lists.ts';
import { runMaria } from './scenarios/mariadb.ts';
import { formatMemory, runMemory, type MemoryResult } from './scenarios/memory.ts';
import { formatRateLimited, runRateLimited } from './scenarios/rate-limit.ts';
import { formatReads, judgeRead, READ_IDS, READ_TARGETS, runReads, type ReadId } from './scenarios/reads.ts';
import { formatStart, runStart } from './scenarios/start.ts';

interface Config {
  readonly adminUrl: string;
  readonly database: string;
  readonly fresh: boolean;
  readonly list: boolean;
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
      list: { type: 'boolean' },
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
    list: values.list ?? false,
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

function print(text: string): void {
  process.stdout.write(`\n${text}\n`);
}

/** The scenarios A–D (default A-none, B-none, C, D) against another commit, printed as ratios. */
async function compareWithRef(config: Config, ref: string, names: ReadonlySet<string>): Promise<void> {
  const scenarios = SCENARIOS.filter((s) => (config.only ? names.has(s.id) : ['A-none', 'B-none', 'C', 'D'].includes(s.id)));
  if (scenarios.length === 0) throw new Error('--compare measures the scenarios A–D only: name some of them in --only');
  const db = await prepareDataset(config.adminUrl, config.database, config.fresh);
  const result = await runCompare({ ref, databaseUrl: db.url, scenarios, timing: config, connections: config.connections, log });
  print(formatCompare(result));
  const file = fileURLToPath(new URL('./results/compare.json', import.meta.url));
  writeResults(file, { at: new Date().toISOString(), node: process.version, config: { duration: config.duration, warmup: config.warmup, rounds: config.rounds, connections: config.connections }, ...result });
  log(`results written to ${file}`);
}

/** What the scenarios sharing one in-process service, Koa floor and raw pg pool are asked to measure. */
interface InProcessSelection {
  readonly lists: readonly Scenario[];
  readonly reads: readonly ReadId[];
  readonly names: ReadonlySet<string>;
}

/** The scenarios measured against one in-process service, the Koa floor and raw pg on the same data set. */
async function runInProcess(config: Config, selection: InProcessSelection) {
  const { lists, reads, names } = selection;
  const others = ['H', 'I', 'J', 'K'].filter((name) => names.has(name));
  log(`scenarios ${[...lists.map((s) => s.id), ...reads, ...others].join(', ')}; ${config.warmup}s warm-up + ${config.duration}s each in ${config.rounds} rounds, ${config.connections} connections`);
  const db = await prepareDataset(config.adminUrl, config.database, config.fresh);
  log(`database ${db.name} ${db.rebuilt ? 'built' : 'reused'} (${DATASET.regions} regions, ${DATASET.customers} customers, ${DATASET.orders} orders)`);
  const service = await startBenchService(db.url);
  const pool = createFloorPool(db.url);
  let floor: KoaFloor | undefined;
  try {
    const sql = await captureFloorSql(service);
    floor = await startKoaFloor(pool, sql);
    const bench: InProcessBench = { databaseUrl: db.url, service, floor, pool, connections: config.connections, timing: config, log };
    const results = await runLists({ ...bench, sql }, lists);
    // The orders D created (newest ids, status 'new') would lie in front of every newest-first page that
    // follows, and be exported by I; captureFloorSql creates one even when D is not measured.
    await removeCreatedOrders(db.url);
    return {
      sql,
      results,
      verdicts: results.map((r) => judge(r, results)),
      reads: await runReads(bench, reads),
      aggregate: names.has('H') ? await runAggregate(bench) : null,
      exported: names.has('I') ? await runExport(bench) : null,
      balanced: names.has('J') ? await runBalanced(bench) : null,
      rateLimited: names.has('K') ? await runRateLimited(bench) : null,
    };
  } finally {
    await floor?.close();
    await pool.end();
    await service.service.close();
    await removeCreatedOrders(db.url);
  }
}

type InProcessResults = Awaited<ReturnType<typeof runInProcess>>;

/** The service's RSS idle and under load, on the same data set as the scenarios. */
async function measureMemory(config: Config): Promise<MemoryResult> {
  const db = await prepareDataset(config.adminUrl, config.database, false);
  return runMemory({ databaseUrl: db.url, connections: config.connections, seconds: Math.max(2, config.duration / 4), log });
}

async function measureAdminApp(config: Config): Promise<AdminAppBenchResult | null> {
  log('admin app: first-screen JavaScript and the first rows of orders in Chromium');
  const db = await prepareDataset(config.adminUrl, config.database, config.fresh);
  return benchAdminApp(db.url);
}

async function measureImport(): Promise<ImportBenchResult> {
  log('import and bulk: 1M-row CSV import, then 1000-row bulk requests');
  return benchImport();
}

function exportJson(result: ExportResult): unknown {
  const summary = { floor: summariseExport(result.floor), csv: summariseExport(result.csv), ndjson: summariseExport(result.ndjson) };
  return { ...result, summary, verdict: judgeExport(result) };
}

function printInProcess(served: InProcessResults | null, maria: readonly ScenarioResult[]): void {
  if (served?.results.length) print(formatTable(served.results, served.verdicts));
  if (maria.length) print(`MariaDB (req/s >= 60% of Koa + mysql2)\n${formatTable(maria, maria.map((r) => judge(r, maria)), 'mysql2')}`);
  if (served?.reads.length) print(formatReads(served.reads));
  if (served?.aggregate) print(formatAggregate(served.aggregate));
  if (served?.exported) print(formatExport(served.exported, judgeExport(served.exported)));
}

function printCluster(served: InProcessResults | null): void {
  if (!served || (served.balanced === null && served.rateLimited === null)) return;
  const blocks = [...(served.balanced === null ? [] : formatBalanced(served.balanced)), ...(served.rateLimited === null ? [] : formatRateLimited(served.rateLimited))];
  print(['Many instances (figures from a machine shared with other work)', ...blocks].join('\n'));
}

async function main(): Promise<void> {
  const config = readConfig();
  if (config.list) return void process.stdout.write(`${formatCatalogue()}\n`);
  const unknown = unknownNames(config.only);
  if (unknown.length > 0) {
    process.stderr.write(`--only ${unknown.join(',')}: no such scenario or group (npm run bench -- --list names them)\n`);
    process.exitCode = 2;
    return;
  }
  const names = selectNames(config.only);
  if (config.compare) return compareWithRef(config, config.compare, names);
  const selection = { lists: SCENARIOS.filter((s) => names.has(s.id)), reads: READ_IDS.filter((id) => names.has(id)), names };
  if (names.has('formula')) log('formula-compile');
  const formulaCompile = names.has('formula') ? await benchFormulaCompile() : null;
  const inProcess = selection.lists.length + selection.reads.length > 0 || ['H', 'I', 'J', 'K'].some((name) => names.has(name));
  const served = inProcess ? await runInProcess(config, selection) : null;
  const maria = names.has('M') ? await runMaria({ timing: config, connections: config.connections, fresh: config.fresh, log }) : [];
  const memory = names.has('memory') ? await measureMemory(config) : null;
  const start = names.has('start') ? await runStart(log) : null;
  const imported = names.has('import') ? await measureImport() : null;
  const adminApp = names.has('admin') ? await measureAdminApp(config) : null;
  printInProcess(served, maria);
  if (memory) print(formatMemory(memory));
  printCluster(served);
  if (start) print(formatStart(start));
  if (formulaCompile !== null) print(`formula-compile: ${JSON.stringify(formulaCompile)}`);
  if (imported) print(formatImport(imported));
  if (adminApp) print(formatAdminApp(adminApp));
  const file = fileURLToPath(new URL('./results/latest.json', import.meta.url));
  writeResults(file, {
    at: new Date().toISOString(),
    node: process.version,
    config: { duration: config.duration, warmup: config.warmup, rounds: config.rounds, connections: config.connections, dataset: DATASET },
    targets: { lists: FLOOR_TARGETS, parity: PARITY_TARGETS, reads: READ_TARGETS, aggregate: AGGREGATE_TARGETS, export: EXPORT_TARGETS },
    sql: served?.sql ?? null,
    results: served?.results.map((r, i) => ({ scenario: r.scenario, service: r.service, koa: r.koa, rawPg: r.rawPg, verdict: served.verdicts[i] })) ?? [],
    mariadb: maria.map((r) => ({ scenario: r.scenario, service: r.service, koa: r.koa, rawMysql2: r.rawPg, verdict: judge(r, maria) })),
    reads: served?.reads.map((r) => ({ ...r, verdict: judgeRead(r) })) ?? [],
    aggregate: served?.aggregate ? { ...served.aggregate, verdict: judgeAggregate(served.aggregate) } : null,
    export: served?.exported ? exportJson(served.exported) : null,
    cluster: served ? { J: served.balanced, K: served.rateLimited } : null,
    formulaCompile,
    memory,
    start,
    import: imported,
    adminApp,
  });
  log(`results written to ${file}`);
}

await main();
