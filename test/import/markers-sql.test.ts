/**
 * The batch-marker table's DDL per dialect (Dialect.createTableIfMissing). PostgreSQL and MariaDB
 * run it for real in the import suites; SQL Server cannot run here, so its text is pinned and
 * the CREATE TABLE inside the IF is syntax-checked.
 */
import { describe, expect, it } from 'vitest';
import { render, sql } from '../../core/sql.ts';
import { createMssqlDialect } from '../../dialects/mssql/index.ts';
import { createMysqlDialect } from '../../dialects/mysql/index.ts';
import { createPostgresDialect } from '../../dialects/postgres/index.ts';
import { parseTsql } from '../dialects/mssql/tsql-parser.ts';

const definition = sql`job_id varchar(36) NOT NULL, batch integer NOT NULL, PRIMARY KEY (job_id, batch)`;

describe('createTableIfMissing', () => {
  it('PostgreSQL and MySQL: CREATE TABLE IF NOT EXISTS in the configured schema', () => {
    const pg = createPostgresDialect();
    expect(render(pg.bind({ vendor: 'postgres', schema: 'sales' }).createTableIfMissing('wdapi_import_batches', definition), pg.sql).text)
      .toBe('CREATE TABLE IF NOT EXISTS "sales"."wdapi_import_batches" (job_id varchar(36) NOT NULL, batch integer NOT NULL, PRIMARY KEY (job_id, batch))');
    const my = createMysqlDialect();
    expect(render(my.bind({ vendor: 'mysql', url: 'mysql://x/db' }).createTableIfMissing('wdapi_import_batches', definition), my.sql).text)
      .toBe('CREATE TABLE IF NOT EXISTS `wdapi_import_batches` (job_id varchar(36) NOT NULL, batch integer NOT NULL, PRIMARY KEY (job_id, batch))');
  });

  it('SQL Server: IF OBJECT_ID(name) IS NULL CREATE TABLE, the name bound as a parameter', () => {
    const ms = createMssqlDialect();
    const compiled = render(ms.bind({ vendor: 'mssql', schema: 'sales' }).createTableIfMissing('wdapi_import_batches', definition), ms.sql);
    expect(compiled.text).toBe("IF OBJECT_ID(@p1, 'U') IS NULL CREATE TABLE [sales].[wdapi_import_batches] (job_id varchar(36) NOT NULL, batch integer NOT NULL, PRIMARY KEY (job_id, batch))");
    expect(compiled.params).toEqual(['[sales].[wdapi_import_batches]']);
    expect(() => parseTsql(compiled.text.replace(/^IF .* IS NULL /, ''))).not.toThrow();
  });
});
