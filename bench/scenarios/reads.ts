/**
 * The reads beyond a plain page, each against a floor measured in the same run: E one-to-many
 * expansion (expand.ts), F a far cursor page (cursor.ts), G a `where` formula (where.ts). Measured
 * one after the other and printed in one table.
 */
import { formatComparisons, judgeComparison, type Comparison, type ComparisonTargets, type ComparisonVerdict } from '../harness/report-comparison.ts';
import { measureAgainstFloor, type ComparisonPlan, type InProcessBench } from './against-floor.ts';
import { CURSOR_TARGETS, planCursor } from './cursor.ts';
import { EXPAND_TARGETS, planExpand } from './expand.ts';
import { planWhere, WHERE_TARGETS } from './where.ts';

export type ReadId = 'E' | 'F' | 'G';

export const READ_IDS: readonly ReadId[] = ['E', 'F', 'G'];

export const READ_TARGETS: Record<ReadId, ComparisonTargets> = { E: EXPAND_TARGETS, F: CURSOR_TARGETS, G: WHERE_TARGETS };

const PLANS: Record<ReadId, (bench: InProcessBench) => Promise<ComparisonPlan>> = { E: planExpand, F: planCursor, G: planWhere };

export type ReadResult = Comparison<ReadId>;

export async function runReads(bench: InProcessBench, ids: readonly ReadId[]): Promise<ReadResult[]> {
  const results: ReadResult[] = [];
  for (const id of ids) results.push(await measureAgainstFloor(bench, id, await PLANS[id](bench)));
  return results;
}

export const judgeRead = (result: ReadResult): ComparisonVerdict => judgeComparison(result, READ_TARGETS[result.id]);

export function formatReads(results: readonly ReadResult[]): string {
  return formatComparisons('Reads against their floors (E expand, F cursor, G where)', results, (id) => READ_TARGETS[id], results.map(judgeRead));
}
