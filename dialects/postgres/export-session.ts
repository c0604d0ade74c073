/**
 * The pooled client an export (Driver.stream, Driver.csvCopy) reads on: taken unless the caller
 * has gone away meanwhile, running under the export's own time limit, and stopped on the server
 * the moment the caller goes away, even while the consumer is not pulling (backpressure).
 */
import type { Socket } from 'node:net';
import type pg from 'pg';
import { acquireUnlessAbandoned, whileRunning } from '../abandoned.ts';
import { cancelRunning } from './postgres-cancel.ts';
import type { TimeLimit } from './postgres-time-limit.ts';

/** How one export runs. */
export interface ExportRun {
  readonly limit: TimeLimit;
  /** The export's statement limit when it differs from the session's (set for this export only). */
  readonly ownTimeoutMs: number | undefined;
  readonly signal: AbortSignal | undefined;
}

/** pg keeps its socket on `connection.stream`. */
export function socketOf(client: pg.PoolClient): Socket {
  return (client as unknown as { connection: { stream: Socket } }).connection.stream;
}

export async function takeExportClient(pool: pg.Pool, run: ExportRun): Promise<pg.PoolClient> {
  const client = run.signal ? await acquireUnlessAbandoned(() => pool.connect(), (c) => c.release(), run.signal) : await pool.connect();
  if (run.ownTimeoutMs === undefined) return client;
  try {
    // A checked integer from the config, not input.
    await client.query(`SET statement_timeout = ${run.ownTimeoutMs}`);
    return client;
  } catch (error) {
    client.release(true);
    throw error;
  }
}

/**
 * Cancels the statement and drops the connection when `signal` aborts: the server stops the
 * statement, and a paused socket holding the rest of its output is closed. Returns the remover.
 */
export function stopOnAbandon(client: pg.PoolClient, signal: AbortSignal | undefined): () => void {
  return whileRunning(signal, () => {
    cancelRunning(client);
    socketOf(client).destroy();
  });
}

/** Back to the pool with the session's own limit again, or dropped (`broken`, or the reset failed). */
export async function releaseExportClient(client: pg.PoolClient, run: ExportRun, broken: boolean): Promise<void> {
  if (!broken && run.ownTimeoutMs !== undefined) broken = await client.query('RESET statement_timeout').then(() => false, () => true);
  client.release(broken);
}
