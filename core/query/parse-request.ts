/** HTTP query parameters → ReadRequest. Pure; every malformed value is a 400 naming the parameter. */
import { badRequest } from '../errors.ts';
import { QueryReader, type QueryParams, type QuerySpec } from './query-params.ts';
import type { CountMode } from '../schema/entity-options.ts';
import {
  DEFAULT_PAGE_SIZE,
  MAX_ARRAY_SIZE,
  type ArrayRequests,
  MAX_PAGE_SIZE,
  type FilterRequest,
  type CursorPaging,
  type ReadRequest,
  type SortRequest,
} from './request.ts';
import { FILTER_OPERATORS, type FilterOperator } from './operators.ts';

export type { QueryParams } from './query-params.ts';

const COUNT_MODES: readonly CountMode[] = ['exact', 'estimated', 'none'];

/**
 * The query parameters of the record list, get-by-id, create/update (shaping) and the view data
 * query (DESIGN §6). Lists may repeat and add up (`sort`, as §6 says, and `expand`/`fields`, whose
 * repeats were always merged); a number or a mode given twice has no one meaning and is refused.
 */
export const READ_QUERY: QuerySpec = {
  single: ['page', 'size', 'count', 'paging', 'after'],
  repeatable: ['sort', 'expand', 'fields'],
  families: ['filter', 'expandSize', 'expandSort', 'expandWhere'],
};

/** The list routes (record list, view data query) take `where` too (DESIGN §13). */
export const LIST_QUERY: QuerySpec = { ...READ_QUERY, single: [...READ_QUERY.single, 'where'] };

/** An integer parameter within bounds; every bad value, whatever is wrong with it, gets the same message. */
function boundedInteger(params: QueryReader, name: string, bounds: { min: number; max: number }, fallback: number): number {
  const text = params.single(name);
  if (text === undefined) return fallback;
  const value = /^\d{1,9}$/.test(text) ? Number(text) : NaN;
  if (!(value >= bounds.min && value <= bounds.max)) throw badRequest(`'${name}' must be an integer between ${bounds.min} and ${bounds.max}, got '${text}'`);
  return value;
}

const MAX_PAGE = 999_999_999;

export function pageNumber(params: QueryReader): number {
  return boundedInteger(params, 'page', { min: 0, max: MAX_PAGE }, 0);
}

export function pageSize(params: QueryReader): number {
  return boundedInteger(params, 'size', { min: 1, max: MAX_PAGE_SIZE }, DEFAULT_PAGE_SIZE);
}

function parsePaths(params: QueryReader, name: string): string[][] | null {
  const values = params.all(name);
  if (values.length === 0) return null;
  const items = values.flatMap((v) => v.split(',')).map((s) => s.trim());
  if (items.some((item) => item === '')) throw badRequest(`'${name}' has an empty entry`);
  return items.map((item) => {
    const path = item.split('.');
    if (path.some((segment) => segment === '')) throw badRequest(`'${name}' entry '${item}' is malformed`);
    return path;
  });
}

function parseSortTerm(term: string): SortRequest {
  const [field, direction = 'asc', ...rest] = term.split(',').map((s) => s.trim());
  if (!field || rest.length > 0) throw badRequest(`'sort' must look like <field>,<asc|desc>, got '${term}'`);
  const lower = direction.toLowerCase();
  if (lower !== 'asc' && lower !== 'desc') throw badRequest(`sort direction must be 'asc' or 'desc', got '${direction}'`);
  const path = field.split('.');
  if (path.some((segment) => segment === '')) throw badRequest(`'sort' field '${field}' is malformed`);
  return { path, direction: lower };
}

function parseSortValues(values: readonly string[]): SortRequest[] {
  return values
    .flatMap((value) => value.split(';'))
    .map((term) => term.trim())
    .filter((term) => term !== '')
    .map(parseSortTerm);
}

function parseSort(params: QueryReader): SortRequest[] {
  return parseSortValues(params.all('sort'));
}

export function parseFilters(params: QueryReader): FilterRequest[] {
  const filters: FilterRequest[] = [];
  for (const [key, values] of params.family('filter')) {
    const segments = key.split('.');
    const op = segments.pop() ?? '';
    if (!(FILTER_OPERATORS as readonly string[]).includes(op) || segments.length === 0 || segments.some((s) => s === '')) {
      throw badRequest(`filter 'filter[${key}]' must name a field and one of the operators: ${FILTER_OPERATORS.join(', ')}`);
    }
    for (const value of values) filters.push({ path: segments, op: op as FilterOperator, value });
  }
  return filters;
}

function parseCount(params: QueryReader): CountMode | null {
  const value = params.single('count');
  if (value === undefined) return null;
  if (!(COUNT_MODES as readonly string[]).includes(value)) throw badRequest(`'count' must be one of ${COUNT_MODES.join(', ')}`);
  return value as CountMode;
}

const PAGING_MODES = ['offset', 'cursor'];

/** `paging=cursor` or `after` (which implies it); `page` belongs to offset paging only (DESIGN §13). */
function parsePaging(params: QueryReader): CursorPaging | undefined {
  const mode = params.single('paging');
  const after = params.single('after');
  if (mode !== undefined && !PAGING_MODES.includes(mode)) throw badRequest(`'paging' must be one of ${PAGING_MODES.join(', ')}, got '${mode}'`);
  if (mode === 'offset' && after !== undefined) throw badRequest(`'after' takes a cursor of paging=cursor; it cannot be used with paging=offset`);
  if (mode !== 'cursor' && after === undefined) return undefined;
  if (params.single('page') !== undefined) throw badRequest(`'page' cannot be combined with cursor paging (paging=cursor or after); follow meta.nextCursor with after=<cursor>`);
  return { mode: 'cursor', after: after ?? null };
}

/** `name[path]=value` given once per path; the path must be a dotted relationship path. */
function arrayFamily(params: QueryReader, name: string): Map<string, string> {
  const members = new Map<string, string>();
  for (const [key, values] of params.family(name)) {
    const path = key.split('.');
    if (path.some((segment) => segment.trim() === '')) throw badRequest(`'${name}[${key}]' must name an expanded one-to-many path, as in ${name}[orders]`);
    if (values.length > 1 || members.has(key)) throw badRequest(`query parameter '${name}[${key}]' may be given only once`);
    members.set(key, values[0] ?? '');
  }
  return members;
}

function arraySize(key: string, text: string): number {
  const size = /^\d{1,9}$/.test(text) ? Number(text) : NaN;
  if (!(size >= 1 && size <= MAX_ARRAY_SIZE)) throw badRequest(`'expandSize[${key}]' must be an integer between 1 and ${MAX_ARRAY_SIZE}, got '${text}'`);
  return size;
}

/** The array options of DESIGN §13; whether each path is an expanded array is checked by the planner. */
function parseArrays(params: QueryReader): { arrays?: ArrayRequests } {
  const size = new Map([...arrayFamily(params, 'expandSize')].map(([key, text]) => [key, arraySize(key, text)]));
  const sort = new Map([...arrayFamily(params, 'expandSort')].map(([key, text]) => [key, parseSortValues([text])]));
  const where = arrayFamily(params, 'expandWhere');
  if (size.size + sort.size + where.size === 0) return {};
  return { arrays: { size, sort, where } };
}

function whereOf(params: QueryReader): { where?: string } {
  const where = params.single('where');
  return where === undefined ? {} : { where };
}

export function parseReadRequest(query: QueryParams, spec: QuerySpec = READ_QUERY): ReadRequest {
  const params = new QueryReader(query, spec);
  return {
    page: pageNumber(params),
    size: pageSize(params),
    sort: parseSort(params),
    expand: parsePaths(params, 'expand'),
    fields: parsePaths(params, 'fields'),
    filters: parseFilters(params),
    count: parseCount(params),
    paging: parsePaging(params),
    ...whereOf(params),
    ...parseArrays(params),
  };
}

/** Parsed requests by spec and query string; past this many per spec the memo starts over. */
const PARSED_LIMIT = 500;
const parsed = new WeakMap<QuerySpec, Map<string, ReadRequest>>();

/**
 * ParseReadRequest of the query that `queryString` spells, parsed once per distinct string: parsing
 * is pure and clients repeat a few query strings. The result is shared, so read-only;
 * a string that fails to parse is parsed (and refused) again each time.
 */
export function parseReadRequestOnce(queryString: string, query: () => QueryParams, spec: QuerySpec = READ_QUERY): ReadRequest {
  const memo = parsed.get(spec) ?? new Map<string, ReadRequest>();
  parsed.set(spec, memo);
  const known = memo.get(queryString);
  if (known) return known;
  const request = parseReadRequest(query(), spec);
  if (memo.size >= PARSED_LIMIT) memo.clear();
  memo.set(queryString, request);
  return request;
}

/** The export's parameters (DESIGN §14): the list's plus `header` (the route reads `format` and `header`). */
export const EXPORT_QUERY: QuerySpec = { ...LIST_QUERY, single: [...LIST_QUERY.single, 'header'] };

const PAGING_PARAMETERS = ['page', 'size', 'paging', 'after'];

/** An export streams every row: a paging parameter has no meaning there and is refused. */
export function parseExportRequest(query: QueryParams): ReadRequest {
  const paging = PAGING_PARAMETERS.find((name) => query[name] !== undefined);
  if (paging) throw badRequest(`'${paging}' does not apply to an export (format=csv|ndjson or an Accept of text/csv or application/x-ndjson), which streams every row unpaged`);
  return parseReadRequest(query, EXPORT_QUERY);
}
