export { createMysqlDialect, mysqlDialect } from './mysql-dialect.ts';
export { createMysqlDriver, type MysqlServerInfo } from './mysql-driver.ts';
export { mapMysqlError } from './mysql-errors.ts';
export { introspectMysql } from './mysql-introspector.ts';
export { mysqlFormula } from './mysql-formula.ts';
