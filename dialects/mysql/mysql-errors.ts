/**
 * mysql2 errors → service error kinds. Server errors carry `errno` (MySQL "Server Error Message
 * Reference", MariaDB "MariaDB Error Codes"); client-side failures carry a string `code`.
 * The constraint or column a message names is parsed out; it is never shown to clients.
 */
import type { ConnectionCause, DbError, DbErrorKind } from '../dialect.ts';

const KIND_BY_ERRNO: Record<number, DbErrorKind> = {
  1062: 'unique_violation', // ER_DUP_ENTRY
  1586: 'unique_violation', // ER_DUP_ENTRY_WITH_KEY_NAME
  1451: 'foreign_key_violation', // ER_ROW_IS_REFERENCED_2 (parent row)
  1452: 'foreign_key_violation', // ER_NO_REFERENCED_ROW_2 (child row)
  1216: 'foreign_key_violation', // ER_NO_REFERENCED_ROW
  1217: 'foreign_key_violation', // ER_ROW_IS_REFERENCED
  1048: 'not_null_violation', // ER_BAD_NULL_ERROR
  1364: 'not_null_violation', // ER_NO_DEFAULT_FOR_FIELD
  1406: 'invalid_value', // ER_DATA_TOO_LONG
  1264: 'invalid_value', // ER_WARN_DATA_OUT_OF_RANGE
  1292: 'invalid_value', // ER_TRUNCATED_WRONG_VALUE (dates, numbers in strict mode)
  1366: 'invalid_value', // ER_TRUNCATED_WRONG_VALUE_FOR_FIELD
  1265: 'invalid_value', // WARN_DATA_TRUNCATED (enum/set values in strict mode)
  1690: 'invalid_value', // ER_DATA_OUT_OF_RANGE (BIGINT arithmetic)
  3140: 'invalid_value', // ER_INVALID_JSON_TEXT (MySQL)
  3819: 'check_violation', // ER_CHECK_CONSTRAINT_VIOLATED (MySQL)
  4025: 'check_violation', // ER_CONSTRAINT_FAILED (MariaDB)
  1365: 'division_by_zero', // ER_DIVISION_BY_ZERO (strict mode, in writes)
  1054: 'undefined_column', // ER_BAD_FIELD_ERROR
  1146: 'undefined_table', // ER_NO_SUCH_TABLE
  1305: 'undefined_function', // ER_SP_DOES_NOT_EXIST
  1630: 'undefined_function', // ER_FUNC_INEXISTENT_NAME_COLLISION
  1213: 'deadlock', // ER_LOCK_DEADLOCK
  1969: 'statement_timeout', // MariaDB ER_STATEMENT_TIMEOUT (max_statement_time)
  3024: 'statement_timeout', // MySQL ER_QUERY_TIMEOUT (max_execution_time)
  1205: 'deadlock', // ER_LOCK_WAIT_TIMEOUT: retryable like a deadlock
  1053: 'connection_lost', // ER_SERVER_SHUTDOWN
  1044: 'connection_lost', // ER_DBACCESS_DENIED_ERROR: refused at connect (the cause is logged)
  1045: 'connection_lost', // ER_ACCESS_DENIED_ERROR: wrong user or password
  1049: 'connection_lost', // ER_BAD_DB_ERROR: the database does not exist
  1927: 'connection_lost', // ER_CONNECTION_KILLED (MariaDB)
  2002: 'connection_lost', // CR_CONNECTION_ERROR
  2003: 'connection_lost', // CR_CONN_HOST_ERROR
  2006: 'connection_lost', // CR_SERVER_GONE_ERROR
  2013: 'connection_lost', // CR_SERVER_LOST
  4031: 'connection_lost', // ER_CLIENT_INTERACTION_TIMEOUT (MySQL 8.0.24+)
};

const CONNECTION_CODES = new Set([
  'PROTOCOL_CONNECTION_LOST',
  'PROTOCOL_ENQUEUE_AFTER_FATAL_ERROR',
  'PROTOCOL_ENQUEUE_AFTER_QUIT',
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
]);

/** Connection failures by errno or socket code; the class of cause is shown, never the driver's text. */
const CAUSE_BY_CODE: Record<string, ConnectionCause> = {
  ENOTFOUND: 'host_not_found',
  EAI_AGAIN: 'host_not_found',
  ECONNREFUSED: 'connection_refused',
  ETIMEDOUT: 'timeout',
  1045: 'authentication_failed', // ER_ACCESS_DENIED_ERROR
  1044: 'authentication_failed', // ER_DBACCESS_DENIED_ERROR: this user may not use that database
  1049: 'database_missing', // ER_BAD_DB_ERROR
};

function connectionCause(errno: number | undefined, code: string): Pick<DbError, 'connection'> {
  const cause = (errno !== undefined ? CAUSE_BY_CODE[errno] : undefined) ?? CAUSE_BY_CODE[code];
  return cause ? { connection: cause } : {};
}

interface MysqlLikeError {
  errno?: unknown;
  fatal?: unknown;
  code?: unknown;
  sqlMessage?: unknown;
  message?: unknown;
}

/** The last backquoted or quoted name: `db`.`t`.`col` → col, 'col' → col. */
function lastName(fragment: string | undefined): string | undefined {
  if (!fragment) return undefined;
  const names = [...fragment.matchAll(/`((?:[^`]|``)*)`|'((?:[^']|'')*)'/g)].map((m) => (m[1] ?? m[2] ?? '').replace(/``/g, '`'));
  return names[names.length - 1];
}

function detailsOf(kind: DbErrorKind, message: string): Pick<DbError, 'constraint' | 'column' | 'table'> {
  switch (kind) {
    case 'unique_violation': {
      // "Duplicate entry 'x' for key 'email'" (MariaDB); MySQL 8.0.19+ says 'customers.email'.
      const key = /for key '((?:[^']|'')*)'\s*$/.exec(message)?.[1]?.replace(/''/g, "'");
      if (key === undefined) return {};
      const dot = key.indexOf('.');
      return { constraint: dot >= 0 ? key.slice(dot + 1) : key };
    }
    case 'foreign_key_violation': {
      const constraint = /CONSTRAINT `((?:[^`]|``)*)`/.exec(message)?.[1]?.replace(/``/g, '`');
      const column = /FOREIGN KEY \(`((?:[^`]|``)*)`/.exec(message)?.[1]?.replace(/``/g, '`');
      return { ...(constraint !== undefined ? { constraint } : {}), ...(column !== undefined ? { column } : {}) };
    }
    case 'check_violation': {
      // MySQL: "Check constraint 'c' is violated."; MariaDB: "CONSTRAINT `c` failed for `db`.`t`".
      const constraint = /constraint [`']((?:[^`']|``|'')*)[`']/i.exec(message)?.[1];
      return constraint !== undefined ? { constraint } : {};
    }
    case 'not_null_violation':
    case 'invalid_value':
    case 'undefined_column': {
      // "Column 'c' cannot be null", "Field 'c' doesn't have a default value",
      // "Data too long for column 'c' at row 1", "… for column `db`.`t`.`c` at row 1".
      const match = /(?:column|field)\s+((?:`(?:[^`]|``)*`\.?)+|'(?:[^']|'')*')/i.exec(message);
      const column = lastName(match?.[1]);
      return column !== undefined ? { column } : {};
    }
    case 'undefined_table': {
      // "Table 'db.t' doesn't exist": the name as one quoted string, schema-qualified.
      const table = /table '((?:[^']|'')*)'/i.exec(message)?.[1]?.replace(/''/g, "'");
      return table !== undefined ? { table } : {};
    }
    default:
      return {};
  }
}

export function mapMysqlError(error: unknown): DbError | null {
  if (typeof error !== 'object' || error === null) return null;
  const e = error as MysqlLikeError;
  const errno = typeof e.errno === 'number' ? e.errno : undefined;
  const code = typeof e.code === 'string' ? e.code : '';
  let kind: DbErrorKind | undefined = errno !== undefined ? KIND_BY_ERRNO[errno] : undefined;
  if (!kind && CONNECTION_CODES.has(code)) kind = 'connection_lost';
  // mysql2 marks errors that ended the connection `fatal`, e.g. "Can't add new command when
  // connection is in closed state" after the server killed the session.
  if (!kind && e.fatal === true) kind = 'connection_lost';
  if (!kind) return null;
  const message = typeof e.sqlMessage === 'string' ? e.sqlMessage : typeof e.message === 'string' ? e.message : '';
  return { kind, ...detailsOf(kind, message), ...(kind === 'connection_lost' ? connectionCause(errno, code) : {}) };
}
