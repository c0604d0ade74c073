/** The service's own operations: health and readiness, metrics, the OAuth token and its discovery. */
import type { JsonSchema } from './openapi-types.ts';
import { errors, object, operation, ref } from './openapi-ops.ts';

const text = (description: string): JsonSchema => ({ 'text/plain': { schema: { type: 'string', description } } });

export function serviceSchemas(): Record<string, JsonSchema> {
  return {
    Status: object({ status: { type: 'string', enum: ['ok', 'ready', 'starting', 'draining', 'unavailable'] } }, ['status']),
    TokenGrant: object({ access_token: { type: 'string' }, token_type: { type: 'string', enum: ['Bearer'] }, expires_in: { type: 'integer' } }, ['access_token', 'token_type', 'expires_in']),
    OAuthError: object({ error: { type: 'string' }, error_description: { type: 'string' } }, ['error']),
  };
}

export function servicePaths(basePath: string): Record<string, JsonSchema> {
  const status = (description: string): JsonSchema => ({ description, content: { 'application/json': { schema: ref('Status') } } });
  return {
    '/healthz': {
      get: operation({
        id: 'health', tag: 'operations', summary: 'Is the process up', open: true,
        description: 'Answers 200 as soon as the process listens, also while it starts; never limited, never waits on a database',
        ok: { 200: status('The process is up') }, errors: errors([431]),
      }),
    },
    '/readyz': {
      get: operation({
        id: 'readiness', tag: 'operations', summary: 'May this instance take traffic', open: true,
        description: 'A balancer\'s health check: 200 when ready; 503 while starting, draining on SIGTERM or when the control store is away. Answers from the process, never waiting on a workspace pool',
        ok: { 200: status('Ready') }, errors: { ...errors([431]), 503: status('Starting, draining or unavailable') },
      }),
    },
    '/metrics': {
      get: operation({
        id: 'metrics', tag: 'operations', summary: 'Prometheus metrics',
        description: 'Prometheus text: request counts and durations by route and status, pool connections, cache lookups, import rows, rate-limit refusals. Asks for METRICS_TOKEN as a bearer token when it is set',
        ok: { 200: { description: 'Prometheus text format', content: text('Prometheus exposition format 0.0.4') } }, errors: errors([401]),
      }),
    },
    '/oauth/token': {
      post: operation({
        id: 'issueToken', tag: 'auth', summary: 'Issue an access token for an API key', open: true,
        description: 'OAuth 2.0 client credentials (RFC 6749 §4.4): client_id is the key id, client_secret the key; the token lives one hour and works where the key works',
        requestBody: {
          required: true,
          content: {
            'application/x-www-form-urlencoded': { schema: object({ grant_type: { type: 'string', enum: ['client_credentials'] }, client_id: { type: 'string' }, client_secret: { type: 'string' } }, ['grant_type']) },
            'application/json': { schema: object({ grant_type: { type: 'string', enum: ['client_credentials'] }, client_id: { type: 'string' }, client_secret: { type: 'string' } }, ['grant_type']) },
          },
        },
        ok: { 200: { description: 'The access token', content: { 'application/json': { schema: ref('TokenGrant') } } } },
        errors: {
          400: { description: 'An OAuth error (invalid_request, unsupported_grant_type)', content: { 'application/json': { schema: ref('OAuthError') } } },
          401: { description: 'invalid_client: the key id or secret is wrong', content: { 'application/json': { schema: ref('OAuthError') } } },
        },
      }),
    },
    '/.well-known/openid-configuration': {
      get: operation({
        id: 'openidConfiguration', tag: 'auth', summary: 'Discovery of the internal token issuer', open: true,
        description: 'The issuer, token endpoint and key set of the internal OAuth tokens (OpenID Connect Discovery 1.0)',
        ok: { 200: { description: 'The discovery document', content: { 'application/json': { schema: object({ issuer: { type: 'string' }, token_endpoint: { type: 'string' }, jwks_uri: { type: 'string' } }, ['issuer', 'jwks_uri']) } } } },
        errors: errors([429]),
      }),
    },
    '/.well-known/jwks.json': {
      get: operation({
        id: 'jwks', tag: 'auth', summary: 'The public keys of internal tokens', open: true,
        description: 'The JSON Web Key Set that verifies internal access tokens (RFC 7517)',
        ok: { 200: { description: 'The key set', content: { 'application/json': { schema: object({ keys: { type: 'array', items: { type: 'object' } } }, ['keys']) } } } },
        errors: errors([429]),
      }),
    },
    [`${basePath}/openapi.json`]: {
      get: operation({
        id: 'openApiDocument', tag: 'operations', summary: 'This document',
        description: 'The OpenAPI 3.1 document of this workspace, generated from its schema; any credential that may read the workspace may read it',
        ok: { 200: { description: 'The document', content: { 'application/json': { schema: { type: 'object' } } } } },
        errors: errors([401, 404]),
      }),
    },
  };
}
