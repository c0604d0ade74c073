import pg from 'pg';
import type { CompiledSql } from '../../core/sql.ts';
import type { DatabaseConfig, Driver, Executor, QueryResult } from '../dialect.ts';
import { postgresTextParsers } from './postgres-types.ts';

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

function executorOf(client: pg.Pool | pg.PoolClient): Executor {
  return {
    async query(statement: CompiledSql): Promise<QueryResult> {
      return toResult(await client.query({ text: statement.text, values: statement.params as unknown[] }));
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
  });
  // An idle client losing its server must not crash the process; the next query reconnects.
  pool.on('error', () => undefined);
  const executor = executorOf(pool);
  return {
    query: executor.query,
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
