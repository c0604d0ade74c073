/**
 * A mysql2 pool against MySQL 8 or MariaDB 10.11 (DESIGN §1).
 *
 * Values handed to core (core/schema/values.ts): DATE as 'YYYY-MM-DD' text, DATETIME and
 * TIMESTAMP as their UTC text 'YYYY-MM-DD HH:MM:SS[.fff]' (sessions run with time_zone '+00:00';
 * core reads zone-less text as UTC), DECIMAL and BIGINT as strings, JSON as its text, tinyint(1)
 * as 0/1 (the introspector calls it 'boolean'). Dates stay text because mysql2 builds Date
 * objects with Date.UTC(year, …), which maps the years 0–99 to 1900–1999.
 *
 * Statements run as server-side prepared statements (`execute`), so values never pass through
 * client-side escaping; the few statements the prepared protocol refuses fall back to `query`.
 *
 * Affected rows: connections are opened WITHOUT the CLIENT_FOUND_ROWS flag, so an
 * INSERT … ON DUPLICATE KEY UPDATE reports 1 per inserted row, 2 per changed row and 0 per row
 * left as it was — unambiguous even for a single row (with FOUND_ROWS an unchanged row counts 1,
 * like an insert). UPDATE statements still report the rows they *matched*, as core expects (an
 * update writing the same values is not a 404): the driver reads "Rows matched: N" from the OK
 * packet's info text, which the server sends for every UPDATE ("mysql_info()" in the C API docs).
 */
import mysql from 'mysql2/promise';
import type { CompiledSql } from '../../core/sql.ts';
import { queryTimeout } from '../../core/errors.ts';
import type { DatabaseConfig, Driver, Executor, PoolStats, QueryOptions, RowBatches } from '../dialect.ts';
import { acquireUnlessAbandoned, whileRunning } from '../abandoned.ts';
import { mapMysqlError } from './mysql-errors.ts';
import type { MysqlExecutor, MysqlQueryResult, MysqlServerInfo } from './mysql-executor.ts';

export type { MysqlExecutor, MysqlQueryResult, MysqlServerInfo } from './mysql-executor.ts';

/** ER_UNSUPPORTED_PS: "This command is not supported in the prepared statement protocol yet". */
const ER_UNSUPPORTED_PS = 1295;

/**
 * Per session: UTC, strict mode (a too-long string is an error, not a silent truncation), and
 * backslash as the string escape character (the LIKE emission writes ESCAPE '\\').
 */
const SESSION_SETUP = `SET SESSION time_zone = '+00:00',
  SESSION sql_mode = TRIM(BOTH ',' FROM CONCAT(
    REPLACE(CONCAT(',', @@SESSION.sql_mode, ','), ',NO_BACKSLASH_ESCAPES,', ','),
    IF(@@SESSION.sql_mode LIKE '%STRICT_%', '', 'STRICT_TRANS_TABLES')))`;

type PoolConnection = mysql.PoolConnection;
type Raw = mysql.RowDataPacket[] | mysql.ResultSetHeader | unknown;

interface ErrorWithErrno {
  errno?: unknown;
}

function toResult(raw: Raw): MysqlQueryResult {
  if (Array.isArray(raw)) return { rows: raw as Record<string, unknown>[], affectedRows: 0, insertId: 0n, info: '' };
  const header = (raw ?? {}) as Partial<mysql.ResultSetHeader>;
  const info = typeof header.info === 'string' ? header.info : '';
  const matched = /Rows matched:\s*(\d+)/i.exec(info);
  return {
    rows: [],
    affectedRows: matched ? Number(matched[1]) : Number(header.affectedRows ?? 0),
    // bigNumberStrings: an id beyond 2^53 arrives as text.
    insertId: BigInt(header.insertId ?? 0),
    info,
  };
}

async function run(conn: PoolConnection, statement: CompiledSql): Promise<MysqlQueryResult> {
  const params = statement.params as unknown[];
  try {
    const [raw] = await conn.execute(statement.text, params as never);
    return toResult(raw);
  } catch (error) {
    if ((error as ErrorWithErrno).errno !== ER_UNSUPPORTED_PS) throw error;
    const [raw] = await conn.query(statement.text, params);
    return toResult(raw);
  }
}

/**
 * mysql2's row stream of a prepared statement (the binary protocol, as `run` uses: the text
 * protocol prints a FLOAT with 6 digits). The connection's socket is paused while the consumer
 * holds a full batch, so the server waits. A stream left before its end is killed on the server
 * (`KILL QUERY` from another connection) and its connection destroyed, since it still holds the
 * rest of the result.
 */
async function* streamRows(conn: PoolConnection, kill: Killer, statement: CompiledSql, batchRows: number, signal: AbortSignal | undefined, restore: (conn: PoolConnection) => Promise<boolean>): RowBatches {
  // Gone while the consumer is not pulling (backpressure): the statement is killed and the socket closed at once.
  const stop = whileRunning(signal, () => void kill(conn).finally(() => conn.destroy()));
  const core = conn.connection as unknown as { execute(options: object, values: unknown[]): { stream(options: object): AsyncIterable<Record<string, unknown>> } };
  const rows = core.execute({ sql: statement.text }, statement.params as unknown[]).stream({ highWaterMark: batchRows });
  let finished = false;
  try {
    let batch: Record<string, unknown>[] = [];
    for await (const row of rows) {
      batch.push(row);
      if (batch.length < batchRows) continue;
      yield batch;
      batch = [];
    }
    if (batch.length > 0) yield batch;
    finished = true;
  } finally {
    stop();
    if (finished && (await restore(conn))) conn.release();
    else if (finished) conn.destroy();
    else {
      await kill(conn);
      conn.destroy();
    }
  }
}

/** Ends a connection's session on the server, whatever it runs; never fails. */
type Killer = (conn: PoolConnection) => Promise<void>;

/**
 * `KILL <thread id>` from a connection of its own, outside the pool: when every pooled
 * connection is busy (ten exports cut at once) a kill that waited for one would never run, and
 * the connections it should free would be held for good. The whole session rather than
 * `KILL QUERY`: a statement still being prepared when the kill lands would then run to its end
 * (the kill stops only what runs at that instant), and the abandoned connection is dropped anyway.
 */
function killer(uri: string): Killer {
  return async (conn) => {
    const admin = await mysql.createConnection({ uri }).catch(() => null);
    if (!admin) return;
    await admin.query('KILL ?', [conn.threadId]).catch(() => undefined);
    await admin.end().catch(() => admin.destroy());
  };
}

/** The session's statement time limit: MariaDB's max_statement_time (seconds), MySQL's max_execution_time (ms, SELECTs only). */
async function limitSession(conn: PoolConnection, ms: number): Promise<void> {
  try {
    await conn.query('SET SESSION max_statement_time = ?', [ms / 1000]);
  } catch {
    await conn.query('SET SESSION max_execution_time = ?', [ms]);
  }
}

function timedOut(error: unknown, setting: string, ms: number | undefined): unknown {
  return mapMysqlError(error)?.kind === 'statement_timeout' ? queryTimeout(setting, ms, error) : error;
}

function parseVersion(version: string): [number, number, number] {
  const [major = 0, minor = 0, patch = 0] = (/^(\d+)\.(\d+)\.(\d+)/.exec(version) ?? []).slice(1).map(Number);
  return [major, minor, patch];
}

async function readServerInfo(conn: PoolConnection): Promise<MysqlServerInfo> {
  const [rows] = await conn.query('SELECT VERSION() AS version, @@auto_increment_increment AS step');
  const row = (rows as Record<string, unknown>[])[0] ?? {};
  const version = String(row.version ?? '');
  return {
    version,
    mariadb: /mariadb/i.test(version),
    versionNumbers: parseVersion(version),
    autoIncrementIncrement: Math.max(1, Number(row.step ?? 1)),
  };
}

/** Pool options: see mysql2's "Using connection pools" and the typeCast/dateStrings notes. */
function poolOptions(config: DatabaseConfig): mysql.PoolOptions {
  if (!config.url) throw new Error('a mysql workspace needs database.url (mysql://user:pass@host:3306/db)');
  return {
    uri: config.url,
    connectionLimit: config.poolSize ?? 10,
    charset: 'utf8mb4_unicode_ci',
    timezone: 'Z',
    dateStrings: true,
    supportBigNumbers: true,
    bigNumberStrings: true,
    decimalNumbers: false,
    jsonStrings: true,
    flags: ['-FOUND_ROWS'],
    // Prepared statements are cached per connection; the server caps them globally
    // (max_prepared_stmt_count, 16382 by default), so each connection keeps few.
    maxPreparedStatements: 256,
    enableKeepAlive: true,
  };
}

/** The queues mysql2's pool keeps (lib/base/pool.js); they are not documented, hence read defensively. */
interface PoolQueues {
  readonly _allConnections?: { readonly length: number };
  readonly _freeConnections?: { readonly length: number };
  readonly _connectionQueue?: { readonly length: number };
}

/** Total, idle and waiting from the pool's own queues; undefined when a mysql2 release renamed them. */
function poolStatsOf(pool: mysql.Pool): (() => PoolStats) | undefined {
  const queues = (pool as unknown as { pool?: PoolQueues }).pool;
  const { _allConnections: all, _freeConnections: free, _connectionQueue: queued } = queues ?? {};
  if (!all || !free || !queued) return undefined;
  return () => ({ total: all.length, idle: free.length, waiting: queued.length });
}

export function createMysqlDriver(config: DatabaseConfig): Driver & MysqlExecutor {
  const pool = mysql.createPool(poolOptions(config));
  // An idle connection losing its server must not crash the process; the pool replaces it.
  pool.on('connection', (conn) => conn.on('error', () => undefined));
  const prepared = new WeakSet<object>();
  let serverInfo: Promise<MysqlServerInfo> | undefined;

  const kill = killer(config.url ?? '');
  const limitMs = config.statementTimeoutMs;
  const exportMs = config.exportStatementTimeoutMs ?? limitMs;

  async function acquire(signal?: AbortSignal): Promise<PoolConnection> {
    const conn = signal ? await acquireUnlessAbandoned(() => pool.getConnection(), (c) => c.release(), signal) : await pool.getConnection();
    const core = conn.connection as unknown as object;
    if (prepared.has(core)) return conn;
    try {
      await conn.query(SESSION_SETUP);
      if (limitMs) await limitSession(conn, limitMs);
      prepared.add(core);
      return conn;
    } catch (error) {
      conn.destroy();
      throw error;
    }
  }

  async function withConnection<T>(work: (conn: PoolConnection) => Promise<T>, signal?: AbortSignal): Promise<T> {
    const conn = await acquire(signal);
    const stop = whileRunning(signal, () => void kill(conn));
    try {
      return await work(conn);
    } catch (error) {
      throw timedOut(error, 'STATEMENT_TIMEOUT_MS', limitMs);
    } finally {
      stop();
      // A killed session is gone: the pool must not hand it out again.
      if (signal?.aborted) conn.destroy();
      else conn.release();
    }
  }

  /** The session's own limit again before an export's connection goes back to the pool; false: drop it. */
  const restoreLimit = (conn: PoolConnection): Promise<boolean> =>
    exportMs !== limitMs && limitMs ? limitSession(conn, limitMs).then(() => true, () => false) : Promise.resolve(true);

  /** A pooled connection for one export, under the export's limit while it streams. */
  async function exportConnection(signal: AbortSignal | undefined): Promise<PoolConnection> {
    const conn = await acquire(signal);
    if (!exportMs || exportMs === limitMs) return conn;
    try {
      await limitSession(conn, exportMs);
      return conn;
    } catch (error) {
      conn.destroy();
      throw error;
    }
  }

  const server = (): Promise<MysqlServerInfo> => {
    serverInfo ??= withConnection(readServerInfo).catch((error: unknown) => {
      serverInfo = undefined;
      throw error;
    });
    return serverInfo;
  };

  const poolStats = poolStatsOf(pool);
  return {
    ...(poolStats ? { poolStats } : {}),
    query: (statement: CompiledSql, options?: QueryOptions) => withConnection((conn) => run(conn, statement), options?.signal),
    async *stream(statement: CompiledSql, batchRows: number, options?: QueryOptions): RowBatches {
      const conn = await exportConnection(options?.signal);
      try {
        yield* streamRows(conn, kill, statement, batchRows, options?.signal, restoreLimit);
      } catch (error) {
        throw timedOut(error, 'EXPORT_STATEMENT_TIMEOUT_MS', exportMs);
      }
    },
    server,
    async transaction<T>(work: (tx: Executor) => Promise<T>): Promise<T> {
      const conn = await acquire();
      const tx: MysqlExecutor = { query: (statement) => run(conn, statement), server };
      try {
        await conn.beginTransaction();
        const result = await work(tx);
        await conn.commit();
        conn.release();
        return result;
      } catch (error) {
        try {
          await conn.rollback();
          conn.release();
        } catch {
          // The connection is gone or unusable: never hand it back to the pool.
          conn.destroy();
        }
        throw error;
      }
    },
    async ping(): Promise<void> {
      await withConnection((conn) => conn.query('SELECT 1'));
    },
    async close(): Promise<void> {
      await pool.end();
    },
  };
}
