/**
 * H, an aggregate: `orders/aggregate` grouped by status against the same GROUP BY on a bare pg
 * pool (floors/aggregate.ts); the Koa + pg route and the service's own statements on raw pg beside.
 */
import { isDeepStrictEqual } from 'node:util';
import { ordersByStatus } from '../floors/aggregate.ts';
import { captureStatements, send } from '../harness/capture-sql.ts';
import { formatComparisons, judgeComparison, type Comparison, type ComparisonTargets, type ComparisonVerdict } from '../harness/report-comparison.ts';
import { httpSide, sqlSide, type Side } from '../harness/sides.ts';
import { getRequest, httpFailure, httpTargets, measureAgainstFloor, type InProcessBench } from './against-floor.ts';

/** The 1M orders grouped by status (4 groups), counted and their amounts summed; under `/api/v1/{org}/{ws}`. */
export const AGGREGATE_PATH = '/orders/aggregate?groupBy=status&metrics=count,sum:amount';

export const AGGREGATE_TARGETS: ComparisonTargets = { minShare: 0.85 };

export type AggregateResult = Comparison<'H'>;

const SIZE = 20;

/**
 * The measured seconds per side, at least: a request takes 1–2 s under 10 connections, so a 3–5 s
 * round finishes a few dozen and the requests cut off at each round's end swing the ratio by ±10%
 * (seen: 78% at 9 s per side, 88–97% at 20–45 s, on the same code).
 */
const AGGREGATE_MIN_SECONDS = 45;

/** Why the service cannot be measured: a non-2xx answer, or numbers other than the floor's. */
async function aggregateFailure(bench: InProcessBench): Promise<string | null> {
  const ours = await send(bench.service, getRequest(bench, AGGREGATE_PATH));
  const failed = httpFailure(ours);
  if (failed) return failed;
  const theirs = await ordersByStatus(bench.pool, SIZE, 0);
  if (isDeepStrictEqual(ours.body, theirs)) return null;
  bench.log(`H: service and floor differ\nservice: ${JSON.stringify(ours.body)}\nfloor:   ${JSON.stringify(theirs)}`);
  return 'failed: the answer differs from the floor\'s (both printed on stderr)';
}

/** The statements the service sends for H, replayed on raw pg as it runs them (together). */
async function serviceSqlSide(bench: InProcessBench): Promise<Side> {
  const captured = await captureStatements(bench.service, getRequest(bench, AGGREGATE_PATH));
  const statements = captured.statements.map((s) => ({ text: s.text, values: [...s.params] }));
  const label = `raw pg, the service's ${statements.length} statements at once`;
  return sqlSide(label, () => Promise.all(statements.map((s) => bench.pool.query(s.text, s.values))), bench.connections);
}

export async function runAggregate(bench: InProcessBench): Promise<AggregateResult> {
  const { http, koa } = httpTargets(bench);
  const request = getRequest(bench, AGGREGATE_PATH);
  const failure = await aggregateFailure(bench);
  const timing = { ...bench.timing, duration: Math.max(bench.timing.duration, AGGREGATE_MIN_SECONDS) };
  const plan = {
    label: `${AGGREGATE_PATH} over the 1M orders vs the same GROUP BY on a bare pg pool (${timing.duration} s per side)`,
    subject: httpSide('service', http, request),
    floor: sqlSide('raw pg GROUP BY', () => ordersByStatus(bench.pool, SIZE, 0), bench.connections),
    beside: [httpSide('Koa + pg', koa, request), ...(failure ? [] : [await serviceSqlSide(bench)])],
    failure,
  };
  return measureAgainstFloor(bench, 'H', plan, timing);
}

export const judgeAggregate = (result: AggregateResult): ComparisonVerdict => judgeComparison(result, AGGREGATE_TARGETS);

export function formatAggregate(result: AggregateResult): string {
  return formatComparisons('Aggregate against its floor (H)', [result], () => AGGREGATE_TARGETS, [judgeAggregate(result)]);
}
