export { createPostgresDialect, postgresDialect } from './postgres-dialect.ts';
export { createPGliteDriver, openPGlite } from './pglite-driver.ts';
export { createPgDriver } from './postgres-driver.ts';
