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
  | 'EVENTS_OFF'
  | 'REQUEST_TIMEOUT'
  | 'PAYLOAD_TOO_LARGE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'HEADERS_TOO_LARGE'
  | 'METHOD_NOT_ALLOWED'
  | 'NOT_IMPLEMENTED'
  | 'REFERENCE_NOT_FOUND'
  | 'RATE_LIMITED'
  | 'SCHEMA_MIGRATION_IN_PROGRESS'
  | 'SCHEMA_OUT_OF_SYNC'
  | 'SERVICE_UNAVAILABLE'
  | 'QUERY_TIMEOUT'
  | 'STARTING'
  | 'INTERNAL_ERROR';

export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly details: unknown;
  /** Extra top-level members of the error body (e.g. the 503's retryAfterSeconds). */
  readonly extra: Record<string, unknown> | undefined;

  /**
   * `cause` is for the log only (the driver error behind a 503, say); it never reaches a client.
   */
  constructor(code: ErrorCode, message: string, details?: unknown, extra?: Record<string, unknown>, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
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

/** A dependency (a workspace database) cannot serve now; the cause goes to the request's log line. */
export function serviceUnavailable(message: string, cause: unknown): ApiError {
  return new ApiError('SERVICE_UNAVAILABLE', message, undefined, undefined, cause);
}

/**
 * A statement stopped by its time limit. `setting` is the variable that sets the limit
 * (STATEMENT_TIMEOUT_MS, EXPORT_STATEMENT_TIMEOUT_MS), so an operator knows what to raise;
 * the driver's own text goes to the log only.
 */
export function queryTimeout(setting: string, limitMs: number | undefined, cause: unknown): ApiError {
  const limit = limitMs === undefined ? setting : `${setting}, ${limitMs} ms`;
  return new ApiError('QUERY_TIMEOUT', `the query ran longer than its time limit (${limit}); narrow it or simplify its formulas`, undefined, undefined, cause);
}

/** `cause` (a driver error, say) goes to the log only. */
export function validationFailed(problems: FieldProblem[], cause?: unknown): ApiError {
  const summary = problems.map((p) => `${p.field}: ${p.message}`).join('; ');
  return new ApiError('VALIDATION_FAILED', `validation failed: ${summary}`, problems, undefined, cause);
}
