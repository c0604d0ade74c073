export { createPostgresDialect, postgresDialect } from './postgres-dialect.ts';
export { createEmbeddedDriver, createPGliteDriver, EmbeddedDatabase, openPGlite } from './pglite-driver.ts';
export { createPgDriver, openPgSession, type PgSession } from './postgres-driver.ts';
