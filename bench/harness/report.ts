/**
 * The service against the Koa floor and the raw driver (A–D on PostgreSQL, and on MariaDB): the
 * targets, the verdicts, the printed table; and the JSON results file.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { SideResult } from './sides.ts';
import { pairedRatio } from './paired.ts';
import type { Scenario } from './requests.ts';

/** The verdict column's targets. */
export const FLOOR_TARGETS = {
  /** Service req/s at least this share of the hand-written Koa route's. */
  minShareOfKoa: 0.6,
  /** Service p99 below this multiple of the Koa route's p99. */
  maxP99OfKoa: 2,
  /** count=estimated keeps at least this share of the same list without a count. */
  minEstimatedShareOfNone: 0.7,
} as const;

/** Closeness to the same Koa floor, judged on the per-round ratios: server CPU, req/s and p99. */
export const PARITY_TARGETS = { maxCpuOfKoa: 1.25, minShareOfKoa: 0.8, maxP99OfKoa: 1.5 } as const;

/**
 * One line per scenario: the parity ratios, each the median of the per-round ratios (paired.ts),
 * with the pooled one beside it, and whether all three are met (the table's verdict column is
 * judged by FLOOR_TARGETS).
 */
export function formatParity(results: readonly ScenarioResult[]): string[] {
  return results.map(({ scenario, service, koa }) => {
    const cpu = pairedRatio(service, koa, 'cpuMicros');
    const share = pairedRatio(service, koa, 'rps');
    const p99 = pairedRatio(service, koa, 'p99');
    const met = cpu <= PARITY_TARGETS.maxCpuOfKoa && share >= PARITY_TARGETS.minShareOfKoa && p99 <= PARITY_TARGETS.maxP99OfKoa;
    const pooled = `pooled ${(service.cpuMicros / koa.cpuMicros).toFixed(2)}x, ${percent(service.rps / koa.rps)}, ${(service.p99 / koa.p99).toFixed(2)}x`;
    return `${scenario.id.padEnd(12)} CPU ${cpu.toFixed(2)}x Koa's (<= ${PARITY_TARGETS.maxCpuOfKoa})  req/s ${percent(share)} (>= ${percent(PARITY_TARGETS.minShareOfKoa)})  p99 ${p99.toFixed(2)}x (<= ${PARITY_TARGETS.maxP99OfKoa})  ${met ? 'met' : 'NOT MET'}  (${pooled})`;
  });
}

export interface ScenarioResult {
  readonly scenario: Scenario;
  readonly service: SideResult;
  readonly koa: SideResult;
  readonly rawPg: SideResult;
}

export interface Verdict {
  readonly shareOfRawPg: number;
  readonly shareOfKoa: number;
  readonly p99OfKoa: number;
  /** B-estimated only: req/s over B-none's. */
  readonly shareOfNone: number | null;
  readonly pass: boolean;
  readonly failures: string[];
}

function percent(x: number): string {
  return `${Math.round(x * 100)}%`;
}

export function judge(result: ScenarioResult, all: readonly ScenarioResult[]): Verdict {
  const { service, koa, rawPg } = result;
  const shareOfKoa = service.rps / koa.rps;
  const p99OfKoa = service.p99 / koa.p99;
  const failures: string[] = [];
  if (!(shareOfKoa >= FLOOR_TARGETS.minShareOfKoa)) failures.push(`req/s ${percent(shareOfKoa)} of Koa < ${percent(FLOOR_TARGETS.minShareOfKoa)}`);
  if (!(p99OfKoa < FLOOR_TARGETS.maxP99OfKoa)) failures.push(`p99 ${p99OfKoa.toFixed(2)}x Koa's >= ${FLOOR_TARGETS.maxP99OfKoa}x`);
  let shareOfNone: number | null = null;
  const none = all.find((r) => r.scenario.id === 'B-none');
  if (result.scenario.id === 'B-estimated' && none) {
    shareOfNone = service.rps / none.service.rps;
    if (!(shareOfNone >= FLOOR_TARGETS.minEstimatedShareOfNone)) failures.push(`req/s ${percent(shareOfNone)} of B-none < ${percent(FLOOR_TARGETS.minEstimatedShareOfNone)}`);
  }
  for (const [name, m] of [['service', service], ['Koa', koa], ['raw pg', rawPg]] as const) {
    if (m.errors > 0) failures.push(`${m.errors} failed requests (${name})`);
  }
  return { shareOfRawPg: service.rps / rawPg.rps, shareOfKoa, p99OfKoa, shareOfNone, pass: failures.length === 0, failures };
}

/** µs/req: CPU of the serving process (service, Koa floor) per answered request. */
const headers = (raw: string): string[] => ['scenario', 'req/s', 'p50 ms', 'p99 ms', 'µs/req', `${raw} ops/s`, 'koa req/s', 'koa p99', 'koa µs/req', `/${raw}`, '/koa', 'p99/koa', 'verdict'];

function rowOf(result: ScenarioResult, verdict: Verdict): string[] {
  const f1 = (x: number): string => (Number.isFinite(x) ? x.toFixed(1) : '-');
  const f2 = (x: number): string => (Number.isFinite(x) ? x.toFixed(2) : '-');
  const { service, koa, rawPg } = result;
  return [
    result.scenario.id,
    f1(service.rps), f2(service.p50), f2(service.p99), service.cpuMicros.toFixed(0),
    f1(rawPg.rps), f1(koa.rps), f2(koa.p99), koa.cpuMicros.toFixed(0),
    percent(verdict.shareOfRawPg), percent(verdict.shareOfKoa), `${f2(verdict.p99OfKoa)}x`,
    verdict.pass ? 'PASS' : 'FAIL',
  ];
}

/** `raw` names the raw-driver floor's column: 'pg', or 'mysql2' for the MariaDB table. */
export function formatTable(results: readonly ScenarioResult[], verdicts: readonly Verdict[], raw = 'pg'): string {
  const HEADERS = headers(raw);
  const rows = [HEADERS, ...results.map((r, i) => rowOf(r, verdicts[i] as Verdict))];
  const widths = HEADERS.map((_, c) => Math.max(...rows.map((row) => (row[c] ?? '').length)));
  const line = (row: string[]): string => row.map((cell, c) => (c === 0 ? cell.padEnd(widths[c] ?? 0) : cell.padStart(widths[c] ?? 0))).join('  ');
  const rule = widths.map((w) => '-'.repeat(w)).join('  ');
  const notes = results.flatMap((r, i) => {
    const v = verdicts[i] as Verdict;
    const extra = v.shareOfNone === null ? [] : [`${r.scenario.id}: ${percent(v.shareOfNone)} of B-none req/s (target >= ${percent(FLOOR_TARGETS.minEstimatedShareOfNone)})`];
    return [...extra, ...v.failures.map((f) => `${r.scenario.id}: FAIL ${f}`)];
  });
  // The parity bounds are set for PostgreSQL; the MariaDB table is judged by its verdict column alone.
  const parity = raw !== 'pg' ? [] : ['', 'parity with the Koa floor (server CPU, req/s and p99, medians of the per-round ratios; not the verdict column above)', ...formatParity(results)];
  return [line(rows[0] as string[]), rule, ...rows.slice(1).map(line), ...(notes.length ? ['', ...notes] : []), ...parity].join('\n');
}

export function writeResults(file: string, payload: unknown): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(payload, null, 2)}\n`);
}
