import pg from 'pg';
import type { CompiledSql } from '../../core/sql.ts';
import type { DatabaseConfig, Driver, Executor, QueryOptions, QueryResult } from '../dialect.ts';
import { acquireUnlessAbandoned, whileRunning } from '../abandoned.ts';
import { cancelRunning } from './postgres-cancel.ts';
import { copyCsv } from './postgres-copy.ts';
import type { ExportRun } from './export-session.ts';
import { NO_LIMIT, timedOut, type TimeLimit } from './postgres-time-limit.ts';
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

/** One statement on `client`, cancelled on the server if `signal` aborts while it runs. */
async function queryOn(client: pg.ClientBase, statement: CompiledSql, signal: AbortSignal | undefined): Promise<pg.QueryResult> {
  const stop = whileRunning(signal, () => cancelRunning(client));
  try {
    return await client.query(statement.text, statement.params as unknown[]);
  } finally {
    stop();
  }
}

/** A statement that may be abandoned: its own pooled client, so that it can be cancelled alone. */
async function queryAbandonable(pool: pg.Pool, statement: CompiledSql, signal: AbortSignal): Promise<pg.QueryResult> {
  const client = await acquireUnlessAbandoned(() => pool.connect(), (c) => c.release(), signal);
  try {
    return await queryOn(client, statement, signal);
  } finally {
    client.release();
  }
}

function executorOf(client: pg.Pool | pg.ClientBase, limit: TimeLimit = NO_LIMIT): Executor {
  return {
    async query(statement: CompiledSql, options?: QueryOptions): Promise<QueryResult> {
      const signal = options?.signal;
      try {
        if (!signal) {
          // (text, values) rather than a config object, which pg copies property by property per query.
          return toResult(await client.query(statement.text, statement.params as unknown[]));
        }
        return toResult(client instanceof pg.Pool ? await queryAbandonable(client, statement, signal) : await queryOn(client, statement, signal));
      } catch (error) {
        throw timedOut(error, limit);
      }
    },
  };
}

/** Session options: UTC (DESIGN §4) and the statement time limit, a checked integer from the config. */
function sessionOptions(config: DatabaseConfig): string {
  return config.statementTimeoutMs ? `-c TimeZone=UTC -c statement_timeout=${config.statementTimeoutMs}` : '-c TimeZone=UTC';
}

/** A `pg` Pool against a real PostgreSQL server. Sessions run in UTC (DESIGN §4). */
export function createPgDriver(config: DatabaseConfig): Driver {
  const pool = new pg.Pool({
    connectionString: config.url,
    max: config.poolSize ?? 10,
    options: sessionOptions(config),
    types,
    // Sockets whose reads the COPY export can take into reused buffers (read-sink-socket.ts).
    stream: pgStream,
  });
  // An idle client losing its server must not crash the process; the next query reconnects.
  pool.on('error', () => undefined);
  const limit: TimeLimit = { setting: 'STATEMENT_TIMEOUT_MS', ms: config.statementTimeoutMs };
  const exportLimit: TimeLimit = config.exportStatementTimeoutMs ? { setting: 'EXPORT_STATEMENT_TIMEOUT_MS', ms: config.exportStatementTimeoutMs } : limit;
  const executor = executorOf(pool, limit);
  const ownTimeoutMs = config.exportStatementTimeoutMs !== config.statementTimeoutMs ? config.exportStatementTimeoutMs : undefined;
  const exportRun = (options: QueryOptions | undefined): ExportRun => ({ limit: exportLimit, ownTimeoutMs, signal: options?.signal });
  return {
    query: executor.query,
    stream: (statement, batchRows, options) => streamedRows(pool, types, statement, batchRows, exportRun(options)),
    csvCopy: (statement, columns, options) => copyCsv(pool, statement, columns, exportRun(options)),
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
        const result = await work(executorOf(client, limit));
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
