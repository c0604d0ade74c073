/**
 * The operations the admin application relies on beyond the record endpoints (issue 17): column
 * order, the migration flag's read, the workspace's import jobs, and the import's mapping header
 * (plain or percent-encoded JSON). Paths name the workspace's org and slug like the record paths.
 */
import { DEFAULT_JOB_LIST_SIZE, MAX_JOB_LIST_SIZE } from '../../core/import/index.ts';
import type { JsonSchema } from './openapi-types.ts';

const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });
const one = (schema: JsonSchema): JsonSchema => ({ 'application/json': { schema: { type: 'object', required: ['data'], properties: { data: schema } } } });
const error = (description: string): JsonSchema => ({ description, content: { 'application/json': { schema: ref('Error') } } });
const pathParam = (name: string): JsonSchema => ({ name, in: 'path', required: true, schema: { type: 'string' } });
const JOB_STATES = ['RUNNING', 'DONE', 'FAILED', 'INTERRUPTED'];

export function adminSchemas(): Record<string, JsonSchema> {
  return {
    Column: {
      type: 'object',
      required: ['uuid', 'viewUuid', 'kind', 'fieldName', 'displayName', 'widgetType', 'position'],
      properties: {
        uuid: { type: 'string', format: 'uuid' }, viewUuid: { type: 'string', format: 'uuid' },
        kind: { type: 'string', enum: ['FIELD', 'RELATIONSHIP', 'COMPUTED', 'GROUP'] },
        fieldName: { type: 'string' }, displayName: { type: 'string' }, formula: { type: 'string' }, widgetType: { type: 'string' },
        members: { type: 'array', items: { type: 'string' } }, broken: { type: 'string' },
        position: { type: 'integer', minimum: 0, description: "0-based place in the view's column order; the positions of a view are always 0..n-1" },
      },
    },
    MigrationFlag: {
      type: 'object',
      required: ['entity', 'blocksReads', 'blocksWrites', 'retryAfterSeconds'],
      properties: { entity: { type: 'string' }, blocksReads: { type: 'boolean' }, blocksWrites: { type: 'boolean' }, retryAfterSeconds: { type: 'integer', minimum: 1, maximum: 86_400 } },
    },
    ImportJobListItem: {
      type: 'object',
      required: ['jobId', 'viewUuid', 'entity', 'viewName', 'state', 'createdBy', 'createdAt', 'finishedAt', 'totalCount', 'successCount', 'failureCount', 'skippedCount', 'batchesDone', 'error'],
      properties: {
        jobId: { type: 'string', format: 'uuid' }, viewUuid: { type: 'string', format: 'uuid' },
        entity: { type: ['string', 'null'], description: 'null when the view has been deleted' }, viewName: { type: ['string', 'null'] },
        state: { type: 'string', enum: JOB_STATES, description: 'A RUNNING job whose process is gone is INTERRUPTED' },
        createdBy: { type: 'string', description: "The credential's subject: the API key id or the token's sub" },
        createdAt: { type: 'string', format: 'date-time' }, finishedAt: { type: ['string', 'null'], format: 'date-time' },
        totalCount: { type: 'integer' }, successCount: { type: 'integer' }, failureCount: { type: 'integer' }, skippedCount: { type: 'integer' }, batchesDone: { type: 'integer' },
        error: { anyOf: [{ type: 'object', properties: { code: { type: 'string' }, message: { type: 'string' } } }, { type: 'null' }], description: 'Why the job stopped early' },
      },
    },
  };
}

function columnPath(): Record<string, JsonSchema> {
  const body = {
    type: 'object', additionalProperties: false,
    properties: {
      displayName: { type: 'string' }, widgetType: { type: 'string' }, fieldName: { type: 'string', description: 'Computed columns and display groups only' },
      formula: { type: 'string', description: 'Computed columns only' }, members: { type: 'array', items: { type: 'string' } },
      position: { type: 'integer', minimum: 0, description: 'Moves the column to this 0-based place; the columns between shift by one. At most the number of columns minus one' },
    },
  };
  return {
    '/api/columns/item/{uuid}': {
      parameters: [pathParam('uuid')],
      patch: {
        operationId: 'updateColumn', tags: ['admin'], description: 'Renames, edits or moves a column of a view (owner credentials)',
        requestBody: { required: true, content: { 'application/json': { schema: body } } },
        responses: { 200: { description: 'The column as stored', content: one(ref('Column')) }, 400: error('A bad field, or a position outside 0..n-1 (VALIDATION_FAILED)'), 401: error('Missing or invalid credential'), 403: error('Not an owner credential'), 404: error('No such column'), 409: error('The field name is taken') },
      },
    },
  };
}

function migrationPath(org: string, ws: string): Record<string, JsonSchema> {
  return {
    [`/api/admin/v1/orgs/${org}/workspaces/${ws}/entities/{entity}/migration`]: {
      parameters: [pathParam('entity')],
      get: {
        operationId: 'getMigrationFlag', tags: ['admin'], description: 'The migration flag as the service applies it (owner credentials)',
        responses: { 200: { description: 'The entity is marked as migrating', content: one(ref('MigrationFlag')) }, 401: error('Missing or invalid credential'), 403: error('Not an owner credential'), 404: error('The entity is not marked as migrating, or does not exist') },
      },
    },
  };
}

function importJobsPath(): Record<string, JsonSchema> {
  const answer = { type: 'object', required: ['data', 'meta'], properties: { data: { type: 'array', items: ref('ImportJobListItem') }, meta: { type: 'object', properties: { totalElements: { type: 'integer' }, size: { type: 'integer' } } } } };
  return {
    '/api/imports': {
      get: {
        operationId: 'listImportJobs', tags: ['import'], description: "A workspace's import jobs, newest first. Owner credentials see every job; an external user the jobs it started",
        parameters: [
          { name: 'org', in: 'query', required: true, schema: { type: 'string' } },
          { name: 'ws', in: 'query', required: true, schema: { type: 'string' } },
          { name: 'state', in: 'query', schema: { type: 'string' }, description: `Comma-separated states to keep: ${JOB_STATES.join(', ')}` },
          { name: 'size', in: 'query', schema: { type: 'integer', minimum: 1, maximum: MAX_JOB_LIST_SIZE, default: DEFAULT_JOB_LIST_SIZE } },
        ],
        responses: { 200: { description: 'The newest jobs', content: { 'application/json': { schema: answer } } }, 400: error('A missing org or ws, an unknown state, a bad size (BAD_REQUEST)'), 401: error('Missing or invalid credential'), 403: error('Forbidden'), 404: error('No such workspace') },
      },
    },
  };
}

function importPath(): Record<string, JsonSchema> {
  const file = { schema: { type: 'string', description: 'The raw file, up to 100 MiB' } };
  return {
    '/api/data/import/{viewUuid}': {
      parameters: [pathParam('viewUuid')],
      post: {
        operationId: 'importCsv', tags: ['import'], description: 'Imports a CSV file into a view; answers NDJSON events (started, progress, done or error)',
        parameters: [
          {
            name: 'X-Import-Mapping', in: 'header', schema: { type: 'string' },
            description: '{csvColumn: fieldName|null} as JSON. A header carries Latin-1 at most, so for other column names send it percent-encoded: a value starting with % is decoded as UTF-8 first (encodeURIComponent(JSON.stringify(mapping)), i.e. %7B…)',
          },
          { name: 'method', in: 'query', schema: { type: 'string', enum: ['INSERT', 'UPDATE'] } },
          { name: 'header', in: 'query', schema: { type: 'boolean', default: true } },
          { name: 'delimiter', in: 'query', schema: { type: 'string', enum: [',', ';', '|', 'tab'] } },
          { name: 'mapping', in: 'query', schema: { type: 'string' }, description: 'A saved mapping id (not with X-Import-Mapping)' },
          { name: 'onConflict', in: 'query', schema: { type: 'string', enum: ['ERROR', 'IGNORE', 'UPDATE'] } },
          { name: 'conflictColumns', in: 'query', schema: { type: 'string' } },
        ],
        requestBody: { required: true, content: { 'text/csv': file, 'text/tab-separated-values': file, 'text/plain': file } },
        responses: {
          200: { description: 'NDJSON events as the batches go', content: { 'application/x-ndjson': { schema: { type: 'string' } } } },
          400: error('A bad option or mapping (BAD_REQUEST), read before any row'), 401: error('Missing or invalid credential'), 403: error('Forbidden'), 404: error('No such view'),
          413: error('Larger than 100 MiB'), 415: error('Not a CSV, TSV or text body'), 503: error('Schema migration in progress'),
        },
      },
    },
  };
}

export function adminPaths(org: string, ws: string): Record<string, JsonSchema> {
  return { ...columnPath(), ...migrationPath(org, ws), ...importJobsPath(), ...importPath() };
}
