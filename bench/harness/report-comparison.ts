/** Issue 15's targets, verdicts and table: every figure beside the floor measured in the same run. */
import type { SideResult } from './sides.ts';
import { pairedRatio } from './paired.ts';
import type { Group15 } from '../scenarios/expand.ts';

export interface Targets15 {
  /** Subject req/s at least this share of the floor's. */
  readonly minShare: number;
  /** Subject p99 at most this multiple of the floor's, when the issue sets one. */
  readonly maxP99Ratio?: number;
}

export const TARGETS_15: Record<Group15, Targets15> = {
  E: { minShare: 0.6, maxP99Ratio: 2 },
  F: { minShare: 0.9 },
  G: { minShare: 0.9 },
};

/** A subject against its floor; issue 16's aggregate scenario (H) is printed the same way. */
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

export type Result15 = Comparison<Group15>;

export interface Verdict15 {
  readonly share: number | null;
  readonly p99Ratio: number | null;
  readonly pass: boolean;
  readonly notes: string[];
}

const percent = (x: number): string => `${Math.round(x * 100)}%`;

export function judge15(result: Result15): Verdict15 {
  return judgeComparison(result, TARGETS_15[result.id]);
}

export function judgeComparison(result: Comparison, targets: Targets15): Verdict15 {
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

function rowsOf(result: Comparison, target: Targets15, verdict: Verdict15): string[][] {
  const goal = `>= ${percent(target.minShare)}${target.maxP99Ratio ? `, p99 <= ${target.maxP99Ratio}x` : ''}`;
  const subject = result.subject
    ? sideRow(result.id, result.subject, result.floor, `${verdict.pass ? 'PASS' : 'FAIL'} (${goal})`)
    : [result.id, result.subjectLabel, '-', '-', '-', '-', '-', '-', `FAIL (${goal})`];
  return [subject, sideRow('', result.floor, result.floor, 'floor'), ...result.beside.map((side) => sideRow('', side, result.floor, ''))];
}

export function formatTable15(results: readonly Result15[], verdicts: readonly Verdict15[]): string {
  return formatComparisons('Issue 15', results, (id) => TARGETS_15[id], verdicts);
}

export function formatComparisons<Id extends string>(title: string, results: readonly Comparison<Id>[], targetsOf: (id: Id) => Targets15, verdicts: readonly Verdict15[]): string {
  const rows = [HEADERS, ...results.flatMap((r, i) => rowsOf(r, targetsOf(r.id), verdicts[i] as Verdict15))];
  const widths = HEADERS.map((_, c) => Math.max(...rows.map((row) => (row[c] ?? '').length)));
  const line = (row: string[]): string => row.map((cell, c) => (c < 2 || c === 8 ? cell.padEnd(widths[c] ?? 0) : cell.padStart(widths[c] ?? 0))).join('  ').trimEnd();
  const rule = widths.map((w) => '-'.repeat(w)).join('  ');
  const legend = results.map((r) => `${r.id}: ${r.label}`);
  const notes = results.flatMap((r, i) => (verdicts[i] as Verdict15).notes.map((n) => `${r.id}: ${n}`));
  return [title, ...legend, '', line(rows[0] as string[]), rule, ...rows.slice(1).map(line), ...(notes.length ? ['', ...notes] : [])].join('\n');
}
