/** The defaults of the statement and response limits (DESIGN §11 "No caller can hold the database"). */

/** One statement of a request: a page, a count, a write. */
export const STATEMENT_TIMEOUT_MS = 15_000;

/**
 * A streamed export's statement (and its connection) lives as long as the download: the 1M-row
 * CSV export takes a few seconds here, a slow link or a big table minutes. Ten minutes lets any
 * export a client actually reads finish, while an abandoned one is cut by RESPONSE_IDLE_TIMEOUT_MS
 * and the client's disconnect long before.
 */
export const EXPORT_STATEMENT_TIMEOUT_MS = 600_000;

/** A streamed answer whose client takes no byte for this long is cut and its statement cancelled. */
export const RESPONSE_IDLE_TIMEOUT_MS = 30_000;
