/**
 * Import and bulk benchmark, against the real PostgreSQL (PG_URL, default
 * postgres://postgres@127.0.0.1:5432/test), with the service in a child process so that its
 * peak RSS (VmHWM) is its own.
 *
 *   npx tsx bench/scenarios/import.ts [--rows 1000000] [--bulk-rows 100000] [--bulk-rounds 5]
 *   (also part of `npm run bench`, or alone: `npm run bench -- --only import`)
 *
 * 1. CSV import: a ~100 MB file of ~1M rows, generated once under bench/.data/, streamed over
 *    HTTP to POST /api/data/import/{view}. Prints rows/s and the service's peak RSS.
 *    Targets (control store on PostgreSQL): ≥ 40,000 rows/s, peak RSS ≤ 150 MB.
 * 2. Bulk (bulk.ts): 1000-row requests against a raw multi-row INSERT. Target ≥ 70%.
 *
 * Looking into the service: BENCH_CPU_PROF / BENCH_HEAP_PROF=<dir> (profiles), BENCH_ALLOC_PROF=<file>
 * (every allocation sampled, garbage included), BENCH_NODE_FLAGS="--trace-gc" (more node flags),
 * BENCH_MEM_TRACE=1 (memory once a second).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { BENCH_SECRETS_KEY, controlDatabaseName, freshControlDatabase } from '../harness/control-db.ts';
import { createReadStream, readFileSync, statSync } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { benchBulk, formatBulk, type BulkBenchResult } from './bulk.ts';
import { generateCsv, TABLE_DDL } from './import-data.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const DATA_DIR = join(ROOT, 'bench', '.data');
const ADMIN_TOKEN = 'wda_bench-import-admin-token-0123456789';
const ADMIN_URL = process.env.PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export const IMPORT_TARGETS = { rowsPerSecond: 40_000, peakRssMb: 150 } as const;

export interface ImportBenchResult {
  readonly rows: number;
  readonly fileBytes: number;
  readonly seconds: number;
  readonly rowsPerSecond: number;
  /** VmHWM of the service process, sampled when the import is done. */
  readonly peakRssMb: number;
  /** VmRSS of the service after start-up and workspace set-up, before the import. */
  readonly baselineRssMb: number;
  /** Highest RSS sampled during the import minus the baseline: what the import itself holds. */
  readonly importGrowthMb: number;
  /** CPU time (user + system) the service spent during the import, per row: steadier than rows/s on a loaded machine. */
  readonly cpuMicrosPerRow: number;
  readonly bulk: BulkBenchResult;
}

async function adminQuery(text: string, url = ADMIN_URL): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

function databaseUrl(name: string): string {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * The service runs as it runs in production: compiled by `npm run build` and started by plain
 * node (under tsx the same modules take about 60 MB more).
 */
function compiledEntry(): string {
  const build = spawnSync('npm', ['run', '--silent', 'build'], { cwd: ROOT, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('npm run build failed');
  return join(ROOT, 'dist', 'bench', 'scenarios', 'import.js');
}

/** The service in its own process; it prints its URL on stdout when listening. */
async function startChild(): Promise<{ child: ChildProcess; url: string }> {
  // BENCH_CPU_PROF / BENCH_HEAP_PROF=<dir>: the service writes a CPU or sampled allocation profile there.
  const profile = [
    ...(process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : []),
    ...(process.env.BENCH_HEAP_PROF ? ['--heap-prof', `--heap-prof-dir=${process.env.BENCH_HEAP_PROF}`] : []),
    // BENCH_NODE_FLAGS="--trace-gc …": more node flags for the service; its stdout then goes on to stderr.
    ...(process.env.BENCH_NODE_FLAGS ? process.env.BENCH_NODE_FLAGS.split(' ').filter((f) => f !== '') : []),
  ];
  const child = spawn(process.execPath, [...profile, compiledEntry(), '--serve'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    let text = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      const match = /LISTENING (\S+)/.exec(text);
      if (match?.[1]) resolve(match[1]);
      if (process.env.BENCH_NODE_FLAGS) process.stderr.write(chunk);
      text = text.slice(-200);
    });
    child.once('exit', (code) => reject(new Error(`the service exited with ${code}`)));
  });
  return { child, url };
}

/** User + system CPU seconds of a process so far (/proc/<pid>/stat fields 14 and 15, in clock ticks of 1/100 s). */
function cpuSecondsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

function rssOf(pid: number): { peakMb: number; nowMb: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { peakMb: kb('VmHWM') / 1024, nowMb: kb('VmRSS') / 1024 };
}

async function call(url: string, token: string, method: string, path: string, body?: unknown): Promise<any> {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const parsed = await response.json();
  if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(parsed).slice(0, 300)}`);
  return parsed;
}

async function setUpWorkspace(url: string, database: string): Promise<{ apiKey: string; views: Record<string, string> }> {
  await call(url, ADMIN_TOKEN, 'POST', '/api/admin/v1/orgs', { slug: 'benchimp', name: 'bench' });
  await call(url, ADMIN_TOKEN, 'POST', '/api/admin/v1/orgs/benchimp/workspaces', { slug: 'ws', name: 'ws', database: { vendor: 'postgres', url: database, schema: 'public' } });
  const key = await call(url, ADMIN_TOKEN, 'POST', '/api/admin/v1/orgs/benchimp/workspaces/ws/api-keys', { name: 'bench' });
  const views = await call(url, ADMIN_TOKEN, 'GET', '/api/admin/v1/orgs/benchimp/workspaces/ws/views');
  const byEntity: Record<string, string> = {};
  for (const v of views.data as { entity: string; uuid: string; isDefault: boolean }[]) if (v.isDefault) byEntity[v.entity] = v.uuid;
  return { apiKey: String(key.data.key), views: byEntity };
}

async function importOverHttp(url: string, apiKey: string, view: string, file: string, pid: number): Promise<{ seconds: number; done: any; peakMb: number }> {
  const started = performance.now();
  let peakNow = 0;
  const sampler = setInterval(() => (peakNow = Math.max(peakNow, rssOf(pid).nowMb)), 200);
  const response = await fetch(`${url}/api/data/import/${view}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'text/csv' },
    body: Readable.toWeb(createReadStream(file, { highWaterMark: 256 * 1024 })) as unknown as ReadableStream<Uint8Array>,
    duplex: 'half',
  } as RequestInit);
  const text = await response.text();
  clearInterval(sampler);
  const events = text.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as Record<string, unknown>);
  const done = events.find((e) => e.event === 'done');
  if (!done) throw new Error(`the import did not finish: ${JSON.stringify(events.slice(-2))}`);
  return { seconds: (performance.now() - started) / 1000, done, peakMb: peakNow };
}

export async function benchImport(options: { rows?: number; bulkRows?: number; bulkRounds?: number } = {}): Promise<ImportBenchResult> {
  const rows = options.rows ?? 1_000_000;
  const file = join(DATA_DIR, `import-${rows}.csv`);
  await generateCsv(file, rows);
  const name = `wdapi_bench_import_${Date.now().toString(36)}`;
  await adminQuery(`CREATE DATABASE ${name}`);
  const database = databaseUrl(name);
  await adminQuery(`${TABLE_DDL('items')}; ${TABLE_DDL('bulk_items')}; ${TABLE_DDL('items_raw')}`, database);
  const { child, url } = await startChild();
  try {
    const { apiKey, views } = await setUpWorkspace(url, database);
    const pid = child.pid ?? 0;
    const baseline = rssOf(pid);
    const cpuBefore = cpuSecondsOf(pid);
    const run = await importOverHttp(url, apiKey, views.items ?? '', file, pid);
    const cpuSeconds = cpuSecondsOf(pid) - cpuBefore;
    const peak = rssOf(pid);
    if (run.done.successCount !== rows) throw new Error(`expected ${rows} rows imported, got ${JSON.stringify(run.done)}`);
    const bulkTarget = { url, apiKey, view: views.bulkItems ?? '', database, rawTable: 'items_raw' };
    const bulk = await benchBulk(bulkTarget, { rows: options.bulkRows ?? 100_000, rounds: options.bulkRounds ?? 5 });
    return {
      rows, fileBytes: statSync(file).size, seconds: run.seconds, rowsPerSecond: rows / run.seconds,
      peakRssMb: Math.max(peak.peakMb, run.peakMb), baselineRssMb: baseline.nowMb, importGrowthMb: Math.max(0, run.peakMb - baseline.nowMb),
      cpuMicrosPerRow: (cpuSeconds * 1e6) / rows, bulk,
    };
  } finally {
    child.kill('SIGTERM');
    await once(child, 'exit').catch(() => undefined);
    await adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
}

export function formatImport(result: ImportBenchResult): string {
  const f = (n: number) => Math.round(n).toLocaleString('en-US');
  const lines = [
    `CSV import   ${f(result.rows)} rows, ${(result.fileBytes / 1e6).toFixed(1)} MB in ${result.seconds.toFixed(1)} s`,
    `  rows/s        ${f(result.rowsPerSecond).padStart(10)}   target ≥ ${f(IMPORT_TARGETS.rowsPerSecond)}   ${result.rowsPerSecond >= IMPORT_TARGETS.rowsPerSecond ? 'ok' : 'MISSED'}`,
    `  peak RSS      ${result.peakRssMb.toFixed(0).padStart(7)} MB   target ≤ ${IMPORT_TARGETS.peakRssMb} MB   ${result.peakRssMb <= IMPORT_TARGETS.peakRssMb ? 'ok' : 'MISSED'}   (whole service process, VmHWM)`,
    `  service CPU   ${result.cpuMicrosPerRow.toFixed(1).padStart(9)} µs/row (user + system, whole process)`,
    `    service before the import ${result.baselineRssMb.toFixed(0)} MB (control store on PostgreSQL, as in production); growth during the import ${result.importGrowthMb.toFixed(0)} MB`,
    ...formatBulk(result.bulk),
  ];
  return lines.join('\n');
}

/** BENCH_MEM_TRACE=1: the service prints where its memory is, once a second, on stderr. */
function traceMemory(): void {
  const m = process.memoryUsage();
  const mb = (n: number) => (n / 1e6).toFixed(0);
  process.stderr.write(`mem rss ${mb(m.rss)} heapUsed ${mb(m.heapUsed)} heapTotal ${mb(m.heapTotal)} external ${mb(m.external)} arrayBuffers ${mb(m.arrayBuffers)}\n`);
}

async function serve(): Promise<void> {
  const [{ startService }, { default: pino }] = await Promise.all([import('../../server/start.ts'), import('pino')]);
  const controlDatabaseUrl = await freshControlDatabase(ADMIN_URL, controlDatabaseName('import'));
  const service = await startService({ adminToken: ADMIN_TOKEN, logger: pino({ level: 'warn' }), controlDatabaseUrl, secretsKey: BENCH_SECRETS_KEY });
  process.stdout.write(`LISTENING ${service.url}\n`);
  if (process.env.BENCH_MEM_TRACE) setInterval(traceMemory, 1000).unref();
  const allocations = process.env.BENCH_ALLOC_PROF ? await sampleAllocations() : null;
  const writeAllocations = allocations ?? (async () => undefined);
  process.once('SIGTERM', () => void writeAllocations().then(() => service.close()).then(() => process.exit(0)));
}

/**
 * BENCH_ALLOC_PROF=<file>: every allocation the service makes is sampled, garbage included (unlike
 * --heap-prof, which keeps only what is still alive at exit), and written there as a .heapprofile
 * when the bench stops the service.
 */
async function sampleAllocations(): Promise<() => Promise<void>> {
  const { Session } = await import('node:inspector/promises');
  const { writeFileSync } = await import('node:fs');
  const session = new Session();
  session.connect();
  await session.post('HeapProfiler.startSampling', { samplingInterval: 16384, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true } as object);
  return async () => {
    const { profile } = await session.post('HeapProfiler.stopSampling');
    writeFileSync(process.env.BENCH_ALLOC_PROF ?? 'alloc.heapprofile', JSON.stringify(profile));
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = parseArgs({ options: { serve: { type: 'boolean' }, rows: { type: 'string' }, 'bulk-rows': { type: 'string' }, 'bulk-rounds': { type: 'string' } } });
  const number = (text: string | undefined) => (text === undefined ? undefined : Number(text));
  if (values.serve) await serve();
  else {
    const result = await benchImport({ rows: number(values.rows), bulkRows: number(values['bulk-rows']), bulkRounds: number(values['bulk-rounds']) });
    process.stdout.write(`${formatImport(result)}\n`);
  }
}
