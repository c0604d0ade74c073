import { ApiError } from '../core/errors.ts';
import type { Dialect, DialectRegistry } from '../dialects/dialect.ts';
import { mssqlDialect } from '../dialects/mssql/index.ts';
import { mysqlDialect } from '../dialects/mysql/index.ts';
import { createEmbeddedDriver, createPostgresDialect, postgresDialect, type EmbeddedDatabase } from '../dialects/postgres/index.ts';

/**
 * The dialects this service knows, built once at start-up (nothing registers per request): a vendor
 * is one entry of the list below. `embedded` is the Postgres dialect over the control store's own
 * PGlite.
 */
export function createDialectRegistry(embedded: EmbeddedDatabase, extra: readonly Dialect[] = []): DialectRegistry {
  const embeddedDialect = createPostgresDialect({ name: 'embedded', connect: async () => createEmbeddedDriver(embedded), needsUrl: false });
  const byName = new Map<string, Dialect>();
  for (const dialect of [postgresDialect, embeddedDialect, mysqlDialect, mssqlDialect, ...extra]) byName.set(dialect.name, dialect);
  const vendors = Object.freeze([...byName.keys()]);
  return {
    vendors,
    get(vendor: string): Dialect {
      const dialect = byName.get(vendor);
      if (!dialect) {
        throw new ApiError('VALIDATION_FAILED', `unknown database vendor '${vendor}'`, [
          { field: 'database.vendor', rule: 'enum', message: `must be one of ${[...byName.keys()].join(', ')}` },
        ]);
      }
      return dialect;
    },
  };
}
