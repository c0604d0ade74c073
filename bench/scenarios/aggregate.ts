/**
 * Issue 16's scenarios, each against a floor in the same run:
 * H `orders/aggregate` grouped by status vs the same GROUP BY on a bare pg pool (Koa + pg, and
 *   the service's own two statements on raw pg, printed beside);
 * I the whole orders table exported, vs COPY … TO STDOUT (bench/export16.ts).
 * A subject that answers non-2xx, or not the floor's numbers, is reported as failed and the
 * floors are still measured.
 */
import { isDeepStrictEqual } from 'node:util';
import { captureStatements, send } from '../harness/capture-sql.ts';
import { httpSide, measureSides, sqlSide, type Side } from '../harness/sides.ts';
import { runExport16 } from './export.ts';
import { ordersByStatus } from '../floors/aggregate.ts';
import type { ExportResult, ResultH } from './export-report.ts';
import { AGGREGATE_PATH, type Group16 } from './export-request.ts';
import type { Bench15 } from './reads.ts';

/** What issue 15's scenarios get, and the bench database's URL (the export's COPY floor opens its own client). */
export interface Bench16 extends Bench15 {
  readonly databaseUrl: string;
}

export interface Results16 {
  readonly H: ResultH | null;
  readonly I: ExportResult | null;
}

const SIZE = 20;

/**
 * H's measured seconds per side, at least: a request takes 1–2 s under 10 connections, so a 3–5 s
 * round finishes a few dozen and the requests cut off at each round's end swing the ratio by ±10%
 * (session 26: 78% at 9 s per side, 88–97% at 20–45 s, on the same code).
 */
const AGGREGATE_MIN_SECONDS = 45;

/** Why the service cannot be measured on H: a non-2xx answer, or numbers other than the floor's. */
async function aggregateFailure(bench: Bench16): Promise<string | null> {
  const ours = await send(bench.service, { method: 'GET', path: bench.service.records(AGGREGATE_PATH) });
  if (ours.status < 200 || ours.status >= 300) {
    const error = (ours.body as { error?: { message?: string } } | null)?.error;
    return `failed: HTTP ${ours.status} ${error?.message ?? JSON.stringify(ours.body)}`;
  }
  const theirs = await ordersByStatus(bench.pool, SIZE, 0);
  if (isDeepStrictEqual(ours.body, theirs)) return null;
  bench.log(`H: service and floor differ\nservice: ${JSON.stringify(ours.body)}\nfloor:   ${JSON.stringify(theirs)}`);
  return 'failed: the answer differs from the floor\'s (both printed on stderr)';
}

/** The statements the service sends for H, replayed on raw pg as it runs them (together). */
async function serviceSqlSide(bench: Bench16): Promise<Side> {
  const captured = await captureStatements(bench.service, { method: 'GET', path: bench.service.records(AGGREGATE_PATH) });
  const statements = captured.statements.map((s) => ({ text: s.text, values: [...s.params] }));
  const label = `raw pg, the service's ${statements.length} statements at once`;
  return sqlSide(label, () => Promise.all(statements.map((s) => bench.pool.query(s.text, s.values))), bench.connections);
}

async function runAggregate(bench: Bench16): Promise<ResultH> {
  const http = { url: bench.service.url, apiKey: bench.service.apiKey, connections: bench.connections };
  const request = { method: 'GET' as const, path: bench.service.records(AGGREGATE_PATH) };
  const failure = await aggregateFailure(bench);
  if (failure) bench.log(`H: ${failure}; measuring the floors only`);
  const subject = httpSide('service', http, request);
  const floor = sqlSide('raw pg GROUP BY', () => ordersByStatus(bench.pool, SIZE, 0), bench.connections);
  const beside = [httpSide('Koa + pg', { ...http, url: bench.floor.url }, request), ...(failure ? [] : [await serviceSqlSide(bench)])];
  const timing = { ...bench.timing, duration: Math.max(bench.timing.duration, AGGREGATE_MIN_SECONDS) };
  const measured = await measureSides([...(failure ? [] : [subject]), floor, ...beside], timing, (m) => bench.log(`H ${m}`));
  const ours = failure ? null : (measured.shift() ?? null);
  const [floorResult, ...besideResults] = measured;
  if (!floorResult) throw new Error('H: the floor was not measured');
  const label = `${AGGREGATE_PATH} over the 1M orders vs the same GROUP BY on a bare pg pool (${timing.duration} s per side)`;
  return { id: 'H', label, subjectLabel: subject.label, subject: ours, floor: floorResult, beside: besideResults, failure };
}

export async function runIssue16(bench: Bench16, groups: readonly Group16[]): Promise<Results16> {
  const H = groups.includes('H') ? await runAggregate(bench) : null;
  const I = groups.includes('I') ? await runExport16({ databaseUrl: bench.databaseUrl, pool: bench.pool, log: bench.log }) : null;
  return { H, I };
}
