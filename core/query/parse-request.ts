/** HTTP query parameters → ReadRequest. Pure; every malformed value is a 400 naming the parameter. */
import { badRequest } from '../errors.ts';
import type { CountMode } from '../control/types.ts';
import {
  DEFAULT_PAGE_SIZE,
  FILTER_OPERATORS,
  MAX_PAGE_SIZE,
  type FilterOperator,
  type FilterRequest,
  type ReadRequest,
  type SortRequest,
} from './request.ts';

export type QueryParams = Record<string, string | string[] | undefined>;

const COUNT_MODES: readonly CountMode[] = ['exact', 'estimated', 'none'];
const FILTER_KEY = /^filter\[(.+)\]$/;

function single(params: QueryParams, name: string): string | undefined {
  const value = params[name];
  if (Array.isArray(value)) {
    if (value.length > 1) throw badRequest(`query parameter '${name}' may be given only once`);
    return value[0];
  }
  return value;
}

function all(params: QueryParams, name: string): string[] {
  const value = params[name];
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

function nonNegativeInteger(params: QueryParams, name: string, fallback: number): number {
  const text = single(params, name);
  if (text === undefined) return fallback;
  if (!/^\d{1,9}$/.test(text)) throw badRequest(`'${name}' must be a non-negative integer, got '${text}'`);
  return Number(text);
}

function parsePaths(params: QueryParams, name: string): string[][] | null {
  const values = all(params, name);
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

function parseSort(params: QueryParams): SortRequest[] {
  return all(params, 'sort')
    .flatMap((value) => value.split(';'))
    .map((term) => term.trim())
    .filter((term) => term !== '')
    .map(parseSortTerm);
}

function parseFilters(params: QueryParams): FilterRequest[] {
  const filters: FilterRequest[] = [];
  for (const [key, raw] of Object.entries(params)) {
    const match = FILTER_KEY.exec(key);
    if (!match) {
      if (key.startsWith('filter')) throw badRequest(`filter parameters look like filter[<field>.<operator>]=<value>, got '${key}'`);
      continue;
    }
    const segments = (match[1] ?? '').split('.');
    const op = segments.pop() ?? '';
    if (!(FILTER_OPERATORS as readonly string[]).includes(op) || segments.length === 0 || segments.some((s) => s === '')) {
      throw badRequest(`filter '${key}' must name a field and one of the operators: ${FILTER_OPERATORS.join(', ')}`);
    }
    const values = Array.isArray(raw) ? raw : [raw ?? ''];
    for (const value of values) filters.push({ path: segments, op: op as FilterOperator, value });
  }
  return filters;
}

function parseCount(params: QueryParams): CountMode | null {
  const value = single(params, 'count');
  if (value === undefined) return null;
  if (!(COUNT_MODES as readonly string[]).includes(value)) throw badRequest(`'count' must be one of ${COUNT_MODES.join(', ')}`);
  return value as CountMode;
}

export function parseReadRequest(params: QueryParams): ReadRequest {
  const size = nonNegativeInteger(params, 'size', DEFAULT_PAGE_SIZE);
  if (size < 1 || size > MAX_PAGE_SIZE) throw badRequest(`'size' must be between 1 and ${MAX_PAGE_SIZE}, got ${size}`);
  return {
    page: nonNegativeInteger(params, 'page', 0),
    size,
    sort: parseSort(params),
    expand: parsePaths(params, 'expand'),
    fields: parsePaths(params, 'fields'),
    filters: parseFilters(params),
    count: parseCount(params),
  };
}
