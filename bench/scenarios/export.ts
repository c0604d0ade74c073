/**
 * I, an export: the 1M orders exported whole, as the database's own COPY … TO STDOUT
 * (the floor, read by this process through pg-copy-streams) and as the service's CSV and NDJSON
 * exports (the service alone in a child process, so its peak RSS and CPU are its own). Whole
 * exports take turns (COPY, CSV, NDJSON, COPY, …); a format the service refuses is reported as
 * failed and the others are still measured.
 */
import type pg from 'pg';
import { buildDist } from '../harness/build-dist.ts';
import { controlDatabaseName } from '../harness/control-db.ts';
import { readCopy, readHttpExport, type ExportRead } from '../harness/export-read.ts';
import type { ExportResult, ExportSide } from './export-report.ts';
import { startServiceProcess, type ServiceProcess, type ServiceUsage } from '../harness/service-process.ts';

/** Every order, unpaged, in the list's default order (by id); under `/api/v1/{org}/{ws}`. */
type ExportFormat = 'csv' | 'ndjson';
const exportPath = (format: ExportFormat): string => `/orders?format=${format}`;
const EXPORT_CONTENT_TYPES: Record<ExportFormat, string> = { csv: 'text/csv', ndjson: 'application/x-ndjson' };

/** Full exports per side, taken in turns (COPY, CSV, NDJSON, COPY, …). */
const EXPORT_ROUNDS = 3;

/** The columns of the service's orders export, in its order (by id), formatted by the database. */
const COPY_SELECT = `SELECT id, customer_id, product_id, quantity, amount, status, note, ordered_at, created_at, updated_at
  FROM orders ORDER BY id`;

export interface ExportBench {
  readonly databaseUrl: string;
  readonly pool: pg.Pool;
  log(message: string): void;
}

interface Tally {
  readonly label: string;
  readonly reads: ExportRead[];
  readonly usages: ServiceUsage[];
  failure: string | null;
}

const tally = (label: string): Tally => ({ label, reads: [], usages: [], failure: null });

/** A first page, so the workspace's model is loaded before the measurement begins. */
async function warmUp(service: ServiceProcess): Promise<void> {
  const response = await fetch(`${service.url}${service.records('/orders?size=1&count=none')}`, { headers: { authorization: `Bearer ${service.apiKey}` } });
  await response.arrayBuffer();
}

/**
 * One export from a fresh service process: a process that exported before keeps the RSS its
 * heap grew to (seen: 176 MB after an NDJSON export, kept through the next CSV one), which
 * would be charged to the next export.
 */
async function exportOnce(databaseUrl: string, compiled: string | null, format: ExportFormat, into: Tally): Promise<void> {
  const service = await startServiceProcess(databaseUrl, compiled, controlDatabaseName('export'));
  try {
    await warmUp(service);
    await service.mark();
    const url = `${service.url}${service.records(exportPath(format))}`;
    const outcome = await readHttpExport({ url, apiKey: service.apiKey, contentType: EXPORT_CONTENT_TYPES[format], header: format === 'csv' });
    const usage = await service.read();
    if ('failure' in outcome) into.failure = outcome.failure;
    else {
      into.reads.push(outcome.read);
      into.usages.push(usage);
    }
  } finally {
    await service.close();
  }
}

function side(t: Tally): ExportSide {
  return { label: t.label, reads: t.reads, usages: t.usages, failure: t.failure };
}

const seconds = (read: ExportRead): string => `${read.rows} rows in ${read.seconds.toFixed(1)}s`;

/** The compiled child when the build succeeds, else the TypeScript one under tsx (said in the table). */
async function compiledChild(bench: ExportBench): Promise<{ compiled: string | null; runtime: string }> {
  const build = await buildDist();
  if ('failure' in build) bench.log(`I: ${build.failure}; the service child runs under tsx`);
  else bench.log(`I: built dist/ in ${build.seconds.toFixed(0)}s`);
  const compiled = 'child' in build ? build.child : null;
  const runtime = compiled ? 'node dist/bench/harness/service-child.js (compiled, as start:dist runs)' : 'tsx bench/harness/service-child.ts (the build failed)';
  return { compiled, runtime: `${runtime}, a fresh one per export after one warm-up page` };
}

export async function runExport(bench: ExportBench): Promise<ExportResult> {
  const { compiled, runtime } = await compiledChild(bench);
  const copy = tally('COPY csv (pg-copy-streams)');
  const csv = tally('service csv');
  const ndjson = tally('service ndjson');
  const formats: [ExportFormat, Tally][] = [['csv', csv], ['ndjson', ndjson]];
  for (let round = 1; round <= EXPORT_ROUNDS; round++) {
    const read = await readCopy(bench.pool, COPY_SELECT);
    copy.reads.push(read);
    bench.log(`I round ${round}/${EXPORT_ROUNDS}: COPY ${seconds(read)}`);
    for (const [format, t] of formats) {
      if (t.failure) continue;
      await exportOnce(bench.databaseUrl, compiled, format, t);
      const last = t.reads.at(-1);
      bench.log(`I round ${round}/${EXPORT_ROUNDS}: ${format} ${t.failure ?? (last ? seconds(last) : '')}`);
    }
  }
  return { floor: side(copy), csv: side(csv), ndjson: side(ndjson), runtime };
}
