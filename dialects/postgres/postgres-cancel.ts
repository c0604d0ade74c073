/**
 * PostgreSQL's cancel request (protocol §55.2.8 "Canceling Requests in Progress"): a new short
 * connection that sends the busy backend's process id and secret key, which the pg client keeps
 * from the connection's BackendKeyData. The server then stops whatever that backend is running
 * with 57014 query_canceled; the busy connection itself stays usable. pg 8's own
 * `Client.cancel(client, query)` needs the deprecated `activeQuery`, hence the message by hand.
 */
import pg from 'pg';

interface BackendKey {
  readonly processID: number | null;
  readonly secretKey: number | null;
  readonly host: string;
  readonly port: number;
}

interface CancelConnection {
  connect(port: number | string, host?: string): void;
  cancel(processID: number, secretKey: number): void;
  end(): void;
  on(event: string, listener: (...args: unknown[]) => void): void;
  once(event: string, listener: (...args: unknown[]) => void): void;
}

/** Asks the server to stop what `client` runs now; failures are ignored (the statement then ends by its time limit). */
export function cancelRunning(client: pg.ClientBase): void {
  const key = client as unknown as BackendKey;
  if (key.processID === null || key.secretKey === null) return;
  const { processID, secretKey } = key;
  const Connection = (pg as unknown as { Connection: new () => CancelConnection }).Connection;
  const con = new Connection();
  con.on('error', () => undefined);
  con.once('connect', () => con.cancel(processID, secretKey));
  // A host starting with '/' is a Unix socket directory, as pg's own connect reads it.
  if (key.host.startsWith('/')) con.connect(`${key.host}/.s.PGSQL.${key.port}`);
  else con.connect(key.port, key.host);
}
