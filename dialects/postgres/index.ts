export { createPostgresDialect, postgresDialect } from './postgres-dialect.ts';
export { createEmbeddedDriver, createPGliteDriver, EmbeddedDatabase, openPGlite, type EmbeddedThread } from './pglite-driver.ts';
export { createPgDriver, LISTENER_APPLICATION_NAME, openPgListener, openPgSession, type PgSession } from './postgres-driver.ts';
// The plugin surface the conformance kit loads (npm run conformance -- --dialect dialects/postgres/index.ts).
export { postgresDialect as dialect } from './postgres-dialect.ts';
export { postgresConformance as conformance } from './postgres-conformance.ts';
