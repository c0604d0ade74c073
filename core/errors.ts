/**
 * One base error with a stable code. HTTP status is chosen only at the server edge
 * (server/middleware/errors.ts); core never thinks in statuses.
 */
export type ErrorCode =
  | 'BAD_REQUEST'
  | 'VALIDATION_FAILED'
  | 'INVALID_FORMULA'
  | 'UNAUTHORIZED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'CONFLICT'
  | 'PAYLOAD_TOO_LARGE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'REFERENCE_NOT_FOUND'
  | 'SCHEMA_MIGRATION_IN_PROGRESS'
  | 'SERVICE_UNAVAILABLE'
  | 'INTERNAL_ERROR';

export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly details: unknown;
  /** Extra top-level members of the error body (e.g. the 503's retryAfterSeconds). */
  readonly extra: Record<string, unknown> | undefined;

  constructor(code: ErrorCode, message: string, details?: unknown, extra?: Record<string, unknown>) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.details = details;
    this.extra = extra;
  }
}

export interface FieldProblem {
  field: string;
  rule: string;
  message: string;
}

export function badRequest(message: string, details?: unknown): ApiError {
  return new ApiError('BAD_REQUEST', message, details);
}

export function notFound(message = 'not found'): ApiError {
  return new ApiError('NOT_FOUND', message);
}

export function validationFailed(problems: FieldProblem[]): ApiError {
  const summary = problems.map((p) => `${p.field}: ${p.message}`).join('; ');
  return new ApiError('VALIDATION_FAILED', `validation failed: ${summary}`, problems);
}
