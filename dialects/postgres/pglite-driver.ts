import { PGlite } from '@electric-sql/pglite';
import type { CompiledSql } from '../../core/sql.ts';
import type { Driver, Executor, QueryResult } from '../dialect.ts';
import { postgresTextParsers } from './postgres-types.ts';

interface PGliteQueryable {
  query<T>(text: string, params?: unknown[]): Promise<{ rows: T[]; affectedRows?: number }>;
}

/** Opens the embedded database; `dataDir` undefined means in memory. */
export async function openPGlite(dataDir?: string): Promise<PGlite> {
  const db = await PGlite.create({ ...(dataDir ? { dataDir } : {}), parsers: postgresTextParsers });
  await db.exec("SET TimeZone = 'UTC'");
  return db;
}

function executorOf(db: PGliteQueryable): Executor {
  return {
    async query(statement: CompiledSql): Promise<QueryResult> {
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
