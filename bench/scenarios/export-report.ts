/**
 * I's targets, verdict and table: rows/s of the service's exports against the COPY floor, with
 * the service's peak RSS and CPU per export.
 */
import type { ServiceUsage } from '../harness/service-process.ts';
import type { ExportRead } from '../harness/export-read.ts';
import { DATASET } from '../harness/dataset.ts';

/** CSV rows/s at least this share of COPY's; the service's peak RSS during an export at most this. */
export const EXPORT_TARGETS = { minShare: 0.5, maxPeakRssBytes: 150 * 1024 * 1024 } as const;

export interface ExportSide {
  readonly label: string;
  readonly reads: readonly ExportRead[];
  /** The service's usage per read (empty for the COPY floor). */
  readonly usages: readonly ServiceUsage[];
  readonly failure: string | null;
}

export interface ExportResult {
  readonly floor: ExportSide;
  readonly csv: ExportSide;
  readonly ndjson: ExportSide;
  /** How the service child ran: compiled on node, or under tsx. */
  readonly runtime: string;
}

export interface ExportSummary {
  readonly rowsPerSecond: number;
  readonly secondsPerExport: number;
  readonly rows: number;
  readonly megabytes: number;
  readonly peakRssMb: number | null;
  readonly baseRssMb: number | null;
  /** The largest growth over one export's base. */
  readonly growthMb: number | null;
  readonly cpuSecondsPerExport: number | null;
}

const MB = 1024 * 1024;
const mean = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;

export function summariseExport(side: ExportSide): ExportSummary | null {
  if (side.reads.length === 0) return null;
  const rows = side.reads.reduce((sum, r) => sum + r.rows, 0);
  const seconds = side.reads.reduce((sum, r) => sum + r.seconds, 0);
  const usage = side.usages.length > 0;
  return {
    rowsPerSecond: rows / seconds,
    secondsPerExport: seconds / side.reads.length,
    rows: side.reads[0]?.rows ?? 0,
    megabytes: (side.reads[0]?.bytes ?? 0) / MB,
    peakRssMb: usage ? Math.max(...side.usages.map((u) => u.peakRss)) / MB : null,
    baseRssMb: usage ? Math.min(...side.usages.map((u) => u.baseRss)) / MB : null,
    growthMb: usage ? Math.max(...side.usages.map((u) => u.peakRss - u.baseRss)) / MB : null,
    cpuSecondsPerExport: usage ? mean(side.usages.map((u) => u.cpuMicros)) / 1e6 : null,
  };
}

export interface ExportVerdict {
  readonly share: number | null;
  readonly pass: boolean;
  readonly notes: string[];
}

const percent = (x: number): string => `${Math.round(x * 100)}%`;

/** Every read of `side` must hold the whole table, exactly once. */
function rowNotes(side: ExportSide): string[] {
  return side.reads.filter((r) => r.rows !== DATASET.orders).map((r) => `${side.label}: ${r.rows} rows, expected ${DATASET.orders}`);
}

export function judgeExport(result: ExportResult): ExportVerdict {
  const floor = summariseExport(result.floor);
  const csv = summariseExport(result.csv);
  const notes = [...rowNotes(result.floor), ...rowNotes(result.csv), ...rowNotes(result.ndjson)];
  if (result.ndjson.failure) notes.push(`${result.ndjson.label}: ${result.ndjson.failure}`);
  if (!csv || !floor) return { share: null, pass: false, notes: [result.csv.failure ?? 'not measured', ...notes] };
  const share = csv.rowsPerSecond / floor.rowsPerSecond;
  if (!(share >= EXPORT_TARGETS.minShare)) notes.push(`CSV rows/s ${percent(share)} of COPY's < ${percent(EXPORT_TARGETS.minShare)}`);
  const maxMb = EXPORT_TARGETS.maxPeakRssBytes / MB;
  if (csv.peakRssMb !== null && !(csv.peakRssMb <= maxMb)) notes.push(`service peak RSS ${csv.peakRssMb.toFixed(0)} MB during a CSV export > ${maxMb} MB`);
  return { share, pass: notes.length === 0 && !result.csv.failure, notes };
}

const HEADERS = ['side', 'rows', 'MB', 's/export', 'rows/s', '/COPY', 'peak RSS MB', 'base RSS MB', 'growth MB', 'CPU s/export', 'verdict'];
const f1 = (x: number | null): string => (x === null || !Number.isFinite(x) ? '-' : x.toFixed(1));

function rowOf(side: ExportSide, floor: ExportSummary | null, verdict: string): string[] {
  const s = summariseExport(side);
  if (!s) return [side.label, '-', '-', '-', '-', '-', '-', '-', '-', '-', verdict];
  const share = floor ? percent(s.rowsPerSecond / floor.rowsPerSecond) : '-';
  return [side.label, String(s.rows), f1(s.megabytes), f1(s.secondsPerExport), s.rowsPerSecond.toFixed(0), share, f1(s.peakRssMb), f1(s.baseRssMb), f1(s.growthMb), f1(s.cpuSecondsPerExport), verdict];
}

export function formatExport(result: ExportResult, verdict: ExportVerdict): string {
  const floor = summariseExport(result.floor);
  const goal = `>= ${percent(EXPORT_TARGETS.minShare)} of COPY, peak RSS <= ${EXPORT_TARGETS.maxPeakRssBytes / MB} MB`;
  const rows = [
    HEADERS,
    rowOf(result.floor, floor, 'floor'),
    rowOf(result.csv, floor, `${verdict.pass ? 'PASS' : 'FAIL'} (${goal})`),
    rowOf(result.ndjson, floor, result.ndjson.failure ? 'failed' : ''),
  ];
  const widths = HEADERS.map((_, c) => Math.max(...rows.map((row) => (row[c] ?? '').length)));
  const line = (row: string[]): string => row.map((cell, c) => (c === 0 || c === 10 ? cell.padEnd(widths[c] ?? 0) : cell.padStart(widths[c] ?? 0))).join('  ').trimEnd();
  const legend = [
    `I: export of the ${DATASET.orders} orders, ${result.floor.reads.length} whole exports per side taken in turns`,
    `   the service runs alone in a child process: ${result.runtime}`,
    '   (peak RSS: kernel VmHWM reset before each export, or 10 ms samples; base RSS after a GC before the export; CPU: the child\'s user+system)',
  ];
  const notes = verdict.notes.map((n) => `I: ${n}`);
  return ['Export against COPY (I)', ...legend, '', line(rows[0] as string[]), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.slice(1).map(line), ...(notes.length ? ['', ...notes] : [])].join('\n');
}
