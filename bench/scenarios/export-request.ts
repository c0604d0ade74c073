/**
 * Issue 16's measured requests (paths under `/api/v1/{org}/{ws}`), each judged against a floor
 * measured in the same run; `--only H,I` (or `--only 16`) selects them.
 */
export type Group16 = 'H' | 'I';

export const GROUPS_16: readonly Group16[] = ['H', 'I'];

/** H: the 1M orders grouped by status (4 groups), counted and their amounts summed. */
export const AGGREGATE_PATH = '/orders/aggregate?groupBy=status&metrics=count,sum:amount';

/** I: every order, unpaged, in the list's default order (by id). */
export type ExportFormat = 'csv' | 'ndjson';
export const exportPath = (format: ExportFormat): string => `/orders?format=${format}`;
export const EXPORT_CONTENT_TYPES: Record<ExportFormat, string> = { csv: 'text/csv', ndjson: 'application/x-ndjson' };

/** I: full exports per side, taken in turns (COPY, CSV, NDJSON, COPY, …). */
export const EXPORT_ROUNDS = 3;

export function selectGroups16(only: readonly string[] | null): Group16[] {
  if (!only) return [...GROUPS_16];
  const wanted = new Set(only.map((s) => s.trim().toUpperCase()));
  return GROUPS_16.filter((g) => wanted.has(g) || wanted.has('16'));
}
