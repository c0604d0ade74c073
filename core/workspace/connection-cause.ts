/**
 * Why a workspace database could not be reached, in words an owner can act on. Only the class of
 * cause is told: the driver's text may name hosts, users or the password's owner.
 */
import type { ConnectionCause } from '../../dialects/dialect.ts';

export const CONNECTION_CAUSE_TEXT = {
  host_not_found: 'the host name was not found (check the host in the URL)',
  connection_refused: 'the connection was refused (nothing listens on that host and port)',
  authentication_failed: 'the user name or password was refused',
  database_missing: 'the database named in the URL does not exist',
  timeout: 'the server did not answer in time',
} as const satisfies Record<ConnectionCause, string>;

/** The sentence for a cause, or `fallback` when the driver did not tell one. */
export function connectionCauseText(cause: ConnectionCause | undefined, fallback: string): string {
  return cause ? CONNECTION_CAUSE_TEXT[cause] : fallback;
}
