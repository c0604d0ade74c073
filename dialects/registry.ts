import { ApiError } from '../core/errors.ts';
import type { Dialect } from './dialect.ts';
import { mssqlDialect } from './mssql/index.ts';
import { mysqlDialect } from './mysql/index.ts';
import { createEmbeddedDriver, createPostgresDialect, postgresDialect, type EmbeddedDatabase } from './postgres/index.ts';

/**
 * The registered dialects, frozen at start-up (nothing registers per request).
 * `embedded` is the Postgres dialect over the control store's own PGlite.
 */
export interface DialectRegistry {
  get(vendor: string): Dialect;
  readonly vendors: readonly string[];
}

export function createDialectRegistry(embedded: EmbeddedDatabase, extra: readonly Dialect[] = []): DialectRegistry {
  const embeddedDialect = createPostgresDialect('embedded', async () => createEmbeddedDriver(embedded));
  const byName = new Map<string, Dialect>();
  for (const dialect of [postgresDialect, embeddedDialect, mysqlDialect, mssqlDialect, ...extra]) byName.set(dialect.name, dialect);
  Object.freeze(byName);
  return {
    vendors: [...byName.keys()],
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
