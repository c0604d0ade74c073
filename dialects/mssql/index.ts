export { createMssqlDialect, mssqlDialect } from './mssql-dialect.ts';
export { mapMssqlError } from './mssql-errors.ts';
export { mssqlFormula } from './mssql-formula.ts';
export { introspectMssql } from './mssql-introspector.ts';
