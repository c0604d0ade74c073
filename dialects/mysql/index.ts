export { createMysqlDialect, mysqlDialect } from './mysql-dialect.ts';
export type { MysqlServerInfo } from './mysql-executor.ts';
export { mapMysqlError } from './mysql-errors.ts';
export { introspectMysql } from './mysql-introspector.ts';
export { mysqlFormula } from './mysql-formula.ts';
// The plugin surface the conformance kit loads (npm run conformance -- --dialect dialects/mysql/index.ts).
export { mysqlDialect as dialect } from './mysql-dialect.ts';
export { mysqlConformance as conformance } from './mysql-conformance.ts';
