/**
 * G, a `where` formula: the list of scenario A-none narrowed by a boolean formula, against a Koa
 * route running the same condition written by hand (floors/where.ts); raw pg running it beside.
 */
import { paidOrBigOrders, WHERE_FORMULA } from '../floors/where.ts';
import type { ComparisonTargets } from '../harness/report-comparison.ts';
import { httpSide, sqlSide } from '../harness/sides.ts';
import { getRequest, httpTargets, subjectFailure, type ComparisonPlan, type InProcessBench } from './against-floor.ts';

/** Under `/api/v1/{org}/{ws}`. */
export const WHERE_PATH = `/orders?size=20&sort=id,desc&count=none&where=${encodeURIComponent(WHERE_FORMULA)}`;

export const WHERE_TARGETS: ComparisonTargets = { minShare: 0.9 };

export async function planWhere(bench: InProcessBench): Promise<ComparisonPlan> {
  const { http, koa } = httpTargets(bench);
  return {
    label: `${decodeURIComponent(WHERE_PATH)} vs the condition written by hand`,
    subject: httpSide('service', http, getRequest(bench, WHERE_PATH)),
    floor: httpSide('Koa + hand SQL', koa, getRequest(bench, WHERE_PATH)),
    beside: [sqlSide('raw pg hand SQL', () => paidOrBigOrders(bench.pool, 20, 0), bench.connections)],
    failure: await subjectFailure(bench, WHERE_PATH, koa.url),
  };
}
