/**
 * How the document spells an operation: summary, description, tag and operationId on every one
 * (the linters ask for all four), the error envelope behind every 4xx and 5xx, `{data}` envelopes.
 */
import type { JsonSchema } from './openapi-types.ts';

export const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

/** `{data: <schema>}`, the envelope of one resource (DESIGN §12). */
export const one = (schema: JsonSchema): JsonSchema => ({ 'application/json': { schema: { type: 'object', required: ['data'], properties: { data: schema } } } });

/** `{data: [<schema>], meta: {totalElements}}`, the envelope of a list that is not paged. */
export const many = (schema: JsonSchema): JsonSchema => ({
  'application/json': {
    schema: { type: 'object', required: ['data', 'meta'], properties: { data: { type: 'array', items: schema }, meta: { type: 'object', properties: { totalElements: { type: 'integer' } } } } },
  },
});

export const pathParam = (name: string, description?: string): JsonSchema => ({ name, in: 'path', required: true, schema: { type: 'string' }, ...(description ? { description } : {}) });

export const jsonBody = (schema: JsonSchema): JsonSchema => ({ required: true, content: { 'application/json': { schema } } });

const ERROR_TEXT: Record<number, string> = {
  400: 'A malformed request or a value that fails validation (BAD_REQUEST, VALIDATION_FAILED, INVALID_FORMULA)',
  401: 'Missing or invalid credential (UNAUTHORIZED)',
  403: 'The credential may not do this (FORBIDDEN)',
  404: 'No such resource, or one the credential may not see (NOT_FOUND)',
  409: 'A conflict with stored data (CONFLICT)',
  410: 'No longer kept (GONE)',
  412: 'The precondition failed (PRECONDITION_FAILED)',
  413: 'The body is too large (PAYLOAD_TOO_LARGE)',
  415: 'The body is not of a type this operation takes (UNSUPPORTED_MEDIA_TYPE)',
  422: 'A reference points nowhere (REFERENCE_NOT_FOUND)',
  431: 'The request headers are too large (HEADERS_TOO_LARGE), answered before any route',
  429: 'Too many requests for this credential (RATE_LIMITED); Retry-After says when to try again',
  503: 'A schema migration, a changed schema or an unavailable database (SCHEMA_MIGRATION_IN_PROGRESS, SCHEMA_OUT_OF_SYNC, QUERY_TIMEOUT, SERVICE_UNAVAILABLE)',
};

/** The error responses of `codes`, each the error envelope; `text` overrides a code's description. */
export function errors(codes: readonly number[], text: Record<number, string> = {}): Record<string, JsonSchema> {
  return Object.fromEntries(codes.map((code) => [String(code), { description: text[code] ?? ERROR_TEXT[code] ?? 'Error', content: { 'application/json': { schema: ref('Error') } } }]));
}

export interface OperationSpec {
  readonly id: string;
  readonly tag: string;
  readonly summary: string;
  readonly description: string;
  readonly parameters?: readonly JsonSchema[];
  readonly requestBody?: JsonSchema;
  /** The success responses by status. */
  readonly ok: Record<string, JsonSchema>;
  readonly errors: Record<string, JsonSchema>;
  /** Answered without a credential (`security: []`). */
  readonly open?: boolean;
}

export function operation(spec: OperationSpec): JsonSchema {
  return {
    operationId: spec.id,
    tags: [spec.tag],
    summary: spec.summary,
    description: spec.description,
    ...(spec.parameters ? { parameters: spec.parameters } : {}),
    ...(spec.requestBody ? { requestBody: spec.requestBody } : {}),
    ...(spec.open ? { security: [] } : {}),
    responses: { ...spec.ok, ...spec.errors },
  };
}

/** A loose object schema for bodies whose members the description names. */
export const object = (properties: Record<string, JsonSchema>, required: readonly string[] = []): JsonSchema => ({
  type: 'object', properties, ...(required.length > 0 ? { required: [...required] } : {}),
});
