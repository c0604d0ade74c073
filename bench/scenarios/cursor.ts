/**
 * F, keyset paging far from the start: cursor page 50,000 of orders against cursor page 0 on the
 * same service (OFFSET page 50,000 measured beside them). The far page's cursor is obtained the
 * way a client obtains it: by walking from the first page and following `meta.nextCursor`. Pages
 * of 1000 (the maximum size) keep the walk to ~1000 requests (about 12 s on the bench machine);
 * `size` may change between pages, the query may not.
 */
import { isDeepStrictEqual } from 'node:util';
import { send } from '../harness/capture-sql.ts';
import type { ComparisonTargets } from '../harness/report-comparison.ts';
import type { BenchService } from '../harness/service.ts';
import { httpSide } from '../harness/sides.ts';
import { getRequest, httpTargets, type ComparisonPlan, type InProcessBench } from './against-floor.ts';

/**
 * count=none on every side, or the 1M-row COUNT(*) that each request would run hides the cost of
 * reaching the page. "Page 50,000" is the 50,000th page of 20 (rows 999,981–1,000,000, the last
 * full page); offset paging counts pages from 0, so it is `page=49999` there (`page=50000` would
 * be past the last row). Paths under `/api/v1/{org}/{ws}`.
 */
export const CURSOR_QUERY = 'sort=id,asc&size=20&count=none';
export const FAR_PAGE = 50_000;
export const CURSOR_FIRST_PATH = `/orders?${CURSOR_QUERY}&paging=cursor`;
export const cursorAfterPath = (cursor: string): string => `/orders?${CURSOR_QUERY}&after=${encodeURIComponent(cursor)}`;
export const OFFSET_FAR_PATH = `/orders?${CURSOR_QUERY}&page=${FAR_PAGE - 1}`;

export const CURSOR_TARGETS: ComparisonTargets = { minShare: 0.9 };

const STRIDE = 1000;

interface ListAnswer {
  readonly data: { id: number }[];
  readonly meta: { nextCursor: string | null };
}

async function getList(service: BenchService, path: string): Promise<ListAnswer> {
  const answer = await send(service, { method: 'GET', path: service.records(path) });
  if (answer.status !== 200) throw new Error(`GET ${path} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return answer.body as ListAnswer;
}

/** `size=<n>` in place of the scenario's size, for the walk's steps. */
function sized(path: string, size: number): string {
  return path.replace(/([?&])size=\d+/, `$1size=${size}`);
}

/** The cursor after the first `rows` rows of the scenario's order. */
async function walkToCursor(service: BenchService, rows: number): Promise<string> {
  let cursor: string | null = null;
  for (let passed = 0; passed < rows;) {
    const step = Math.min(STRIDE, rows - passed);
    const path: string = cursor === null ? sized(CURSOR_FIRST_PATH, step) : sized(cursorAfterPath(cursor), step);
    const page = await getList(service, path);
    cursor = page.meta.nextCursor;
    if (cursor === null) throw new Error(`the cursor walk (${CURSOR_QUERY}) ended after ${passed + page.data.length} rows, before ${rows}`);
    passed += step;
  }
  if (cursor === null) throw new Error('no rows to walk');
  return cursor;
}

/** The far cursor page must hold the rows of the same page by offset, or the comparison is void. */
async function checkFarPage(service: BenchService, cursor: string): Promise<void> {
  const [byCursor, byOffset] = await Promise.all([getList(service, cursorAfterPath(cursor)), getList(service, OFFSET_FAR_PATH)]);
  if (byCursor.data.length === 0 || !isDeepStrictEqual(byCursor.data, byOffset.data)) {
    throw new Error(`the far cursor page differs from ${OFFSET_FAR_PATH}: ids ${byCursor.data.map((r) => r.id).join(',')} vs ${byOffset.data.map((r) => r.id).join(',')}`);
  }
}

export async function planCursor(bench: InProcessBench): Promise<ComparisonPlan> {
  const { http } = httpTargets(bench);
  const began = Date.now();
  const cursor = await walkToCursor(bench.service, (FAR_PAGE - 1) * 20);
  bench.log(`F: walked to the cursor of page ${FAR_PAGE} in ${((Date.now() - began) / 1000).toFixed(1)}s`);
  await checkFarPage(bench.service, cursor);
  return {
    label: `cursor page ${FAR_PAGE} of orders (size 20, sort=id,asc, count=none) vs cursor page 0; OFFSET ${OFFSET_FAR_PATH} beside`,
    subject: httpSide(`cursor page ${FAR_PAGE}`, http, getRequest(bench, cursorAfterPath(cursor))),
    floor: httpSide('cursor page 0', http, getRequest(bench, CURSOR_FIRST_PATH)),
    beside: [httpSide(`OFFSET page ${FAR_PAGE}`, http, getRequest(bench, OFFSET_FAR_PATH))],
    failure: null,
  };
}
