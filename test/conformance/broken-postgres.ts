/**
 * A deliberately broken plugin for the kit's own test: the PostgreSQL dialect whose `paginate`
 * ignores the offset, so every page after the first repeats the first. The kit must fail on it.
 */
import { sql } from '../../core/sql.ts';
import type { Dialect } from '../../dialects/dialect.ts';
import { postgresDialect } from '../../dialects/postgres/index.ts';

export { conformance } from '../../dialects/postgres/index.ts';

export const dialect: Dialect = { ...postgresDialect, sql: { ...postgresDialect.sql, paginate: (limit: number) => sql` LIMIT ${limit}` } };
