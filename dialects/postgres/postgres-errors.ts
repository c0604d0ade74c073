import type { ConnectionCause, DbError, DbErrorKind } from '../dialect.ts';

/** SQLSTATE classes, PostgreSQL manual Appendix A. */
const KIND_BY_SQLSTATE: Record<string, DbErrorKind> = {
  '23505': 'unique_violation',
  '23503': 'foreign_key_violation',
  '23502': 'not_null_violation',
  '23514': 'check_violation',
  '22001': 'invalid_value', // string_data_right_truncation
  '22003': 'invalid_value', // numeric_value_out_of_range
  '22007': 'invalid_value', // invalid_datetime_format
  '22008': 'invalid_value', // datetime_field_overflow
  '22P02': 'invalid_value', // invalid_text_representation
  '22P05': 'invalid_value', // untranslatable_character (e.g. \u0000 in jsonb)
  '22021': 'invalid_value', // character_not_in_repertoire (a NUL byte in text)
  '22025': 'invalid_value', // invalid_escape_sequence (LIKE)
  '22012': 'division_by_zero',
  '42703': 'undefined_column',
  '42P01': 'undefined_table',
  '42883': 'undefined_function',
  '40P01': 'deadlock',
  '40001': 'deadlock', // serialization_failure: retryable like a deadlock
  '57P01': 'connection_lost', // admin_shutdown
  '57P02': 'connection_lost',
  '57P03': 'connection_lost',
  // Refused at connect: the client cannot fix these, the operator can (the cause is logged).
  '28000': 'connection_lost', // invalid_authorization_specification
  '28P01': 'connection_lost', // invalid_password
  '3D000': 'connection_lost', // invalid_catalog_name: the database does not exist
};

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ENOTFOUND', 'EAI_AGAIN']);

/** Connection failures by SQLSTATE or socket code; the class of cause is shown, never the driver's text. */
const CAUSE_BY_CODE: Record<string, ConnectionCause> = {
  ENOTFOUND: 'host_not_found',
  EAI_AGAIN: 'host_not_found',
  ECONNREFUSED: 'connection_refused',
  ETIMEDOUT: 'timeout',
  '28P01': 'authentication_failed',
  '28000': 'authentication_failed',
  '3D000': 'database_missing',
};

function connectionCause(code: string, message: unknown): Pick<DbError, 'connection'> {
  // pg's own connect timeout is a plain Error: "Connection terminated due to connection timeout".
  const cause = CAUSE_BY_CODE[code] ?? (typeof message === 'string' && /connection timeout/i.test(message) ? 'timeout' : undefined);
  return cause ? { connection: cause } : {};
}

/**
 * The name in "column t0.note does not exist", "column "note" of relation "orders" does not exist"
 * and "relation "ws.orders" does not exist": the server sets no `column`/`table` field for these,
 * and quotes names in the message without escaping. Returned without quotes, maybe qualified
 * (`t0.note`); the caller matches it against the names it knows.
 */
function missingName(message: string): string | undefined {
  return /^(?:column|relation) (.+?)(?: of relation ".*")? does not exist$/.exec(message)?.[1]?.replace(/"/g, '');
}

function undefinedObject(kind: DbErrorKind, message: unknown): Pick<DbError, 'column' | 'table'> {
  const name = typeof message === 'string' ? missingName(message) : undefined;
  if (name === undefined) return {};
  if (kind === 'undefined_column') return { column: name };
  return kind === 'undefined_table' ? { table: name } : {};
}

interface PgLikeError {
  code?: unknown;
  constraint?: unknown;
  column?: unknown;
  message?: unknown;
}

export function mapPostgresError(error: unknown): DbError | null {
  if (typeof error !== 'object' || error === null) return null;
  const e = error as PgLikeError;
  const code = typeof e.code === 'string' ? e.code : '';
  let kind: DbErrorKind | undefined = KIND_BY_SQLSTATE[code];
  if (!kind && (code.startsWith('08') || NETWORK_CODES.has(code))) kind = 'connection_lost';
  // query_canceled is also what a cancel request gives; only the timeout's names its cause.
  if (code === '57014' && typeof e.message === 'string' && /statement timeout/i.test(e.message)) kind = 'statement_timeout';
  if (!kind && typeof e.message === 'string' && /Connection terminated|connection.*closed/i.test(e.message)) {
    kind = 'connection_lost';
  }
  if (!kind) return null;
  return {
    kind,
    ...(typeof e.constraint === 'string' ? { constraint: e.constraint } : {}),
    ...(typeof e.column === 'string' ? { column: e.column } : {}),
    ...undefinedObject(kind, e.message),
    ...(kind === 'connection_lost' ? connectionCause(code, e.message) : {}),
  };
}
