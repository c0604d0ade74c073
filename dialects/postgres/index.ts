export { createPostgresDialect, postgresDialect } from './postgres-dialect.ts';
export { createEmbeddedDriver, createPGliteDriver, EmbeddedDatabase, openPGlite } from './pglite-driver.ts';
export { createPgDriver } from './postgres-driver.ts';
