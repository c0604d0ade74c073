export { createMysqlDialect, mysqlDialect } from './mysql-dialect.ts';
export type { MysqlServerInfo } from './mysql-executor.ts';
export { mapMysqlError } from './mysql-errors.ts';
export { introspectMysql } from './mysql-introspector.ts';
export { mysqlFormula } from './mysql-formula.ts';
