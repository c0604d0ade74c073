/**
 * Each vendor's timeout error maps to `statement_timeout` (503 QUERY_TIMEOUT), and what merely
 * looks like it does not. The errors are the shapes the drivers throw (no SQL Server runs here).
 */
import { describe, expect, it } from 'vitest';
import { mapPostgresError } from '../../dialects/postgres/postgres-errors.ts';
import { mapMysqlError } from '../../dialects/mysql/mysql-errors.ts';
import { mapMssqlError } from '../../dialects/mssql/mssql-errors.ts';

describe('statement timeout errors', () => {
  it('PostgreSQL: 57014 from statement_timeout, not from a cancel request', () => {
    expect(mapPostgresError({ code: '57014', message: 'canceling statement due to statement timeout' })?.kind).toBe('statement_timeout');
    expect(mapPostgresError({ code: '57014', message: 'canceling statement due to user request' })).toBeNull();
  });

  it('MariaDB 1969 and MySQL 3024', () => {
    expect(mapMysqlError({ errno: 1969, message: 'Query execution was interrupted (max_statement_time exceeded)' })?.kind).toBe('statement_timeout');
    expect(mapMysqlError({ errno: 3024, message: 'Query execution was interrupted, maximum statement execution time exceeded' })?.kind).toBe('statement_timeout');
  });

  it('SQL Server: a RequestError ETIMEOUT is the request timeout, a ConnectionError ETIMEOUT a lost connection', () => {
    expect(mapMssqlError({ name: 'RequestError', code: 'ETIMEOUT', message: 'Timeout: Request failed to complete in 15000ms' })?.kind).toBe('statement_timeout');
    expect(mapMssqlError({ name: 'ConnectionError', code: 'ETIMEOUT', message: 'Failed to connect in 15000ms' })?.kind).toBe('connection_lost');
  });
});
