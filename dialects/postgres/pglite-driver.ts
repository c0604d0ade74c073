import type { PGlite } from '@electric-sql/pglite';
import type { CompiledSql } from '../../core/sql.ts';
import { initialiseOffThread, isInitialised } from './pglite-initdb.ts';
import type { Driver, Executor, QueryResult } from '../dialect.ts';
import { openPGliteWorker, type EmbeddedSession } from './pglite-worker.ts';
import { postgresTextParsers } from './postgres-types.ts';

interface PGliteQueryable {
  query<T>(text: string, params?: unknown[]): Promise<{ rows: T[]; affectedRows?: number }>;
}

/** Opens the embedded database on this thread; `dataDir` undefined means in memory. */
export async function openPGlite(dataDir?: string): Promise<PGlite> {
  // Loaded on first use: the module alone is ~30 MB, the database ~700 MB more.
  const { PGlite } = await import('@electric-sql/pglite');
  if (dataDir && !isInitialised(dataDir)) await initialiseOffThread(dataDir);
  const db = await PGlite.create({ ...(dataDir ? { dataDir } : {}), parsers: postgresTextParsers });
  await db.exec("SET TimeZone = 'UTC'");
  return db;
}

/**
 * PGlite runs a query synchronously on this thread. Chained queries settle as microtasks, so a
 * chain (the start's migrations and demo seed) never let the event loop serve a socket; one turn
 * of the loop before each query does.
 */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

function queryOf(db: PGliteQueryable): EmbeddedSession['query'] {
  return async <T>(text: string, params: readonly unknown[] = []) => {
    await yieldToEventLoop();
    const result = await db.query<T>(text, params as unknown[]);
    return { rows: result.rows, affectedRows: result.affectedRows ?? 0 };
  };
}

/** A PGlite on this thread as an embedded session (tests that open their own, or EMBEDDED_THREAD=in-process). */
export function inProcessSession(db: PGlite): EmbeddedSession {
  return {
    query: queryOf(db),
    async exec(text: string): Promise<void> {
      await yieldToEventLoop();
      await db.exec(text);
    },
    transaction: (work) => db.transaction((tx) => work(queryOf(tx as unknown as PGliteQueryable))),
    close: () => db.close(),
  };
}

function executorOf(query: EmbeddedSession['query']): Executor {
  return {
    query: (statement: CompiledSql): Promise<QueryResult> => query(statement.text, statement.params),
  };
}

/**
 * A driver over the one embedded session. PGlite is a single connection: queries queue, and a
 * transaction holds the session until it ends. Closing is the owner's business.
 */
function sessionDriver(session: () => Promise<EmbeddedSession>): Driver {
  return {
    query: async (statement) => (await session()).query(statement.text, statement.params),
    transaction: async (work) => (await session()).transaction((query) => work(executorOf(query))),
    async ping(): Promise<void> {
      await (await session()).query('SELECT 1');
    },
    // Shared with the control store, which closes it.
    close: async () => undefined,
  };
}

/** A driver over a PGlite its caller opened (and closes) on this thread. */
export function createPGliteDriver(db: PGlite): Driver {
  const session = inProcessSession(db);
  return sessionDriver(async () => session);
}

/**
 * Where the embedded database runs. 'worker': a worker thread (pglite-worker.ts), so opening it
 * and its queries never hold the event loop; what `npm start` uses. 'in-process': this thread.
 */
export type EmbeddedThread = 'worker' | 'in-process';

/**
 * The embedded database, opened on first use: PGlite costs about 700 MB of resident memory, which
 * a service with CONTROL_DATABASE_URL and no embedded workspace should not pay.
 */
export class EmbeddedDatabase {
  private opening: Promise<EmbeddedSession> | undefined;

  constructor(
    private readonly dataDir?: string,
    private readonly thread: EmbeddedThread = 'worker',
  ) {}

  get opened(): boolean {
    return this.opening !== undefined;
  }

  open(): Promise<EmbeddedSession> {
    this.opening ??= this.thread === 'worker' ? openPGliteWorker(this.dataDir) : openPGlite(this.dataDir).then(inProcessSession);
    return this.opening;
  }

  async query<T = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<{ rows: T[] }> {
    return (await this.open()).query<T>(text, params);
  }

  async exec(text: string): Promise<void> {
    await (await this.open()).exec(text);
  }

  async close(): Promise<void> {
    if (this.opening) await (await this.opening).close();
  }
}

/** A driver over the embedded database that opens it on first use. */
export function createEmbeddedDriver(embedded: EmbeddedDatabase): Driver {
  return sessionDriver(() => embedded.open());
}
