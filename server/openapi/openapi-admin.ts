/**
 * The admin API (`/api/admin/v1/…`): organizations, workspaces, API keys, sync, entity options,
 * migration flags, the identity provider and views. Paths name this workspace's org and slug, as
 * the record paths do, so the document has one path per resource and none that reads two ways.
 */
import type { JsonSchema } from './openapi-types.ts';
import { errors, jsonBody, many, object, one, operation, pathParam, ref } from './openapi-ops.ts';

export const JOB_STATES = ['RUNNING', 'DONE', 'FAILED', 'INTERRUPTED'];

export function adminSchemas(): Record<string, JsonSchema> {
  return {
    Organization: object({ slug: { type: 'string' }, name: { type: 'string' } }, ['slug']),
    Workspace: object({
      id: { type: 'string' }, org: { type: 'string' }, slug: { type: 'string' }, name: { type: 'string' },
      database: object({ vendor: { type: 'string' }, url: { type: 'string', description: 'The password is shown as ***' }, schema: { type: 'string' }, poolSize: { type: 'integer' } }, ['vendor']),
      schemaHash: { type: ['string', 'null'] }, syncedAt: { type: ['string', 'null'], format: 'date-time' },
    }, ['id', 'org', 'slug']),
    WorkspaceInput: object({
      slug: { type: 'string' }, name: { type: 'string' },
      database: object({ vendor: { type: 'string' }, url: { type: 'string' }, schema: { type: ['string', 'null'] }, poolSize: { type: ['integer', 'null'] } }),
    }),
    ApiKey: object({ id: { type: 'string' }, name: { type: 'string' }, createdAt: { type: 'string', format: 'date-time' }, key: { type: 'string', description: 'Only in the answer that creates the key' } }, ['id']),
    View: object({ uuid: { type: 'string', format: 'uuid' }, slug: { type: 'string' }, name: { type: 'string' }, entity: { type: 'string' }, isDefault: { type: 'boolean' } }, ['uuid', 'slug', 'entity']),
    IdentityProvider: object({
      issuerUrl: { type: 'string', format: 'uri' }, jwksUri: { type: ['string', 'null'], format: 'uri' }, audience: { type: ['string', 'null'] },
      defaultPermissions: { type: 'string', enum: ['READ_ONLY', 'READ_WRITE'] }, enabled: { type: 'boolean' },
    }, ['issuerUrl']),
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

const WS = (org: string, ws: string): string => `/api/admin/v1/orgs/${org}/workspaces/${ws}`;

function orgPaths(org: string): Record<string, JsonSchema> {
  return {
    '/api/admin/v1/orgs': {
      get: operation({ id: 'listOrganizations', tag: 'admin', summary: 'List organizations', description: 'Every organization of the instance (instance admin token)', ok: { 200: { description: 'The organizations', content: many(ref('Organization')) } }, errors: errors([401, 403]) }),
      post: operation({
        id: 'createOrganization', tag: 'admin', summary: 'Create an organization', description: 'A new organization (instance admin token)',
        requestBody: jsonBody(object({ slug: { type: 'string' }, name: { type: 'string' } }, ['slug'])),
        ok: { 201: { description: 'Created', content: one(ref('Organization')) } }, errors: errors([400, 401, 403, 409]),
      }),
    },
    [`/api/admin/v1/orgs/${org}`]: {
      get: operation({ id: 'getOrganization', tag: 'admin', summary: 'Read an organization', description: 'One organization (instance admin token)', ok: { 200: { description: 'The organization', content: one(ref('Organization')) } }, errors: errors([401, 403, 404]) }),
    },
    [`/api/admin/v1/orgs/${org}/workspaces`]: {
      get: operation({ id: 'listWorkspaces', tag: 'admin', summary: 'List workspaces', description: "The organization's workspaces (instance admin token)", ok: { 200: { description: 'The workspaces', content: many(ref('Workspace')) } }, errors: errors([401, 403, 404]) }),
      post: operation({
        id: 'createWorkspace', tag: 'admin', summary: 'Create a workspace',
        description: 'A workspace on a database of its own; the database is probed (connect, schema) before anything is stored, then synced',
        requestBody: jsonBody(ref('WorkspaceInput')), ok: { 201: { description: 'Created and synced', content: one(ref('Workspace')) } }, errors: errors([400, 401, 403, 404, 409]),
      }),
    },
  };
}

function workspacePaths(org: string, ws: string): Record<string, JsonSchema> {
  const base = WS(org, ws);
  return {
    [base]: {
      get: operation({ id: 'getWorkspace', tag: 'admin', summary: 'Read the workspace', description: 'The workspace record, its database URL without the password (admin token, or an API key of the workspace)', ok: { 200: { description: 'The workspace', content: one(ref('Workspace')) } }, errors: errors([401, 403, 404]) }),
      patch: operation({
        id: 'updateWorkspace', tag: 'admin', summary: 'Change the workspace', description: 'Its name or database settings; new settings are probed and the workspace re-synced (instance admin token)',
        requestBody: jsonBody(ref('WorkspaceInput')), ok: { 200: { description: 'The changed workspace', content: one(ref('Workspace')) } }, errors: errors([400, 401, 403, 404]),
      }),
      delete: operation({ id: 'deleteWorkspace', tag: 'admin', summary: 'Delete the workspace', description: 'Removes the workspace with its views, columns, rules, keys and import jobs; the database is left alone (instance admin token)', ok: { 204: { description: 'Deleted' } }, errors: errors([401, 403, 404]) }),
    },
    [`${base}/api-keys`]: {
      get: operation({ id: 'listApiKeys', tag: 'admin', summary: 'List API keys', description: 'The keys of the workspace, never their secrets', ok: { 200: { description: 'The keys', content: many(ref('ApiKey')) } }, errors: errors([401, 403, 404]) }),
      post: operation({
        id: 'createApiKey', tag: 'admin', summary: 'Issue an API key', description: 'A new key; the answer is the only place it is ever shown',
        requestBody: { required: false, content: { 'application/json': { schema: object({ name: { type: 'string' } }) } } },
        ok: { 201: { description: 'The key, shown once', content: one(ref('ApiKey')) } }, errors: errors([400, 401, 403, 404]),
      }),
    },
    [`${base}/api-keys/{id}`]: {
      parameters: [pathParam('id', 'The key id')],
      delete: operation({ id: 'revokeApiKey', tag: 'admin', summary: 'Revoke an API key', description: 'The key and the access tokens issued for it are refused from the next request on, on every instance', ok: { 204: { description: 'Revoked' } }, errors: errors([401, 403, 404]) }),
    },
    [`${base}/sync`]: {
      post: operation({ id: 'syncWorkspace', tag: 'admin', summary: 'Sync with the database', description: 'Reads the database schema again: new tables and columns appear, missing ones go; the answer lists what changed', ok: { 200: { description: 'What the sync changed', content: one({ type: 'object' }) } }, errors: errors([401, 403, 404, 503]) }),
    },
    [`${base}/schema`]: {
      get: operation({ id: 'describeSchema', tag: 'admin', summary: 'Describe the entity model', description: 'Entities with their fields, types, keys, relationships and options', ok: { 200: { description: 'The model', content: one({ type: 'object' }) } }, errors: errors([401, 403, 404]) }),
    },
    [`${base}/entities/{entity}`]: {
      parameters: [pathParam('entity')],
      patch: operation({
        id: 'updateEntityOptions', tag: 'admin', summary: 'Change entity options',
        description: 'defaultExpand, expandable, maxExpandDepth, defaultFields, countMode, constraints, validators; null clears an option',
        requestBody: jsonBody({ type: 'object' }), ok: { 200: { description: 'The entity with its options', content: one({ type: 'object' }) } }, errors: errors([400, 401, 403, 404]),
      }),
    },
    [`${base}/entities/{entity}/migration`]: {
      parameters: [pathParam('entity')],
      get: operation({ id: 'getMigrationFlag', tag: 'admin', summary: 'Read the migration flag', description: 'The migration flag as the service applies it (owner credentials)', ok: { 200: { description: 'The entity is marked as migrating', content: one(ref('MigrationFlag')) } }, errors: errors([401, 403, 404], { 404: 'The entity is not marked as migrating, or does not exist' }) }),
      put: operation({
        id: 'setMigrationFlag', tag: 'admin', summary: 'Mark the entity as migrating', description: 'Reads and/or writes of the entity answer 503 SCHEMA_MIGRATION_IN_PROGRESS with Retry-After until the flag is cleared',
        requestBody: jsonBody(object({ blocksReads: { type: 'boolean' }, blocksWrites: { type: 'boolean' }, retryAfterSeconds: { type: 'integer', minimum: 1, maximum: 86_400 } })),
        ok: { 200: { description: 'The flag as stored', content: one(ref('MigrationFlag')) } }, errors: errors([400, 401, 403, 404]),
      }),
      delete: operation({ id: 'clearMigrationFlag', tag: 'admin', summary: 'Clear the migration flag', description: 'Reads and writes of the entity are served again', ok: { 204: { description: 'Cleared' } }, errors: errors([401, 403, 404]) }),
    },
    [`${base}/identity-provider`]: {
      get: operation({ id: 'getIdentityProvider', tag: 'admin', summary: 'Read the identity provider', description: 'The external OIDC provider whose tokens this workspace accepts', ok: { 200: { description: 'The provider', content: one(ref('IdentityProvider')) } }, errors: errors([401, 403, 404]) }),
      put: operation({
        id: 'setIdentityProvider', tag: 'admin', summary: 'Set the identity provider', description: 'Issuer, key set, audience and default permissions of external tokens; addresses on private networks are refused unless the instance allows them',
        requestBody: jsonBody(ref('IdentityProvider')), ok: { 200: { description: 'The provider as stored', content: one(ref('IdentityProvider')) } }, errors: errors([400, 401, 403, 404]),
      }),
    },
    [`${base}/views`]: {
      get: operation({ id: 'listViews', tag: 'admin', summary: 'List views', description: 'Every view of the workspace, default views included', ok: { 200: { description: 'The views', content: many(ref('View')) } }, errors: errors([401, 403, 404]) }),
      post: operation({
        id: 'createView', tag: 'admin', summary: 'Create a view', description: "A view of an entity, starting with the entity's field columns; the slugs import and bulk are refused (they name other routes)",
        requestBody: jsonBody(object({ entity: { type: 'string' }, name: { type: 'string' }, slug: { type: 'string', pattern: '^[a-z0-9]+(-[a-z0-9]+)*$' } }, ['entity', 'name'])),
        ok: { 201: { description: 'Created', content: one(ref('View')) } }, errors: errors([400, 401, 403, 404, 409]),
      }),
    },
  };
}

export function adminPaths(org: string, ws: string): Record<string, JsonSchema> {
  return { ...orgPaths(org), ...workspacePaths(org, ws) };
}
