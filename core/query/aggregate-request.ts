/**
 * HTTP query parameters → AggregateRequest (DESIGN §14 "Aggregates"). Pure; every malformed value
 * is a 400 naming the parameter. Names are checked against the schema by the planner.
 */
import { badRequest } from '../errors.ts';
import { QueryReader, type QueryParams, type QuerySpec } from './query-params.ts';
import type { FilterRequest, SortDirection } from './request.ts';
import { pageNumber, pageSize, parseFilters } from './parse-request.ts';

export const METRIC_KINDS = ['count', 'countDistinct', 'sum', 'avg', 'min', 'max'] as const;
export type MetricKind = (typeof METRIC_KINDS)[number];

/** `count` (rows), or `<kind>:<field path>` for the other kinds. */
export interface MetricRequest {
  readonly kind: MetricKind;
  /** The field path; null for `count`. */
  readonly path: readonly string[] | null;
}

/** A sort key is either a group key (by its path) or one of the requested metrics. */
export type AggregateSortKey =
  | { readonly kind: 'group'; readonly path: readonly string[] }
  | { readonly kind: 'metric'; readonly metric: MetricRequest };

export interface AggregateSortRequest {
  readonly key: AggregateSortKey;
  readonly direction: SortDirection;
}

export interface AggregateRequest {
  readonly groupBy: readonly (readonly string[])[];
  readonly metrics: readonly MetricRequest[];
  readonly filters: readonly FilterRequest[];
  readonly where?: string;
  readonly sort: readonly AggregateSortRequest[];
  readonly page: number;
  readonly size: number;
}

/** `groupBy`, `metrics` and `sort` may repeat and add up, as the list's `fields` and `sort` do. */
export const AGGREGATE_QUERY: QuerySpec = {
  single: ['page', 'size', 'where'],
  repeatable: ['groupBy', 'metrics', 'sort'],
  families: ['filter'],
};

/** Without `metrics`, the one metric every grouping question starts with (docs/query-planning.md, "Aggregates"). */
const DEFAULT_METRICS: readonly MetricRequest[] = [{ kind: 'count', path: null }];

function listItems(params: QueryReader, name: string): string[] {
  const items = params.all(name).flatMap((v) => v.split(',')).map((s) => s.trim());
  if (items.some((item) => item === '')) throw badRequest(`'${name}' has an empty entry`);
  return items;
}

function fieldPath(name: string, text: string): string[] {
  const path = text.split('.');
  if (path.some((segment) => segment === '')) throw badRequest(`'${name}' entry '${text}' is malformed`);
  return path;
}

export function metricKey(metric: MetricRequest): string {
  return metric.path ? `${metric.kind}:${metric.path.join('.')}` : metric.kind;
}

function parseMetric(text: string, name: string): MetricRequest {
  const [kind = '', field, ...rest] = text.split(':');
  if (!(METRIC_KINDS as readonly string[]).includes(kind) || rest.length > 0) {
    throw badRequest(`'${name}': unknown metric '${text}'; metrics: count, countDistinct:<field>, sum:<field>, avg:<field>, min:<field>, max:<field>`);
  }
  if (kind === 'count') {
    if (field !== undefined) throw badRequest(`'${name}': 'count' counts rows and takes no field (use countDistinct:${field})`);
    return { kind, path: null };
  }
  if (field === undefined || field === '') throw badRequest(`'${name}': metric '${kind}' needs a field, as in ${kind}:amount`);
  return { kind: kind as MetricKind, path: fieldPath(name, field) };
}

/** Each distinct entry once, in the order first given. */
function distinct<T>(items: readonly T[], key: (item: T) => string): T[] {
  const seen = new Set<string>();
  return items.filter((item) => !seen.has(key(item)) && seen.add(key(item)) !== undefined);
}

function parseMetrics(params: QueryReader): MetricRequest[] {
  if (params.all('metrics').length === 0) return [...DEFAULT_METRICS];
  return distinct(listItems(params, 'metrics').map((text) => parseMetric(text, 'metrics')), metricKey);
}

function parseGroupBy(params: QueryReader): string[][] {
  return distinct(listItems(params, 'groupBy').map((text) => fieldPath('groupBy', text)), (path) => path.join('.'));
}

/** `<group key or metric>,<asc|desc>`; whether the key was requested is checked by the planner. */
function parseSortTerm(term: string): AggregateSortRequest {
  const [key, direction = 'asc', ...rest] = term.split(',').map((s) => s.trim());
  if (!key || rest.length > 0) throw badRequest(`'sort' must look like <group key or metric>,<asc|desc>, got '${term}'`);
  const lower = direction.toLowerCase();
  if (lower !== 'asc' && lower !== 'desc') throw badRequest(`sort direction must be 'asc' or 'desc', got '${direction}'`);
  const isMetric = key.includes(':') || key === 'count';
  return { key: isMetric ? { kind: 'metric', metric: parseMetric(key, 'sort') } : { kind: 'group', path: fieldPath('sort', key) }, direction: lower };
}

function parseSort(params: QueryReader): AggregateSortRequest[] {
  return params
    .all('sort')
    .flatMap((value) => value.split(';'))
    .map((term) => term.trim())
    .filter((term) => term !== '')
    .map(parseSortTerm);
}

export function parseAggregateRequest(query: QueryParams): AggregateRequest {
  const params = new QueryReader(query, AGGREGATE_QUERY);
  const size = pageSize(params);
  const where = params.single('where');
  return {
    groupBy: parseGroupBy(params),
    metrics: parseMetrics(params),
    filters: parseFilters(params),
    ...(where === undefined ? {} : { where }),
    sort: parseSort(params),
    page: pageNumber(params),
    size,
  };
}
