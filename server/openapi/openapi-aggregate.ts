/**
 * The aggregate operations of the OpenAPI document (DESIGN §14 "Aggregates"): one per entity on
 * the record endpoint, and the view data query's `/api/data/{viewSlug}/aggregate`.
 */
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../../core/query/request.ts';
import { MAX_WHERE_LENGTH } from '../../core/query/where.ts';
import type { Entity } from '../../core/schema/model.ts';
import { pascalCase } from '../../core/schema/names.ts';
import type { JsonSchema } from './openapi-types.ts';

const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

const NUMERIC = new Set(['integer', 'bigint', 'decimal', 'float']);

/** A metric family: the value of each requested field, keyed by its path. */
const family = (description: string, value: JsonSchema): JsonSchema => ({ type: 'object', additionalProperties: value, description });
const WIRE_VALUE: JsonSchema = { type: ['string', 'number', 'boolean', 'null'] };

export function aggregateSchemas(): Record<string, JsonSchema> {
  return {
    AggregateRow: {
      type: 'object',
      required: ['group'],
      description: 'One group: its key values plus exactly the requested metric families',
      properties: {
        group: { type: 'object', additionalProperties: WIRE_VALUE, description: 'The group key values by path as requested ({"status": "paid", "customer.regionId": 3}); {} without groupBy; null is a group of its own' },
        count: { type: 'integer', description: 'Rows in the group' },
        countDistinct: family('countDistinct:<field>: distinct non-null values', { type: 'integer' }),
        sum: family('sum:<field>: the exact sum, null over no value', { type: ['number', 'string', 'null'] }),
        avg: family('avg:<field>: the mean as a double, the same number on every vendor', { type: ['number', 'null'] }),
        min: family('min:<field>: values as the list returns them (a timestamp is an ISO string)', WIRE_VALUE),
        max: family('max:<field>: values as the list returns them', WIRE_VALUE),
      },
    },
    AggregateMeta: {
      type: 'object',
      required: ['page', 'size', 'totalElements'],
      properties: {
        page: { type: 'integer', minimum: 0 },
        size: { type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE },
        totalElements: { type: 'integer', description: 'The number of groups' },
      },
    },
  };
}

function numericFields(entity: Entity | null): string {
  if (!entity) return '';
  const names = entity.fields.filter((f) => NUMERIC.has(f.type)).map((f) => f.name);
  return names.length > 0 ? `; numeric fields of ${entity.name}: ${names.join(', ')}` : '';
}

function aggregateParams(entity: Entity | null): JsonSchema[] {
  return [
    { name: 'groupBy', in: 'query', schema: { type: 'string' }, description: 'Comma-separated group keys: fields, computed columns, rel.field through many-to-one relationships' },
    {
      name: 'metrics', in: 'query', schema: { type: 'string', default: 'count' },
      description: `Comma-separated: count, countDistinct:<field>, sum:<field>, avg:<field> (numbers), min:<field>, max:<field> (numbers, text, dates)${numericFields(entity)}`,
    },
    { name: 'sort', in: 'query', schema: { type: 'string' }, description: '<group key or requested metric>,<asc|desc> (sort=count,desc; sort=sum:amount,desc); ; between keys; the group keys always follow ascending' },
    { name: 'page', in: 'query', schema: { type: 'integer', minimum: 0, default: 0 } },
    { name: 'size', in: 'query', schema: { type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE } },
    { name: 'filter', in: 'query', style: 'deepObject', explode: true, schema: { type: 'object', additionalProperties: { type: 'string' } }, description: 'filter[<field>.<operator>]=<value>, as on the list' },
    { name: 'where', in: 'query', schema: { type: 'string', maxLength: MAX_WHERE_LENGTH }, description: 'A boolean formula, as on the list' },
  ];
}

function operation(operationId: string, tag: string, entity: Entity): JsonSchema {
  const answer = { type: 'object', required: ['data', 'meta'], properties: { data: { type: 'array', items: ref('AggregateRow') }, meta: ref('AggregateMeta') } };
  const error = (description: string) => ({ description, content: { 'application/json': { schema: ref('Error') } } });
  return {
    operationId, tags: [tag], parameters: aggregateParams(entity),
    summary: `Aggregate ${entity.name} records`,
    description: 'Groups the rows the list would return (row-level security, filter, where) and aggregates each group',
    responses: {
      200: { description: 'A page of groups', content: { 'application/json': { schema: answer } } },
      400: error('Unknown field or metric, sum/avg of a non-numeric field, a sort that is neither a group key nor a requested metric (BAD_REQUEST); a refused where (INVALID_FORMULA)'),
      401: error('Missing or invalid credential'),
      403: error('Forbidden'),
      404: error('Not found'),
      503: error('Schema migration in progress or database unavailable'),
    },
  };
}

export function entityAggregatePath(entity: Entity, basePath: string): Record<string, JsonSchema> {
  return { [`${basePath}/${entity.name}/aggregate`]: { get: operation(`aggregate${pascalCase(entity.name)}`, entity.name, entity) } };
}

/** A view's aggregate by its own slug: one path per view, so none reads two ways beside /api/data/import/{viewUuid}. */
export function viewAggregatePath(slug: string, operationId: string, entity: Entity): Record<string, JsonSchema> {
  return { [`/api/data/${slug}/aggregate`]: { get: operation(operationId, 'view data', entity) } };
}
