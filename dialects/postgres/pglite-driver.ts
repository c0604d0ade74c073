import type { PGlite } from '@electric-sql/pglite';
import type { CompiledSql } from '../../core/sql.ts';
import { initialiseOffThread, isInitialised } from './pglite-initdb.ts';
import type { Driver, Executor, QueryResult } from '../dialect.ts';
import { postgresTextParsers } from './postgres-types.ts';

interface PGliteQueryable {
  query<T>(text: string, params?: unknown[]): Promise<{ rows: T[]; affectedRows?: number }>;
}

/** Opens the embedded database; `dataDir` undefined means in memory. */
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

function executorOf(db: PGliteQueryable): Executor {
  return {
    async query(statement: CompiledSql): Promise<QueryResult> {
      await yieldToEventLoop();
      const result = await db.query<Record<string, unknown>>(statement.text, statement.params as unknown[]);
      return { rows: result.rows, affectedRows: result.affectedRows ?? 0 };
    },
  };
}

/**
 * A driver over a shared PGlite instance. PGlite is a single connection: queries queue,
 * and a transaction holds the connection until it ends. Closing is the owner's business.
 */
export function createPGliteDriver(db: PGlite): Driver {
  const executor = executorOf(db);
  return {
    query: executor.query,
    transaction<T>(work: (tx: Executor) => Promise<T>): Promise<T> {
      return db.transaction((tx) => work(executorOf(tx as unknown as PGliteQueryable)));
    },
    async ping(): Promise<void> {
      await db.query('SELECT 1');
    },
    async close(): Promise<void> {
      // Shared with the control store, which closes it.
    },
  };
}

/**
 * The embedded database, opened on first use: PGlite costs about 700 MB of resident memory, which
 * a service with CONTROL_DATABASE_URL and no embedded workspace should not pay.
 */
export class EmbeddedDatabase {
  private opening: Promise<PGlite> | undefined;

  constructor(private readonly dataDir?: string) {}

  get opened(): boolean {
    return this.opening !== undefined;
  }

  open(): Promise<PGlite> {
    this.opening ??= openPGlite(this.dataDir);
    return this.opening;
  }

  async query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<{ rows: T[] }> {
    const db = await this.open();
    await yieldToEventLoop();
    return db.query<T>(text, params);
  }

  async exec(text: string): Promise<void> {
    const db = await this.open();
    await yieldToEventLoop();
    await db.exec(text);
  }

  async close(): Promise<void> {
    if (this.opening) await (await this.opening).close();
  }
}

/** A driver over the embedded database that opens it on first use. */
export function createEmbeddedDriver(embedded: EmbeddedDatabase): Driver {
  const driver = async (): Promise<Driver> => createPGliteDriver(await embedded.open());
  return {
    query: async (statement) => (await driver()).query(statement),
    transaction: async (work) => (await driver()).transaction(work),
    ping: async () => (await driver()).ping(),
    close: async () => undefined,
  };
}
