/**
 * mssql / tedious errors → service error kinds. Server errors arrive as RequestError with the
 * SQL Server error `number` (sys.messages; "Database engine events and errors"); when the server
 * sends several, mssql throws the last and keeps the others in `precedingErrors`, so every one
 * is looked at. Client-side failures are ConnectionError/RequestError with a string `code`.
 * The constraint or column a message names is parsed out; it is never shown to clients.
 */
import type { DbError, DbErrorKind } from '../dialect.ts';

/** 547 is both a foreign key and a CHECK conflict; the message says which (see kindOf547). */
const FK_OR_CHECK = 547;

const KIND_BY_NUMBER: Record<number, DbErrorKind> = {
  2627: 'unique_violation', // Violation of PRIMARY KEY / UNIQUE KEY constraint '…'
  2601: 'unique_violation', // Cannot insert duplicate key row in object '…' with unique index '…'
  515: 'not_null_violation', // Cannot insert the value NULL into column '…'
  8152: 'invalid_value', // String or binary data would be truncated
  2628: 'invalid_value', // … would be truncated in table '…', column '…' (2019+)
  245: 'invalid_value', // Conversion failed when converting the nvarchar value '…' to data type int
  241: 'invalid_value', // Conversion failed when converting date and/or time from character string
  242: 'invalid_value', // … resulted in an out-of-range value (datetime)
  8114: 'invalid_value', // Error converting data type nvarchar to numeric
  8115: 'invalid_value', // Arithmetic overflow error converting … to data type …
  220: 'invalid_value', // Arithmetic overflow error for data type tinyint/smallint
  232: 'invalid_value', // Arithmetic overflow error for type …
  8169: 'invalid_value', // Conversion failed when converting from a character string to uniqueidentifier
  537: 'invalid_value', // Invalid length parameter passed to the LEFT or SUBSTRING function
  8134: 'division_by_zero', // Divide by zero error encountered
  207: 'undefined_column', // Invalid column name '…'
  208: 'undefined_table', // Invalid object name '…' (a table or view, maybe schema-qualified)
  195: 'undefined_function', // '…' is not a recognized built-in function name
  4121: 'undefined_function', // Cannot find either column "…" or the user-defined function "…"
  1205: 'deadlock', // Transaction was deadlocked … chosen as the deadlock victim
  1222: 'deadlock', // Lock request time out period exceeded: retryable like a deadlock
  3960: 'deadlock', // Snapshot isolation transaction aborted due to update conflict
  596: 'connection_lost', // Cannot continue the execution because the session is in the kill state
  6005: 'connection_lost', // SHUTDOWN is in progress
  233: 'connection_lost', // … no process is on the other end of the pipe
  10054: 'connection_lost', // An existing connection was forcibly closed by the remote host
};

/** mssql/tedious client codes for a connection that is gone or never came up. */
const CONNECTION_CODES = new Set([
  'ESOCKET',
  'ECONNRESET',
  'ECONNCLOSED',
  'ECONNREFUSED',
  'ETIMEOUT',
  'ENOTOPEN',
  'EINSTLOOKUP',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
]);

interface MssqlLikeError {
  name?: unknown;
  number?: unknown;
  code?: unknown;
  message?: unknown;
  originalError?: unknown;
  precedingErrors?: unknown;
  info?: { number?: unknown; message?: unknown };
}

function numberOf(e: MssqlLikeError): number | undefined {
  if (typeof e.number === 'number') return e.number;
  if (typeof e.info?.number === 'number') return e.info.number;
  return undefined;
}

function messageOf(e: MssqlLikeError): string {
  if (typeof e.message === 'string' && e.message) return e.message;
  return typeof e.info?.message === 'string' ? e.info.message : '';
}

/**
 * "The INSERT statement conflicted with the FOREIGN KEY constraint …", "The DELETE statement
 * conflicted with the REFERENCE constraint …", "… with the CHECK constraint …". The keywords stay
 * in English in localized messages; a message naming neither is taken as a foreign key.
 */
function kindOf547(message: string): DbErrorKind {
  return /\bCHECK\b/.test(message) && !/\b(FOREIGN KEY|REFERENCE)\b/.test(message) ? 'check_violation' : 'foreign_key_violation';
}

function quoted(pattern: RegExp, message: string): string | undefined {
  return pattern.exec(message)?.[1];
}

function detailsOf(kind: DbErrorKind, number: number, message: string): Pick<DbError, 'constraint' | 'column' | 'table'> {
  let constraint: string | undefined;
  let column: string | undefined;
  let table: string | undefined;
  switch (kind) {
    case 'unique_violation':
      constraint = number === 2601 ? quoted(/unique index '([^']*)'/i, message) : quoted(/constraint '([^']*)'/i, message);
      break;
    case 'foreign_key_violation':
    case 'check_violation':
      // The column this message names belongs to the referenced table, so only the constraint is kept.
      constraint = quoted(/constraint "([^"]*)"/i, message);
      break;
    case 'not_null_violation':
    case 'invalid_value':
      column = quoted(/column '([^']*)'/i, message);
      break;
    case 'undefined_column':
      column = quoted(/column name '([^']*)'/i, message);
      break;
    case 'undefined_table':
      table = quoted(/object name '([^']*)'/i, message);
      break;
    default:
      break;
  }
  return { ...(constraint !== undefined ? { constraint } : {}), ...(column !== undefined ? { column } : {}), ...(table !== undefined ? { table } : {}) };
}

function mapOne(e: MssqlLikeError): DbError | null {
  const number = numberOf(e);
  if (number !== undefined) {
    const kind = number === FK_OR_CHECK ? kindOf547(messageOf(e)) : KIND_BY_NUMBER[number];
    if (kind) return { kind, ...detailsOf(kind, number, messageOf(e)) };
  }
  const code = typeof e.code === 'string' ? e.code : '';
  // ETIMEOUT on a request is its requestTimeout (mssql RequestError); on a connection, the connect timed out.
  if (code === 'ETIMEOUT' && e.name === 'RequestError') return { kind: 'statement_timeout' };
  if (CONNECTION_CODES.has(code)) return { kind: 'connection_lost' };
  return null;
}

export function mapMssqlError(error: unknown): DbError | null {
  if (typeof error !== 'object' || error === null) return null;
  const e = error as MssqlLikeError;
  const preceding = Array.isArray(e.precedingErrors) ? (e.precedingErrors as unknown[]) : [];
  // The server's first error is the cause; later ones ("The statement has been terminated.") follow from it.
  for (const candidate of [...preceding, error, e.originalError]) {
    if (typeof candidate !== 'object' || candidate === null) continue;
    const mapped = mapOne(candidate as MssqlLikeError);
    if (mapped) return mapped;
  }
  return null;
}
