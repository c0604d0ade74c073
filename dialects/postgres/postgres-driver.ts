import pg from 'pg';
import type { CompiledSql } from '../../core/sql.ts';
import type { DatabaseConfig, Driver, Executor, QueryResult } from '../dialect.ts';
import { copyCsv } from './postgres-copy.ts';
import { streamedRows } from './postgres-stream.ts';
import { postgresTextParsers } from './postgres-types.ts';
import { pgStream } from './read-sink-socket.ts';

const types = {
  getTypeParser(oid: number, format?: string): (text: string) => unknown {
    const custom = postgresTextParsers[oid];
    if (custom && format !== 'binary') return custom;
    return pg.types.getTypeParser(oid, (format ?? 'text') as 'text') as (text: string) => unknown;
  },
};

function toResult(result: pg.QueryResult): QueryResult {
  return { rows: result.rows as Record<string, unknown>[], affectedRows: result.rowCount ?? 0 };
}

function executorOf(client: pg.Pool | pg.ClientBase): Executor {
  return {
    async query(statement: CompiledSql): Promise<QueryResult> {
      // (text, values) rather than a config object, which pg copies property by property per query.
      return toResult(await client.query(statement.text, statement.params as unknown[]));
    },
  };
}

/** A `pg` Pool against a real PostgreSQL server. Sessions run in UTC (DESIGN §4). */
export function createPgDriver(config: DatabaseConfig): Driver {
  const pool = new pg.Pool({
    connectionString: config.url,
    max: config.poolSize ?? 10,
    options: '-c TimeZone=UTC',
    types,
    // Sockets whose reads the COPY export can take into reused buffers (read-sink-socket.ts).
    stream: pgStream,
  });
  // An idle client losing its server must not crash the process; the next query reconnects.
  pool.on('error', () => undefined);
  const executor = executorOf(pool);
  return {
    query: executor.query,
    stream: (statement, batchRows) => streamedRows(pool, types, statement, batchRows),
    csvCopy: (statement, columns) => copyCsv(pool, statement, columns),
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    async transaction<T>(work: (tx: Executor) => Promise<T>): Promise<T> {
      const client = await pool.connect();
      // A connection lost while checked out also emits 'error' (pg emits it on an unexpected end
      // even when the query in flight fails with it); unheard, it would end the process.
      const ignore = (): void => undefined;
      client.on('error', ignore);
      let broken = false;
      try {
        await client.query('BEGIN');
        const result = await work(executorOf(client));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => (broken = true));
        throw error;
      } finally {
        client.off('error', ignore);
        // A client whose ROLLBACK failed is gone or unusable: the pool must drop it, not reuse it.
        client.release(broken);
      }
    },
    async ping(): Promise<void> {
      await pool.query('SELECT 1');
    },
    async close(): Promise<void> {
      await pool.end();
    },
  };
}

/** One dedicated connection outside any pool, for session state that must live as long as it does. */
export interface PgSession extends Executor {
  close(): Promise<void>;
}

/**
 * Opens a session (session-level advisory locks are released by the server when it ends, so a
 * pool, which closes idle connections, cannot hold them). `onLost` runs once if the connection
 * ends without `close`.
 */
export async function openPgSession(url: string, onLost: () => void): Promise<PgSession> {
  const client = new pg.Client({ connectionString: url, options: '-c TimeZone=UTC', types });
  let closing = false;
  client.on('error', () => undefined);
  client.once('end', () => closing || onLost());
  await client.connect();
  return {
    ...executorOf(client),
    async close(): Promise<void> {
      closing = true;
      await client.end().catch(() => undefined);
    },
  };
}

/** How the change listener's connection shows in pg_stat_activity (operators, and the tests that cut it). */
export const LISTENER_APPLICATION_NAME = 'wdapi change listener';

/**
 * A dedicated connection listening on `channel` (a pool would hand LISTEN to whichever client it
 * picks, and close it when idle). `onPayload` gets each notification's payload; `onLost` runs once
 * if the connection ends without `close`. TCP keepalive lets the kernel notice a dead peer too.
 */
export async function openPgListener(url: string, channel: string, handlers: { onPayload(payload: string): void; onLost(): void }): Promise<PgSession> {
  const client = new pg.Client({ connectionString: url, application_name: LISTENER_APPLICATION_NAME, keepAlive: true, types });
  let closing = false;
  client.on('error', () => undefined);
  client.once('end', () => closing || handlers.onLost());
  client.on('notification', (message) => {
    if (message.channel === channel) handlers.onPayload(message.payload ?? '');
  });
  try {
    await client.connect();
    await client.query(`LISTEN "${channel.replace(/"/g, '""')}"`);
  } catch (error) {
    closing = true;
    await client.end().catch(() => undefined);
    throw error;
  }
  return {
    ...executorOf(client),
    async close(): Promise<void> {
      closing = true;
      await client.end().catch(() => undefined);
    },
  };
}
