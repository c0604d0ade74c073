/**
 * The operations on views that are not the record endpoints: columns and computed columns, the
 * formula check, row-level security rules, bulk insert, CSV import with its jobs and saved
 * mappings. They address a view by its uuid, whatever the workspace.
 */
import { DEFAULT_JOB_LIST_SIZE, MAX_JOB_LIST_SIZE } from '../../core/import/index.ts';
import type { JsonSchema } from './openapi-types.ts';
import { JOB_STATES } from './openapi-admin.ts';
import { errors, jsonBody, many, object, one, operation, pathParam, ref } from './openapi-ops.ts';

const VIEW = pathParam('viewUuid', 'The uuid of a view (GET …/views lists them)');

export function viewSchemas(): Record<string, JsonSchema> {
  return {
    RlsRule: object({ id: { type: 'string' }, column: { type: 'string', description: 'A field of the entity' }, claim: { type: 'string', description: 'A claim of the external token' }, enabled: { type: 'boolean' } }, ['id', 'column', 'claim', 'enabled']),
    ImportJob: object({ jobId: { type: 'string', format: 'uuid' }, state: { type: 'string', enum: JOB_STATES }, totalCount: { type: 'integer' }, successCount: { type: 'integer' }, failureCount: { type: 'integer' }, skippedCount: { type: 'integer' } }, ['jobId', 'state']),
    ImportMapping: object({ id: { type: 'string' }, name: { type: 'string' }, visibility: { type: 'string' }, mapping: { type: 'object', additionalProperties: { type: ['string', 'null'] } }, header: { type: 'boolean' }, method: { type: 'string', enum: ['INSERT', 'UPDATE'] } }, ['id', 'name', 'mapping']),
    BulkResult: object({ totalCount: { type: 'integer' }, successCount: { type: 'integer' }, failureCount: { type: 'integer' }, skippedCount: { type: 'integer' }, errors: { type: 'array', items: { type: 'object' } } }, ['totalCount', 'successCount', 'failureCount']),
  };
}

function columnPaths(): Record<string, JsonSchema> {
  const edit = {
    type: 'object', additionalProperties: false,
    properties: {
      displayName: { type: 'string' }, widgetType: { type: 'string' }, fieldName: { type: 'string', description: 'Computed columns and display groups only' },
      formula: { type: 'string', description: 'Computed columns only' }, members: { type: 'array', items: { type: 'string' } },
      position: { type: 'integer', minimum: 0, description: 'Moves the column to this 0-based place; the columns between shift by one. At most the number of columns minus one' },
    },
  };
  const create = object({
    viewUuid: { type: 'string', format: 'uuid' }, displayName: { type: 'string' }, fieldName: { type: 'string' }, widgetType: { type: 'string' },
    kind: { type: 'string', enum: ['FIELD', 'COMPUTED', 'GROUP'] }, formula: { type: 'string', description: 'A computed column: the formula (checked by both gates)' }, members: { type: 'array', items: { type: 'string' } },
  }, ['viewUuid']);
  return {
    '/api/columns': {
      post: operation({
        id: 'createColumn', tag: 'columns', summary: 'Add a column',
        description: 'A computed column (with formula), a display group (kind GROUP) or a physical column of the table (kind FIELD: DDL, confirmed by the migration flag); owner credentials',
        requestBody: jsonBody(create), ok: { 201: { description: 'The column as stored', content: one(ref('Column')) } }, errors: errors([400, 401, 403, 404, 409]),
      }),
    },
    '/api/columns/item/{uuid}': {
      parameters: [pathParam('uuid')],
      patch: operation({
        id: 'updateColumn', tag: 'columns', summary: 'Change a column', description: 'Renames, edits or moves a column of a view (owner credentials)',
        requestBody: jsonBody(edit),
        ok: { 200: { description: 'The column as stored', content: one(ref('Column')) } },
        errors: errors([400, 401, 403, 404, 409], { 400: 'A bad field, or a position outside 0..n-1 (VALIDATION_FAILED)', 409: 'The field name is taken' }),
      }),
      delete: operation({ id: 'deleteColumn', tag: 'columns', summary: 'Remove a column', description: 'A computed column or group goes; a physical column is dropped from the table (409 while a formula reads it)', ok: { 204: { description: 'Removed' } }, errors: errors([401, 403, 404, 409]) }),
    },
    '/api/views/{viewUuid}/columns': {
      parameters: [VIEW],
      get: operation({ id: 'listColumns', tag: 'columns', summary: "List a view's columns", description: 'The columns in their order (position), computed ones with their formula', ok: { 200: { description: 'The columns', content: many(ref('Column')) } }, errors: errors([401, 403, 404]) }),
    },
    '/api/views/{viewUuid}/formula-check': {
      parameters: [VIEW],
      post: operation({
        id: 'checkFormula', tag: 'columns', summary: 'Check a formula without saving it',
        description: "Runs both gates and the checker as saving a computed column would, and previews the formula's values on the view's first rows",
        requestBody: jsonBody(object({ formula: { type: 'string' }, previewRows: { type: 'integer', minimum: 0, maximum: 100, default: 5 } }, ['formula'])),
        ok: { 200: { description: 'The canonical formula, its type and a preview', content: one(object({ formula: { type: 'string' }, type: { type: 'string' }, preview: { type: 'array', items: object({ id: {}, value: {} }) } })) } },
        errors: errors([400, 401, 403, 404]),
      }),
    },
  };
}

function rulePaths(): Record<string, JsonSchema> {
  const rule = object({ column: { type: 'string' }, claim: { type: 'string' }, enabled: { type: 'boolean', default: true } });
  return {
    '/api/views/{viewUuid}/rls-rules': {
      parameters: [VIEW],
      get: operation({ id: 'listRlsRules', tag: 'rls', summary: "List a view's row rules", description: "External users see the rows whose column equals their token's claim; the default view's rules protect every view of the entity", ok: { 200: { description: 'The rules', content: many(ref('RlsRule')) } }, errors: errors([401, 403, 404]) }),
      post: operation({ id: 'createRlsRule', tag: 'rls', summary: 'Add a row rule', description: 'column = claim for external users; owners are never narrowed', requestBody: jsonBody({ ...rule, required: ['column', 'claim'] }), ok: { 201: { description: 'The rule', content: one(ref('RlsRule')) } }, errors: errors([400, 401, 403, 404]) }),
    },
    '/api/views/{viewUuid}/rls-rules/{ruleId}': {
      parameters: [VIEW, pathParam('ruleId')],
      patch: operation({ id: 'updateRlsRule', tag: 'rls', summary: 'Change a row rule', description: 'Its column, claim or whether it is enabled', requestBody: jsonBody(rule), ok: { 200: { description: 'The rule', content: one(ref('RlsRule')) } }, errors: errors([400, 401, 403, 404]) }),
      delete: operation({ id: 'deleteRlsRule', tag: 'rls', summary: 'Remove a row rule', description: 'The rule goes; its rows are no longer narrowed by it', ok: { 204: { description: 'Removed' } }, errors: errors([401, 403, 404]) }),
    },
  };
}

function importPaths(): Record<string, JsonSchema> {
  const file = { schema: { type: 'string', description: 'The raw file, up to 100 MiB' } };
  const events = { 'application/x-ndjson': { schema: { type: 'string', description: 'One JSON event per line: started, progress, done or error' } } };
  const JOB = pathParam('jobId');
  return {
    '/api/data/import/{viewUuid}': {
      parameters: [VIEW],
      post: operation({
        id: 'importCsv', tag: 'import', summary: 'Import a CSV file', description: 'Imports a CSV file into a view in batches; answers NDJSON events (started, progress, done or error)',
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
        ok: { 200: { description: 'NDJSON events as the batches go', content: events } },
        errors: errors([400, 401, 403, 404, 413, 415, 503], { 400: 'A bad option or mapping (BAD_REQUEST), read before any row', 413: 'Larger than 100 MiB', 415: 'Not a CSV, TSV or text body' }),
      }),
    },
    '/api/imports': {
      get: operation({
        id: 'listImportJobs', tag: 'import', summary: 'List import jobs', description: "A workspace's import jobs, newest first. Owner credentials see every job; an external user the jobs it started",
        parameters: [
          { name: 'org', in: 'query', required: true, schema: { type: 'string' } },
          { name: 'ws', in: 'query', required: true, schema: { type: 'string' } },
          { name: 'state', in: 'query', schema: { type: 'string' }, description: `Comma-separated states to keep: ${JOB_STATES.join(', ')}` },
          { name: 'size', in: 'query', schema: { type: 'integer', minimum: 1, maximum: MAX_JOB_LIST_SIZE, default: DEFAULT_JOB_LIST_SIZE } },
        ],
        ok: { 200: { description: 'The newest jobs', content: { 'application/json': { schema: { type: 'object', required: ['data', 'meta'], properties: { data: { type: 'array', items: ref('ImportJobListItem') }, meta: object({ totalElements: { type: 'integer' }, size: { type: 'integer' } }) } } } } } },
        errors: errors([400, 401, 403, 404], { 400: 'A missing org or ws, an unknown state, a bad size (BAD_REQUEST)' }),
      }),
    },
    '/api/imports/{jobId}': {
      parameters: [JOB],
      get: operation({ id: 'getImportJob', tag: 'import', summary: 'Read an import job', description: 'Its state and counts; a RUNNING job whose process is gone shows as INTERRUPTED', ok: { 200: { description: 'The job', content: one(ref('ImportJob')) } }, errors: errors([401, 403, 404]) }),
    },
    '/api/imports/{jobId}/report': {
      parameters: [JOB],
      get: operation({ id: 'getImportReport', tag: 'import', summary: "Read an import's report", description: 'The counts and every rejected row with its line, field and reason', ok: { 200: { description: 'The report', content: one({ type: 'object' }) } }, errors: errors([401, 403, 404]) }),
    },
    '/api/imports/{jobId}/rejections.csv': {
      parameters: [JOB],
      get: operation({ id: 'getImportRejections', tag: 'import', summary: "Download an import's rejected rows", description: 'The rejected rows as CSV with their reasons, ready to fix and import again', ok: { 200: { description: 'CSV', content: { 'text/csv': { schema: { type: 'string' } } } } }, errors: errors([401, 403, 404]) }),
    },
    '/api/imports/{jobId}/resume': {
      parameters: [JOB],
      post: operation({
        id: 'resumeImport', tag: 'import', summary: 'Resume an interrupted import', description: 'Send the same file from its start; committed batches are checked and skipped, the rest imported. FAILED or INTERRUPTED jobs only',
        requestBody: { required: true, content: { 'text/csv': file, 'text/plain': file } }, ok: { 200: { description: 'NDJSON events as the batches go', content: events } }, errors: errors([400, 401, 403, 404, 409, 413]),
      }),
    },
    '/api/views/{viewUuid}/import-mappings': {
      parameters: [VIEW],
      get: operation({ id: 'listImportMappings', tag: 'import', summary: 'List saved import mappings', description: "The view's saved mappings the credential may use", ok: { 200: { description: 'The mappings', content: many(ref('ImportMapping')) } }, errors: errors([401, 403, 404]) }),
      post: operation({
        id: 'saveImportMapping', tag: 'import', summary: 'Save an import mapping', description: 'A named column mapping (with header and method) to use again by its id',
        requestBody: jsonBody(object({ name: { type: 'string' }, visibility: { type: 'string' }, mapping: { type: 'object' }, header: { type: 'boolean' }, method: { type: 'string', enum: ['INSERT', 'UPDATE'] } }, ['name', 'mapping'])),
        ok: { 201: { description: 'The mapping', content: one(ref('ImportMapping')) } }, errors: errors([400, 401, 403, 404]),
      }),
    },
    '/api/views/{viewUuid}/import-mappings/{id}': {
      parameters: [VIEW, pathParam('id')],
      delete: operation({ id: 'deleteImportMapping', tag: 'import', summary: 'Delete a saved import mapping', description: 'The mapping goes; jobs that used it keep their own copy', ok: { 204: { description: 'Deleted' } }, errors: errors([401, 403, 404]) }),
    },
  };
}

function bulkPaths(): Record<string, JsonSchema> {
  return {
    '/api/data/bulk/{viewUuid}/insert': {
      parameters: [VIEW],
      post: operation({
        id: 'bulkInsert', tag: 'bulk', summary: 'Insert or upsert many records',
        description: '1 to 1000 rows, each validated first; onConflict ERROR (the whole batch refused on a collision), IGNORE or UPDATE (upsert by conflictColumns)',
        requestBody: jsonBody(object({ rows: { type: 'array', items: { type: 'object' } }, onConflict: { type: 'string', enum: ['ERROR', 'IGNORE', 'UPDATE'] }, conflictColumns: { type: 'array', items: { type: 'string' } } }, ['rows'])),
        ok: { 201: { description: 'Counts and per-row errors', content: one(ref('BulkResult')) } }, errors: errors([400, 401, 403, 404, 409, 413, 415, 422, 503]),
      }),
    },
  };
}

export function viewPaths(): Record<string, JsonSchema> {
  return { ...columnPaths(), ...rulePaths(), ...importPaths(), ...bulkPaths() };
}
