/**
 * Issue 15's measured requests (paths under `/api/v1/{org}/{ws}`). Each is judged against a
 * floor measured in the same run; `--only E,F,G` (or `--only 15`) selects them.
 */
import { WHERE_FORMULA } from '../floors/where.ts';

export type Group15 = 'E' | 'F' | 'G';

export const GROUPS_15: readonly Group15[] = ['E', 'F', 'G'];

/** E: 20 customers, each with its first 5 orders (DESIGN §13 spells the limit `expandSize[orders]`). */
export const EXPAND_SIZE = 5;
export const EXPAND_MANY_PATH = `/customers?size=20&expand=orders&expandSize[orders]=${EXPAND_SIZE}`;

/**
 * F: keyset paging far from the start. count=none on every side, or the 1M-row COUNT(*) that each
 * request would run hides the cost of reaching the page. "Page 50,000" is the 50,000th page of 20
 * (rows 999,981–1,000,000, the last full page); offset paging counts pages from 0, so it is
 * `page=49999` there (`page=50000` would be past the last row).
 */
export const CURSOR_QUERY = 'sort=id,asc&size=20&count=none';
export const FAR_PAGE = 50_000;
export const CURSOR_FIRST_PATH = `/orders?${CURSOR_QUERY}&paging=cursor`;
export const cursorAfterPath = (cursor: string): string => `/orders?${CURSOR_QUERY}&after=${encodeURIComponent(cursor)}`;
export const OFFSET_FAR_PATH = `/orders?${CURSOR_QUERY}&page=${FAR_PAGE - 1}`;

/** G: the list of scenario A-none narrowed by a boolean formula. */
export const WHERE_PATH = `/orders?size=20&sort=id,desc&count=none&where=${encodeURIComponent(WHERE_FORMULA)}`;

export function selectGroups15(only: readonly string[] | null): Group15[] {
  if (!only) return [...GROUPS_15];
  const wanted = new Set(only.map((s) => s.trim().toUpperCase()));
  return GROUPS_15.filter((g) => wanted.has(g) || wanted.has('15'));
}
