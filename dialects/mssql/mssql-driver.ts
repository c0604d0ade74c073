/**
 * A `mssql` (tedious) ConnectionPool against SQL Server 2016+ (DESIGN §1).
 *
 * Values handed to core (core/schema/values.ts): datetime2/datetime as Dates read as UTC
 * (tedious `useUTC`, the default), datetimeoffset as the instant, date as a Date at UTC
 * midnight, bigint as a string (tedious never loses its digits), decimal as a number, bit as a
 * boolean. Two types are normalised here from the result's column metadata: uniqueidentifier
 * arrives upper case and is lowered (PostgreSQL prints uuids in lower case), and time arrives as
 * a Date on 1970-01-01 and becomes 'HH:MM:SS[.fff]'.
 *
 * Parameters are named `@p1…` (the dialect's placeholders) and typed from their JS value, with
 * two departures from mssql's defaults: numbers outside int32 (or with a fraction) bind as
 * float (mssql would pick bigint for 1e300 and fail), and Dates bind as datetime2 (mssql's
 * default, datetime, rounds to 1/300 s).
 */
import sql from 'mssql';
import type { CompiledSql } from '../../core/sql.ts';
import type { DatabaseConfig, Driver, Executor, PoolStats, QueryOptions, QueryResult, RowBatches } from '../dialect.ts';
import { whileRunning } from '../abandoned.ts';

type Row = Record<string, unknown>;

/** `mssql://user:pass@host:1433/db?encrypt=false&trustServerCertificate=true` or an ADO.NET connection string. */
export function mssqlConfig(config: DatabaseConfig): sql.config {
  const url = config.url;
  if (!url) throw new Error('an mssql workspace needs database.url (mssql://user:pass@host:1433/db)');
  const pool = { max: config.poolSize ?? 10, min: 0, idleTimeoutMillis: 30_000 };
  if (!/^(mssql|sqlserver):\/\//i.test(url)) {
    const parsed = sql.ConnectionPool.parseConnectionString(url) as sql.config;
    return { ...parsed, pool: { ...(parsed.pool ?? {}), ...pool } };
  }
  const parsed = new URL(url);
  const query = parsed.searchParams;
  const flag = (name: string, fallback: boolean): boolean => {
    const value = query.get(name);
    return value === null ? fallback : /^(1|true|yes)$/i.test(value);
  };
  const instanceName = query.get('instanceName');
  const database = decodeURIComponent(parsed.pathname.replace(/^\//, ''));
  return {
    server: decodeURIComponent(parsed.hostname),
    ...(parsed.port ? { port: Number(parsed.port) } : {}),
    ...(parsed.username ? { user: decodeURIComponent(parsed.username) } : {}),
    ...(parsed.password ? { password: decodeURIComponent(parsed.password) } : {}),
    ...(database ? { database } : {}),
    pool,
    // STATEMENT_TIMEOUT_MS unless the URL names its own; past it tedious fails the request with ETIMEOUT.
    requestTimeout: Number(query.get('requestTimeout') ?? config.statementTimeoutMs ?? 30_000),
    connectionTimeout: Number(query.get('connectTimeout') ?? 15_000),
    options: {
      // tedious encrypts by default; a local server with a self-signed certificate needs
      // trustServerCertificate=true (or encrypt=false) in the URL.
      encrypt: flag('encrypt', true),
      trustServerCertificate: flag('trustServerCertificate', false),
      useUTC: true,
      ...(instanceName ? { instanceName } : {}),
    },
  };
}

const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;
const NVARCHAR_MAX_LENGTH = 4000;

/** The mssql type a parameter value binds as (see the header comment). */
export function parameterType(value: unknown): sql.ISqlType {
  if (value === null || value === undefined) return sql.NVarChar(NVARCHAR_MAX_LENGTH);
  if (typeof value === 'boolean') return sql.Bit();
  if (typeof value === 'bigint') return sql.BigInt();
  if (typeof value === 'number') return Number.isInteger(value) && value >= INT32_MIN && value <= INT32_MAX ? sql.Int() : sql.Float();
  if (value instanceof Date) return sql.DateTime2(3);
  if (Buffer.isBuffer(value)) return sql.VarBinary(sql.MAX);
  // nvarchar(4000) rather than tedious' nvarchar(<length of this value>), so that statements
  // differing only in a string's length share one cached plan.
  return typeof value === 'string' && value.length > NVARCHAR_MAX_LENGTH ? sql.NVarChar(sql.MAX) : sql.NVarChar(NVARCHAR_MAX_LENGTH);
}

function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0');
}

function timeText(value: Date): string {
  const ms = value.getUTCMilliseconds();
  return `${pad(value.getUTCHours())}:${pad(value.getUTCMinutes())}:${pad(value.getUTCSeconds())}${ms ? `.${pad(ms, 3)}` : ''}`;
}

/** Lower-cases uniqueidentifiers and prints time columns, using the recordset's column types. */
function normaliseRows(recordset: sql.IRecordSet<Row> | undefined): Row[] {
  if (!recordset) return [];
  return normaliseWith(recordset.columns, recordset);
}

function normaliseWith(metadata: sql.IColumnMetadata | undefined, recordset: Row[]): Row[] {
  const columns = Object.values(metadata ?? {});
  const uuids = columns.filter((c) => c.type === sql.UniqueIdentifier).map((c) => c.name);
  const times = columns.filter((c) => c.type === sql.Time).map((c) => c.name);
  if (uuids.length === 0 && times.length === 0) return recordset;
  for (const row of recordset) {
    for (const name of uuids) if (typeof row[name] === 'string') row[name] = (row[name] as string).toLowerCase();
    for (const name of times) if (row[name] instanceof Date) row[name] = timeText(row[name] as Date);
  }
  return recordset;
}

export function bindParameters(request: sql.Request, params: readonly unknown[]): void {
  params.forEach((value, i) => {
    request.input(`p${i + 1}`, parameterType(value), value === undefined ? null : value);
  });
}

async function run(request: sql.Request, statement: CompiledSql): Promise<QueryResult> {
  bindParameters(request, statement.params);
  const result = await request.query<Row>(statement.text);
  return {
    rows: normaliseRows(result.recordset),
    affectedRows: (result.rowsAffected ?? []).reduce((sum, n) => sum + n, 0),
  };
}

/** What a streaming request has delivered so far; the generator below consumes it. */
interface StreamState {
  rows: Row[];
  columns?: sql.IColumnMetadata;
  done: boolean;
  failure?: unknown;
  wake?: () => void;
}

function listen(request: sql.Request, state: StreamState, batchRows: number): void {
  const notify = (): void => {
    const wake = state.wake;
    state.wake = undefined;
    wake?.();
  };
  request.on('recordset', (columns: sql.IColumnMetadata) => (state.columns = columns));
  request.on('row', (row: Row) => {
    state.rows.push(row);
    // Backpressure: tedious stops reading the socket until the consumer takes the batch.
    if (state.rows.length >= batchRows) request.pause();
    notify();
  });
  request.on('error', (error: unknown) => {
    state.failure ??= error;
    notify();
  });
  request.on('done', () => {
    state.done = true;
    notify();
  });
}

/**
 * mssql's streaming mode (`request.stream = true`): rows arrive as events, paused at each full
 * batch. A stream left before its end cancels the request (an attention signal to the server).
 */
export async function* streamRows(request: sql.Request, statement: CompiledSql, batchRows: number): RowBatches {
  const state: StreamState = { rows: [], done: false };
  request.stream = true;
  bindParameters(request, statement.params);
  listen(request, state, batchRows);
  // The callback form: in streaming mode errors and the end come as events, never as a rejection.
  request.query(statement.text, () => undefined);
  try {
    for (;;) {
      if (state.failure !== undefined) throw state.failure;
      if (state.rows.length >= batchRows || (state.done && state.rows.length > 0)) {
        const batch = state.rows.splice(0, batchRows);
        request.resume();
        yield normaliseWith(state.columns, batch);
      } else if (state.done) return;
      else await new Promise<void>((resolve) => (state.wake = resolve));
    }
  } finally {
    if (!state.done) request.cancel();
  }
}

/**
 * A transaction's requests share one connection and must not overlap (mssql refuses a second
 * request while one is in progress, EREQINPROG), so they are queued.
 */
function transactionExecutor(transaction: sql.Transaction): Executor {
  let tail: Promise<unknown> = Promise.resolve();
  return {
    query(statement: CompiledSql): Promise<QueryResult> {
      const next = tail.then(() => run(new sql.Request(transaction), statement));
      tail = next.catch(() => undefined);
      return next;
    },
  };
}

export function createMssqlDriver(config: DatabaseConfig): Driver {
  const pool = new sql.ConnectionPool(mssqlConfig(config));
  // A connection dropping while idle must not crash the process; the pool replaces it.
  pool.on('error', () => undefined);
  let connecting: Promise<sql.ConnectionPool> | undefined;

  const ready = (): Promise<sql.ConnectionPool> => {
    if (pool.connected) return Promise.resolve(pool);
    connecting ??= pool.connect().catch((error: unknown) => {
      connecting = undefined;
      throw error;
    });
    return connecting;
  };

  return {
    // mssql's documented pool counters; its tarn pool exists only once connected.
    poolStats: (): PoolStats => (pool.connected ? { total: pool.size, idle: pool.available, waiting: pool.pending } : { total: 0, idle: 0, waiting: 0 }),
    async query(statement: CompiledSql, options?: QueryOptions): Promise<QueryResult> {
      const request = (await ready()).request();
      // A client gone: the request is cancelled on the server (an attention signal), and rejects.
      const stop = whileRunning(options?.signal, () => request.cancel());
      try {
        return await run(request, statement);
      } finally {
        stop();
      }
    },
    async *stream(statement: CompiledSql, batchRows: number): RowBatches {
      yield* streamRows((await ready()).request(), statement, batchRows);
    },
    async transaction<T>(work: (tx: Executor) => Promise<T>): Promise<T> {
      const transaction = new sql.Transaction(await ready());
      await transaction.begin();
      try {
        const result = await work(transactionExecutor(transaction));
        await transaction.commit();
        return result;
      } catch (error) {
        // Some errors (deadlock victim, XACT_ABORT) end the transaction on the server already;
        // rolling back then fails with EABORT/ENOTBEGUN, which says nothing new.
        await transaction.rollback().catch(() => undefined);
        throw error;
      }
    },
    async ping(): Promise<void> {
      await (await ready()).request().query('SELECT 1 AS ok');
    },
    async close(): Promise<void> {
      await pool.close();
    },
  };
}
