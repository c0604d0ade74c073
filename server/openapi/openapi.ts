/**
 * `GET /api/v1/{org}/{ws}/openapi.json` (DESIGN §11): an OpenAPI 3.1 document generated from the
 * workspace schema, so clients can be generated for it. Computed columns are read-only properties.
 */
import type { ViewShape } from '../../core/query/plan.ts';
import { DEFAULT_ARRAY_SIZE, DEFAULT_PAGE_SIZE, MAX_ARRAY_SIZE, MAX_PAGE_SIZE } from '../../core/query/request.ts';
import { MAX_WHERE_DEPTH, MAX_WHERE_LENGTH } from '../../core/query/where.ts';
import type { Entity } from '../../core/schema/model.ts';
import { pascalCase } from '../../core/schema/names.ts';
import { computedSchema, errorSchemas, fieldSchema, type JsonSchema } from './openapi-types.ts';
import { adminPaths, adminSchemas } from './openapi-admin.ts';
import { aggregateSchemas, entityAggregatePath, viewAggregatePath } from './openapi-aggregate.ts';

export interface OpenApiSource {
  readonly title: string;
  /** The workspace's org and slug, for the admin paths (openapi-admin.ts). */
  readonly org: string;
  readonly ws: string;
  readonly serverUrl: string;
  readonly basePath: string;
  readonly tokenUrl: string;
  readonly views: readonly ViewShape[];
}

const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

function recordSchema(view: ViewShape): JsonSchema {
  const entity = view.entity;
  const properties: Record<string, JsonSchema> = {};
  for (const field of entity.fields) {
    const readOnly = field.autoTimestamp !== null || field.generated || (field.primaryKey && field.autoIncrement);
    properties[field.name] = readOnly ? { ...fieldSchema(field), readOnly: true } : fieldSchema(field);
  }
  for (const computed of view.computed) properties[computed.fieldName] = computedSchema(computed.valueType);
  for (const relationship of entity.relationships.values()) {
    const target = ref(pascalCase(relationship.target));
    properties[relationship.name] = relationship.kind === 'manyToOne'
      ? { anyOf: [target, { type: 'null' }], description: `present when expand=${relationship.name}` }
      : { type: 'array', items: target, description: `present when expand=${relationship.name}; at most expandSize[${relationship.name}] items (meta.expandSizes)` };
  }
  return { type: 'object', properties };
}

function inputSchema(view: ViewShape): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const field of view.entity.fields) {
    if (field.autoTimestamp !== null || field.generated || (field.primaryKey && field.autoIncrement)) continue;
    properties[field.name] = fieldSchema(field);
    if (!field.nullable && !field.hasDefault && !field.primaryKey) required.push(field.name);
  }
  return { type: 'object', additionalProperties: false, properties, ...(required.length > 0 ? { required } : {}) };
}

function errorResponses(codes: number[]): Record<string, JsonSchema> {
  const descriptions: Record<number, string> = {
    400: 'Bad request or validation failure', 401: 'Missing or invalid credential', 403: 'Forbidden',
    404: 'Not found', 409: 'Conflict', 415: 'Not JSON', 422: 'Reference not found', 503: 'Schema migration in progress or database unavailable',
  };
  return Object.fromEntries(codes.map((code) => [String(code), { description: descriptions[code] ?? 'Error', content: { 'application/json': { schema: ref('Error') } } }]));
}

/** `name[<array path>]=value`, one member per expanded one-to-many path (DESIGN §13). */
function arrayParam(name: string, value: JsonSchema, description: string): JsonSchema {
  return { name, in: 'query', style: 'deepObject', explode: true, schema: { type: 'object', additionalProperties: value }, description };
}

const READ_PARAMS: JsonSchema[] = [
  { name: 'expand', in: 'query', schema: { type: 'string' }, description: 'Comma-separated relationships of either direction; dots for nesting (expand=orders,orders.product)' },
  { name: 'fields', in: 'query', schema: { type: 'string' }, description: 'Comma-separated fields; rel.field for expanded relationships, also into arrays (orders.amount)' },
  arrayParam('expandSize', { type: 'integer', minimum: 1, maximum: MAX_ARRAY_SIZE, default: DEFAULT_ARRAY_SIZE }, 'expandSize[<array path>]: items per parent of a one-to-many expansion'),
  arrayParam('expandSort', { type: 'string' }, 'expandSort[<array path>]=<field>,<asc|desc>: order of the items (id ascending by default)'),
  arrayParam('expandWhere', { type: 'string', maxLength: MAX_WHERE_LENGTH }, 'expandWhere[<array path>]=<boolean formula>: the items kept; never removes the parent'),
];

const LIST_PARAMS: JsonSchema[] = [
  { name: 'page', in: 'query', schema: { type: 'integer', minimum: 0, default: 0 }, description: 'Offset paging; not with paging=cursor or after' },
  { name: 'size', in: 'query', schema: { type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE } },
  { name: 'sort', in: 'query', schema: { type: 'string' }, description: '<field>,<asc|desc>; several keys separated by ;' },
  { name: 'count', in: 'query', schema: { type: 'string', enum: ['exact', 'estimated', 'none'] } },
  { name: 'paging', in: 'query', schema: { type: 'string', enum: ['offset', 'cursor'], default: 'offset' }, description: 'cursor: keyset paging; meta.page is null and meta.nextCursor continues' },
  { name: 'after', in: 'query', schema: { type: 'string' }, description: 'meta.nextCursor of the previous page (implies paging=cursor); sort and filters must be the same, size may change' },
  { name: 'filter', in: 'query', style: 'deepObject', explode: true, schema: { type: 'object', additionalProperties: { type: 'string' } }, description: 'filter[<field>.<operator>]=<value>; through a one-to-many relationship (orders.status) it keeps records having at least one such related row' },
  {
    name: 'where', in: 'query', schema: { type: 'string', maxLength: MAX_WHERE_LENGTH },
    description: `A boolean formula (the computed-column formula language) ANDed with every filter, e.g. status = 'paid' OR (amount > 100 AND customer.name LIKE 'A%'); at most ${MAX_WHERE_DEPTH} levels of nesting`,
  },
  ...READ_PARAMS,
  {
    name: 'format', in: 'query', schema: { type: 'string', enum: ['json', 'csv', 'ndjson'], default: 'json' },
    description: 'csv or ndjson (or Accept: text/csv / application/x-ndjson) streams every matching row unpaged as a download; page, size, paging and after are then 400',
  },
  { name: 'header', in: 'query', schema: { type: 'string', enum: ['api', 'display'], default: 'api' }, description: 'format=csv: header row of API field names or of display names' },
];

/** The list's 200: a JSON page, or the whole export (DESIGN §14). */
function listContent(name: string): JsonSchema {
  return {
    'application/json': { schema: { type: 'object', required: ['data', 'meta'], properties: { data: { type: 'array', items: ref(name) }, meta: ref('Meta') } } },
    'text/csv': {
      schema: {
        type: 'string',
        description: 'RFC 4180, UTF-8, CRLF; header of field names (customer.region.name for expanded many-to-one); null is an empty cell, "" an empty string; one-to-many arrays are 400. A failure after the first bytes resets the connection',
      },
    },
    'application/x-ndjson': {
      schema: {
        type: 'string',
        description: `One ${name} object per line, as in the JSON list (arrays included, within their expandSize); a failure after the first bytes ends with a line {"event":"error","code","message"}`,
      },
    },
  };
}

function entityPaths(entity: Entity, basePath: string): Record<string, JsonSchema> {
  const name = pascalCase(entity.name);
  const one = { content: { 'application/json': { schema: { type: 'object', required: ['data'], properties: { data: ref(name) } } } } };
  const idParam = { name: 'id', in: 'path', required: true, schema: { type: 'string' } };
  const body = { required: true, content: { 'application/json': { schema: ref(`${name}Input`) } } };
  return {
    [`${basePath}/${entity.name}`]: {
      get: {
        operationId: `list${name}`, tags: [entity.name], parameters: LIST_PARAMS,
        responses: {
          200: {
            description: 'A page of records, or every matching record as a CSV or NDJSON download (format)',
            headers: { 'Content-Disposition': { schema: { type: 'string' }, description: `Exports: attachment; filename="${entity.name}.csv" (or .ndjson)` } },
            content: listContent(name),
          },
          ...errorResponses([400, 401, 403, 404, 503]),
        },
      },
      post: {
        operationId: `create${name}`, tags: [entity.name], requestBody: body, parameters: READ_PARAMS,
        responses: { 201: { description: 'Created', ...one }, ...errorResponses([400, 401, 403, 409, 415, 422, 503]) },
      },
    },
    [`${basePath}/${entity.name}/{id}`]: {
      parameters: [idParam],
      get: { operationId: `get${name}`, tags: [entity.name], parameters: READ_PARAMS, responses: { 200: { description: 'The record', ...one }, ...errorResponses([400, 401, 403, 404, 503]) } },
      put: {
        operationId: `update${name}`, tags: [entity.name], parameters: READ_PARAMS,
        requestBody: { required: true, content: { 'application/json': { schema: { ...inputSchemaRefPartial(name) } } } },
        responses: { 200: { description: 'The updated record', ...one }, ...errorResponses([400, 401, 403, 404, 409, 415, 422, 503]) },
      },
      delete: { operationId: `delete${name}`, tags: [entity.name], responses: { 204: { description: 'Deleted' }, ...errorResponses([401, 403, 404, 409, 503]) } },
    },
  };
}

/** PUT is a partial update: the input schema without `required`. */
function inputSchemaRefPartial(name: string): JsonSchema {
  return ref(`${name}Update`);
}

export function buildOpenApi(source: OpenApiSource): JsonSchema {
  const schemas: Record<string, JsonSchema> = { ...errorSchemas(), ...aggregateSchemas(), ...adminSchemas() };
  let paths: Record<string, JsonSchema> = { ...viewAggregatePath(), ...adminPaths(source.org, source.ws) };
  for (const view of source.views) {
    const name = pascalCase(view.entity.name);
    const input = inputSchema(view);
    const { required: _required, ...update } = input;
    schemas[name] = recordSchema(view);
    schemas[`${name}Input`] = input;
    schemas[`${name}Update`] = update;
    paths = { ...paths, ...entityPaths(view.entity, source.basePath), ...entityAggregatePath(view.entity, source.basePath) };
  }
  return {
    openapi: '3.1.0',
    info: { title: source.title, version: '1.0.0' },
    servers: [{ url: source.serverUrl }],
    security: [{ bearer: [] }, { oauth2: [] }],
    paths,
    components: {
      schemas,
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'API key, internal OAuth token, or an external identity provider JWT' },
        oauth2: { type: 'oauth2', flows: { clientCredentials: { tokenUrl: source.tokenUrl, scopes: {} } } },
      },
    },
  };
}
