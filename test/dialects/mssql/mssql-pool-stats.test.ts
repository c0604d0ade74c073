/**
 * The SQL Server pool gauge (Driver.poolStats, DESIGN §16) without a server: before the pool has
 * connected it reports an empty pool instead of reading counters mssql has not created yet, and
 * asking does not open a connection. The counters of a connected pool run in the live suite only
 * (MSSQL_URL).
 */
import { describe, expect, it } from 'vitest';
import { createMssqlDriver } from '../../../dialects/mssql/mssql-driver.ts';

describe('SQL Server pool gauge', () => {
  it('reports an empty pool before the first connection, without connecting', async () => {
    // Port 9 (discard) on loopback: nothing of SQL Server answers there, so a connect would fail.
    const driver = createMssqlDriver({ vendor: 'mssql', url: 'mssql://sa:unused@127.0.0.1:9/none' });
    expect(driver.poolStats?.()).toEqual({ total: 0, idle: 0, waiting: 0 });
    await driver.close();
  });
});
