/**
 * What the MySQL dialect knows of its executors, apart from the driver module so that mysql2
 * is loaded only when a MySQL workspace connects.
 */
import type { CompiledSql } from '../../core/sql.ts';
import type { Executor, QueryResult } from '../dialect.ts';

/** What the dialect needs to know about the server, read once per pool. */
export interface MysqlServerInfo {
  readonly version: string;
  readonly mariadb: boolean;
  /** [major, minor, patch] of the server version. */
  readonly versionNumbers: readonly [number, number, number];
  /** @@auto_increment_increment: the step between ids of one multi-row insert. */
  readonly autoIncrementIncrement: number;
}

export interface MysqlQueryResult extends QueryResult {
  /** First generated AUTO_INCREMENT value of the statement (0 when none). */
  readonly insertId: bigint;
  /** The OK packet's info text: "Records: 3  Duplicates: 1  Warnings: 0", "Rows matched: …". */
  readonly info: string;
}

/** An executor of this driver: results carry insertId and info, and it knows its server. */
export interface MysqlExecutor extends Executor {
  query(statement: CompiledSql): Promise<MysqlQueryResult>;
  server(): Promise<MysqlServerInfo>;
}

export function isMysqlExecutor(db: Executor): db is MysqlExecutor {
  return typeof (db as Partial<MysqlExecutor>).server === 'function';
}
