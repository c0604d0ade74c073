/**
 * Holds a table of a PostgreSQL workspace database locked from outside the service, so that every
 * statement of the service that reads it waits: requests that stay in flight for as long as the
 * test wants, each holding one of the workspace's pooled connections.
 */
import pg from 'pg';

export interface TableLock {
  /** Statements of other sessions waiting for the lock. */
  waiting(): Promise<number>;
  release(): Promise<void>;
}

export async function lockTable(url: string, table: string): Promise<TableLock> {
  const client = new pg.Client({ connectionString: url });
  // The workspace database is dropped at the end of a test, maybe before a failed test let go.
  client.on('error', () => undefined);
  await client.connect();
  await client.query('BEGIN');
  await client.query(`LOCK TABLE ${table} IN ACCESS EXCLUSIVE MODE`);
  let released = false;
  return {
    async waiting() {
      // Inside a transaction the activity view is read once and kept: drop that snapshot first.
      await client.query('SELECT pg_stat_clear_snapshot()');
      const rows = await client.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database() AND pid <> pg_backend_pid()`);
      return Number(rows.rows[0]?.n ?? 0);
    },
    async release() {
      if (released) return;
      released = true;
      await client.query('COMMIT');
      await client.end();
    },
  };
}
