/**
 * The messages between the service's thread and the thread that runs the embedded PGlite
 * (pglite-thread.ts). One request, one reply, matched by `id`; the thread answers in the order it
 * was asked. Values cross by structured clone (Date, Uint8Array and bigint survive it).
 */

/** What the service asks for: a statement with bound parameters, a script without, or the end. */
export type ThreadAsk =
  | { readonly op: 'query'; readonly text: string; readonly params: readonly unknown[] }
  | { readonly op: 'exec'; readonly text: string }
  | { readonly op: 'close' };

export type ThreadRequest = ThreadAsk & { readonly id: number };

export type ThreadReply =
  | { readonly id: number; readonly ok: true; readonly rows: Record<string, unknown>[]; readonly affectedRows: number }
  | { readonly id: number; readonly ok: false; readonly error: WireError };

/** The first message of the thread: the database is open (or could not be opened). */
export type ThreadReady = { readonly ready: true } | { readonly ready: false; readonly error: WireError };

/**
 * A database error as PostgreSQL reports it (ErrorResponse fields, protocol §55.8). The dialect's
 * error mapping reads `code` (SQLSTATE), `constraint` and `column`; the rest is kept for the log.
 */
export interface WireError {
  readonly message: string;
  readonly code?: string;
  readonly severity?: string;
  readonly detail?: string;
  readonly hint?: string;
  readonly position?: string;
  readonly schema?: string;
  readonly table?: string;
  readonly column?: string;
  readonly dataType?: string;
  readonly constraint?: string;
}

const FIELDS = ['code', 'severity', 'detail', 'hint', 'position', 'schema', 'table', 'column', 'dataType', 'constraint'] as const;

/** What of an error crosses the thread boundary: its message and the string fields PostgreSQL set. */
export function toWireError(error: unknown): WireError {
  if (typeof error !== 'object' || error === null) return { message: String(error) };
  const source = error as Record<string, unknown>;
  const wire: Record<string, string> = { message: typeof source.message === 'string' ? source.message : String(error) };
  for (const field of FIELDS) if (typeof source[field] === 'string') wire[field] = source[field];
  return wire as unknown as WireError;
}

/** An error raised on the embedded database, rebuilt on this side with the same fields. */
export class EmbeddedDatabaseError extends Error {
  readonly code?: string;
  readonly constraint?: string;
  readonly column?: string;

  constructor(wire: WireError) {
    super(wire.message);
    this.name = 'EmbeddedDatabaseError';
    Object.assign(this, wire);
  }
}
