/**
 * The cursor of a far page, obtained the way a client obtains it: by walking from the first page
 * and following `meta.nextCursor`. Pages of 1000 (the maximum size) keep the walk to ~1000
 * requests (about 12 s on the bench machine); `size` may change between pages, the query may not.
 */
import { isDeepStrictEqual } from 'node:util';
import { send } from '../harness/capture-sql.ts';
import { CURSOR_FIRST_PATH, CURSOR_QUERY, cursorAfterPath, OFFSET_FAR_PATH } from './expand.ts';
import type { BenchService } from '../harness/service.ts';

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
export async function walkToCursor(service: BenchService, rows: number): Promise<string> {
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
export async function checkFarPage(service: BenchService, cursor: string): Promise<void> {
  const [byCursor, byOffset] = await Promise.all([getList(service, cursorAfterPath(cursor)), getList(service, OFFSET_FAR_PATH)]);
  if (byCursor.data.length === 0 || !isDeepStrictEqual(byCursor.data, byOffset.data)) {
    throw new Error(`the far cursor page differs from ${OFFSET_FAR_PATH}: ids ${byCursor.data.map((r) => r.id).join(',')} vs ${byOffset.data.map((r) => r.id).join(',')}`);
  }
}
