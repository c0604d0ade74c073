/** The one place where error codes become HTTP statuses (DESIGN §5). */
import type { ErrorCode } from '../../core/errors.ts';

export const STATUS_BY_CODE: Record<ErrorCode, number> = {
  BAD_REQUEST: 400,
  VALIDATION_FAILED: 400,
  INVALID_FORMULA: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  EVENTS_OFF: 409,
  REQUEST_TIMEOUT: 408,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  REFERENCE_NOT_FOUND: 422,
  RATE_LIMITED: 429,
  HEADERS_TOO_LARGE: 431,
  METHOD_NOT_ALLOWED: 405,
  NOT_IMPLEMENTED: 501,
  SCHEMA_MIGRATION_IN_PROGRESS: 503,
  /** The workspace database no longer has a table or column the service holds; an owner's sync fixes it. */
  SCHEMA_OUT_OF_SYNC: 503,
  SERVICE_UNAVAILABLE: 503,
  /** A statement ran past its time limit (DESIGN §11). */
  QUERY_TIMEOUT: 503,
  /** The process listens but has not finished starting (server/early-server.ts). */
  STARTING: 503,
  INTERNAL_ERROR: 500,
};
