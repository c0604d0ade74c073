/**
 * The cache key of a parsed read request: two requests with the same key plan and compile the same.
 * Every `ReadRequest` member has its own entry below (the table must name every member to
 * type-check), and each entry turns its member into plain JSON by hand. A key made by stringifying
 * the request whole would drop a member holding a Map or a Set (JSON prints `{}` for both), and two
 * different requests would then share one compiled statement: an owner served another query's SQL.
 */
import type { ArrayRequests, ReadRequest, SortRequest } from './request.ts';

const sortKey = (terms: readonly SortRequest[]): unknown[] => terms.map((term) => [term.path, term.direction]);

function arraysKey(arrays: ArrayRequests): unknown[] {
  return [[...arrays.size], [...arrays.sort].map(([path, terms]) => [path, sortKey(terms)]), [...arrays.where]];
}

const KEY_PARTS = {
  page: (r) => r.page,
  size: (r) => r.size,
  sort: (r) => sortKey(r.sort),
  expand: (r) => r.expand,
  fields: (r) => r.fields,
  filters: (r) => r.filters.map((f) => [f.path, f.op, f.value]),
  count: (r) => r.count,
  where: (r) => r.where ?? null,
  paging: (r) => (r.paging ? [r.paging.mode, r.paging.after] : null),
  arrays: (r) => (r.arrays ? arraysKey(r.arrays) : null),
} satisfies Record<keyof ReadRequest, (request: ReadRequest) => unknown>;

const MEMBERS = Object.keys(KEY_PARTS) as (keyof ReadRequest)[];

/** Refuses what JSON would print as `{}`, so a key part that forgot to convert one fails loudly. */
function plainOnly(_key: string, value: unknown): unknown {
  if (value instanceof Map || value instanceof Set) throw new Error('request key: a Map or Set must be converted by its key part');
  return value;
}

const keys = new WeakMap<ReadRequest, string>();

/** The request's key, kept per request object (the routes reuse one parsed request per query string). */
export function requestKey(request: ReadRequest): string {
  const known = keys.get(request);
  if (known !== undefined) return known;
  const key = JSON.stringify(MEMBERS.map((member) => KEY_PARTS[member](request)), plainOnly);
  keys.set(request, key);
  return key;
}
