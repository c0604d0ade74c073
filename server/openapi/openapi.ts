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
import { errors, operation, ref } from './openapi-ops.ts';
import { servicePaths, serviceSchemas } from './openapi-service.ts';
import { viewPaths, viewSchemas } from './openapi-views.ts';

export interface OpenApiSource {
  readonly title: string;
  /** The workspace's org and slug, for the admin paths (openapi-admin.ts). */
  readonly org: string;
  readonly ws: string;
  readonly serverUrl: string;
  readonly basePath: string;
  readonly tokenUrl: string;
  /** The default view of every entity: the record endpoints. */
  readonly views: readonly ViewShape[];
  /** Every view with its slug: the view data endpoints (`/api/data/{slug}`). */
  readonly dataViews: readonly { readonly slug: string; readonly name: string; readonly shape: ViewShape }[];
}

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
    name: 'format', in: 'query', schema: { type: 'string', enum: ['json'], default: 'json' },
    description: 'csv or ndjson here (or Accept: text/csv / application/x-ndjson) answers the export instead of a page, as the export operation (…/export) does; this operation is described with its JSON answer only',
  },
];

/** The export's own parameters: the list's narrowing, no paging. */
const EXPORT_PARAMS: JsonSchema[] = [
  ...LIST_PARAMS.filter((p) => !['page', 'size', 'paging', 'after', 'count', 'format'].includes(String(p.name))),
  { name: 'format', in: 'query', schema: { type: 'string', enum: ['csv', 'ndjson'], default: 'csv' }, description: 'csv (the default) or ndjson; Accept: application/x-ndjson also chooses NDJSON' },
  { name: 'header', in: 'query', schema: { type: 'string', enum: ['api', 'display'], default: 'api' }, description: 'format=csv: header row of API field names or of display names' },
];

/** The list's 200: a JSON page. */
function listContent(name: string): JsonSchema {
  return { 'application/json': { schema: { type: 'object', required: ['data', 'meta'], properties: { data: { type: 'array', items: ref(name) }, meta: ref('Meta') } } } };
}

/** The export's 200: every matching record, streamed (DESIGN §14). */
function exportContent(name: string): JsonSchema {
  return {
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

function listOperation(id: string, tag: string, name: string, what: string): JsonSchema {
  return operation({
    id, tag, summary: `List ${what}`, parameters: LIST_PARAMS,
    description: `A page of ${what}, narrowed by filter[...] and where, sorted, with fields and expansions; offset or cursor paging`,
    ok: { 200: { description: 'A page of records', content: listContent(name) } }, errors: errors([400, 401, 403, 404, 429, 503]),
  });
}

function exportOperation(id: string, tag: string, name: string, what: string, file: string): JsonSchema {
  return operation({
    id, tag, summary: `Export ${what}`, parameters: EXPORT_PARAMS,
    description: `Every matching record of ${what}, unpaged and streamed as CSV or NDJSON, with the list's filters, where, sort, fields and expansions`,
    ok: {
      200: {
        description: 'The whole export',
        headers: { 'Content-Disposition': { schema: { type: 'string' }, description: `attachment; filename="${file}.csv" (or .ndjson)` } },
        content: exportContent(name),
      },
    },
    errors: errors([400, 401, 403, 404, 429, 503]),
  });
}

function entityPaths(entity: Entity, basePath: string): Record<string, JsonSchema> {
  const name = pascalCase(entity.name);
  const tag = entity.name;
  const one = { content: { 'application/json': { schema: { type: 'object', required: ['data'], properties: { data: ref(name) } } } } };
  const idParam = { name: 'id', in: 'path', required: true, schema: { type: 'string' }, description: 'The primary key' };
  const body = { required: true, content: { 'application/json': { schema: ref(`${name}Input`) } } };
  return {
    [`${basePath}/${entity.name}`]: {
      get: listOperation(`list${name}`, tag, name, `${entity.name} records`),
      post: operation({
        id: `create${name}`, tag, summary: `Create a ${entity.name} record`, requestBody: body, parameters: READ_PARAMS,
        description: 'Validates the body against the columns and constraints, writes it and answers the record as a GET would',
        ok: { 201: { description: 'Created', ...one } }, errors: errors([400, 401, 403, 409, 415, 422, 429, 503]),
      }),
    },
    [`${basePath}/${entity.name}/changes`]: {
      get: changesOperation(`changes${name}`, tag, `${entity.name} records`),
    },
    [`${basePath}/${entity.name}/export`]: {
      get: exportOperation(`export${name}`, tag, name, `${entity.name} records`, entity.name),
    },
    [`${basePath}/${entity.name}/{id}`]: {
      parameters: [idParam],
      get: operation({ id: `get${name}`, tag, summary: `Read a ${entity.name} record`, description: 'One record by its primary key, with fields and expansions', parameters: READ_PARAMS, ok: { 200: { description: 'The record', ...one } }, errors: errors([400, 401, 403, 404, 429, 503]) }),
      put: operation({
        id: `update${name}`, tag, summary: `Update a ${entity.name} record`, parameters: READ_PARAMS,
        description: 'A partial update: the fields sent are written, the others kept',
        requestBody: { required: true, content: { 'application/json': { schema: { ...inputSchemaRefPartial(name) } } } },
        ok: { 200: { description: 'The updated record', ...one } }, errors: errors([400, 401, 403, 404, 409, 415, 422, 429, 503]),
      }),
      delete: operation({ id: `delete${name}`, tag, summary: `Delete a ${entity.name} record`, description: 'Deletes the record; one that other records still reference is 409', ok: { 204: { description: 'Deleted' } }, errors: errors([401, 403, 404, 409, 429, 503]) }),
    },
  };
}

const CHANGE_EVENT: JsonSchema = {
  type: 'object',
  required: ['eventId', 'position', 'entity', 'op', 'id', 'at', 'record'],
  properties: {
    eventId: { type: 'string', description: '<workspace id>.<position>; never reused' }, position: { type: 'string', pattern: '^[0-9]+$' },
    entity: { type: 'string' }, op: { type: 'string', enum: ['insert', 'update', 'delete'] }, id: { description: "The record's key" },
    at: { type: 'string', format: 'date-time' }, record: { type: 'object', description: 'The row after the write (before, for a delete), its stored fields under their API names' },
  },
};

const CHANGES_PARAMS: JsonSchema[] = [
  { name: 'since', in: 'query', schema: { type: 'string', pattern: '^[0-9]+$' }, description: 'The last position the reader processed (meta.nextSince of the previous page); absent: from the oldest kept event' },
  { name: 'size', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 1000, default: 100 } },
];

function changesOperation(id: string, tag: string, what: string): JsonSchema {
  return operation({
    id, tag, summary: `Read the changes of ${what}`, parameters: CHANGES_PARAMS,
    description: `The change events of ${what} after a position, oldest first; positions are given in commit order, so a reader that resumes after the last position it processed misses nothing. Owner credentials; 409 EVENTS_OFF while the entity's events are off`,
    ok: { 200: { description: 'A page of events', content: { 'application/json': { schema: { type: 'object', required: ['data', 'meta'], properties: { data: { type: 'array', items: ref('ChangeEvent') }, meta: { type: 'object', properties: { size: { type: 'integer' }, nextSince: { type: 'string' } } } } } } } } },
    errors: errors([400, 401, 403, 404, 409, 503], { 409: 'Events are off for this entity (EVENTS_OFF)' }),
  });
}

/** `/api/data/{slug}`, its export and its aggregate, for each view of the workspace by its own slug. */
function viewDataPaths(view: OpenApiSource['dataViews'][number]): Record<string, JsonSchema> {
  const id = pascalCase(view.slug);
  const tag = 'view data';
  const what = `the rows of view ${view.name}`;
  return {
    [`/api/data/${view.slug}`]: { get: listOperation(`listView${id}`, tag, `${id}View`, what) },
    [`/api/data/${view.slug}/export`]: { get: exportOperation(`exportView${id}`, tag, `${id}View`, what, view.shape.entity.name) },
    ...viewAggregatePath(view.slug, `aggregateView${id}`, view.shape.entity),
  };
}

/** PUT is a partial update: the input schema without `required`. */
function inputSchemaRefPartial(name: string): JsonSchema {
  return ref(`${name}Update`);
}

const FIXED_TAGS: readonly JsonSchema[] = [
  { name: 'changes', description: 'Change events: what was written, in commit order, to resume from any position' },
  { name: 'view data', description: 'The rows of each view by its slug: its computed columns, its own row rules' },
  { name: 'admin', description: 'Organizations, workspaces, API keys, sync, entity options, migration flags, the identity provider, views' },
  { name: 'columns', description: 'The columns of views: computed columns and their formulas, display groups, physical columns' },
  { name: 'rls', description: 'Row-level security rules for external users' },
  { name: 'bulk', description: 'Many records in one request' },
  { name: 'import', description: 'Streaming CSV import, its jobs, reports and saved mappings' },
  { name: 'auth', description: 'Internal OAuth tokens and their discovery' },
  { name: 'operations', description: 'Health, readiness, metrics and this document' },
];

export function buildOpenApi(source: OpenApiSource): JsonSchema {
  const schemas: Record<string, JsonSchema> = { ChangeEvent: CHANGE_EVENT, ...errorSchemas(), ...aggregateSchemas(), ...adminSchemas(), ...viewSchemas(), ...serviceSchemas() };
  let paths: Record<string, JsonSchema> = { ...servicePaths(source.basePath), ...adminPaths(source.org, source.ws), ...viewPaths() };
  for (const view of source.views) {
    const name = pascalCase(view.entity.name);
    const input = inputSchema(view);
    const { required: _required, ...update } = input;
    schemas[name] = recordSchema(view);
    schemas[`${name}Input`] = input;
    schemas[`${name}Update`] = update;
    paths = { ...paths, ...entityPaths(view.entity, source.basePath), ...entityAggregatePath(view.entity, source.basePath) };
  }
  for (const view of source.dataViews) {
    schemas[`${pascalCase(view.slug)}View`] = recordSchema(view.shape);
    paths = { ...paths, ...viewDataPaths(view) };
  }
  paths[`${source.basePath}/changes`] = { get: changesOperation('changesOfWorkspace', 'changes', 'every entity of the workspace') };
  return {
    openapi: '3.1.0',
    info: {
      title: source.title,
      version: '1.0.0',
      description: 'The tables of this workspace as a REST/JSON API: records with expansion both ways, filters and where formulas, paging and cursors, aggregates, export, bulk upsert and CSV import, row-level security. Generated from the workspace schema.',
      contact: { name: 'Workspace Data API', url: source.serverUrl },
      license: { name: 'Proprietary', url: `${source.serverUrl}/api/v1/${source.org}/${source.ws}/openapi.json` },
    },
    servers: [{ url: source.serverUrl }],
    security: [{ bearer: [] }, { oauth2: [] }],
    tags: [...source.views.map((view) => ({ name: view.entity.name, description: `The ${view.entity.name} records (table ${view.entity.table})` })), ...FIXED_TAGS],
    paths,
    components: {
      schemas,
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'API key, internal OAuth token, or an external identity provider JWT' },
        oauth2: { type: 'oauth2', description: 'Client credentials: an API key id and secret for an access token', flows: { clientCredentials: { tokenUrl: source.tokenUrl, scopes: {} } } },
      },
    },
  };
}
