/**
 * A subject against its floor measured in the same run: the targets, the verdict and the table
 * that the reads (E, F, G) and the aggregate (H) are printed in; and the two-side block of the
 * cluster scenarios (J, K), a base beside the subject.
 */
import type { SideResult } from './sides.ts';
import { pairedRatio } from './paired.ts';

export interface ComparisonTargets {
  /** Subject req/s at least this share of the floor's. */
  readonly minShare: number;
  /** Subject p99 at most this multiple of the floor's, when the scenario sets one. */
  readonly maxP99Ratio?: number;
}

/** A subject against its floor. */
export interface Comparison<Id extends string = string> {
  readonly id: Id;
  readonly label: string;
  readonly subjectLabel: string;
  /** null when the subject could not be measured (see failure). */
  readonly subject: SideResult | null;
  readonly floor: SideResult;
  /** Printed for context, not judged (raw pg, OFFSET paging). */
  readonly beside: readonly SideResult[];
  /** Why the subject was not measured: `failed: HTTP 400 …`, or an answer that differs from the floor's. */
  readonly failure: string | null;
}

export interface ComparisonVerdict {
  readonly share: number | null;
  readonly p99Ratio: number | null;
  readonly pass: boolean;
  readonly notes: string[];
}

const percent = (x: number): string => `${Math.round(x * 100)}%`;

export function judgeComparison(result: Comparison, targets: ComparisonTargets): ComparisonVerdict {
  if (!result.subject) return { share: null, p99Ratio: null, pass: false, notes: [result.failure ?? 'not measured'] };
  const share = pairedRatio(result.subject, result.floor, 'rps');
  const p99Ratio = pairedRatio(result.subject, result.floor, 'p99');
  const notes: string[] = [];
  if (!(share >= targets.minShare)) notes.push(`req/s ${percent(share)} of the floor < ${percent(targets.minShare)}`);
  if (targets.maxP99Ratio !== undefined && !(p99Ratio <= targets.maxP99Ratio)) notes.push(`p99 ${p99Ratio.toFixed(2)}x the floor's > ${targets.maxP99Ratio}x`);
  for (const side of [result.subject, result.floor, ...result.beside]) {
    if (side.errors > 0) notes.push(`${side.errors} failed requests (${side.label})`);
  }
  return { share, p99Ratio, pass: notes.length === 0, notes };
}

const HEADERS = ['scenario', 'side', 'req/s', 'p50 ms', 'p99 ms', 'CPU µs/req', '/floor', 'p99/floor', 'verdict'];

const f1 = (x: number): string => (Number.isFinite(x) ? x.toFixed(1) : '-');
const f2 = (x: number): string => (Number.isFinite(x) ? x.toFixed(2) : '-');

function sideRow(id: string, side: SideResult, floor: SideResult, verdict: string): string[] {
  // The ratios are the verdict's: medians of the per-round ratios (paired.ts); the figures are pooled.
  return [id, side.label, f1(side.rps), f2(side.p50), f2(side.p99), side.cpuMicros.toFixed(0), percent(pairedRatio(side, floor, 'rps')), `${f2(pairedRatio(side, floor, 'p99'))}x`, verdict];
}

function rowsOf(result: Comparison, target: ComparisonTargets, verdict: ComparisonVerdict): string[][] {
  const goal = `>= ${percent(target.minShare)}${target.maxP99Ratio ? `, p99 <= ${target.maxP99Ratio}x` : ''}`;
  const subject = result.subject
    ? sideRow(result.id, result.subject, result.floor, `${verdict.pass ? 'PASS' : 'FAIL'} (${goal})`)
    : [result.id, result.subjectLabel, '-', '-', '-', '-', '-', '-', `FAIL (${goal})`];
  return [subject, sideRow('', result.floor, result.floor, 'floor'), ...result.beside.map((side) => sideRow('', side, result.floor, ''))];
}

export function formatComparisons<Id extends string>(title: string, results: readonly Comparison<Id>[], targetsOf: (id: Id) => ComparisonTargets, verdicts: readonly ComparisonVerdict[]): string {
  const rows = [HEADERS, ...results.flatMap((r, i) => rowsOf(r, targetsOf(r.id), verdicts[i] as ComparisonVerdict))];
  const widths = HEADERS.map((_, c) => Math.max(...rows.map((row) => (row[c] ?? '').length)));
  const line = (row: string[]): string => row.map((cell, c) => (c < 2 || c === 8 ? cell.padEnd(widths[c] ?? 0) : cell.padStart(widths[c] ?? 0))).join('  ').trimEnd();
  const rule = widths.map((w) => '-'.repeat(w)).join('  ');
  const legend = results.map((r) => `${r.id}: ${r.label}`);
  const notes = results.flatMap((r, i) => (verdicts[i] as ComparisonVerdict).notes.map((n) => `${r.id}: ${n}`));
  return [title, ...legend, '', line(rows[0] as string[]), rule, ...rows.slice(1).map(line), ...(notes.length ? ['', ...notes] : [])].join('\n');
}

/** A subject beside a base it adds something to (a balancer, a rate limit): not judged by a floor. */
export interface BaseComparison {
  readonly id: string;
  readonly label: string;
  readonly base: SideResult;
  readonly subject: SideResult;
}

function baseRow(result: SideResult): string {
  const errors = result.errors > 0 ? `, ${result.errors} errors` : '';
  return `${result.label.padEnd(30)} ${result.rps.toFixed(0).padStart(7)} req/s  p50 ${result.p50.toFixed(1)} ms  p99 ${result.p99.toFixed(1)} ms  server CPU ${result.cpuMicros.toFixed(0)} µs/request${errors}`;
}

/** The extra server CPU per request of the subject over the base, signed. */
export function cpuDelta(result: BaseComparison): string {
  const cpu = result.subject.cpuMicros - result.base.cpuMicros;
  return `${cpu >= 0 ? '+' : ''}${cpu.toFixed(0)} µs server CPU per request`;
}

/** The comparison's lines, or the reason it was skipped; `verdict` reads the ratio of the subject's req/s to the base's. */
export function formatBaseComparison(result: BaseComparison | string, id: string, verdict: (ratio: number, result: BaseComparison) => string): string[] {
  if (typeof result === 'string') return [`${id}: ${result}`];
  const ratio = result.subject.rps / result.base.rps;
  return [`${id}: ${result.label}`, `   ${baseRow(result.base)}`, `   ${baseRow(result.subject)}`, `   ${verdict(ratio, result)}`];
}
