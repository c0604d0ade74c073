/** Shared set-up of the MySQL dialect tests: skip when the server is unreachable, unless CI=true. */
import { render, type Sql } from '../../../core/sql.ts';
import type { Driver } from '../../../dialects/dialect.ts';
import { createMysqlDialect } from '../../../dialects/mysql/index.ts';
import { MYSQL_ADMIN_URL, mysqlReachable, provisionMysqlDatabase } from '../../support/mysql-target.ts';

export const dialect = createMysqlDialect();

export async function mysqlAvailable(): Promise<boolean> {
  if (await mysqlReachable()) return true;
  if (process.env.CI === 'true') throw new Error(`CI=true and the MySQL test database (${MYSQL_ADMIN_URL}) is unreachable`);
  return false;
}

export type TestDatabase = Awaited<ReturnType<typeof provisionMysqlDatabase>> & {
  readonly driver: Driver;
  /** Renders a fragment with the dialect and runs it through the driver. */
  run(fragment: Sql): ReturnType<Driver['query']>;
  close(): Promise<void>;
};

export async function openTestDatabase(withFixture = true): Promise<TestDatabase> {
  const db = await provisionMysqlDatabase(withFixture);
  const driver = await dialect.connect({ vendor: 'mysql', url: db.url, poolSize: 4 });
  return {
    ...db,
    driver,
    run: (fragment: Sql) => driver.query(render(fragment, dialect.sql)),
    async close() {
      await driver.close();
      await db.drop();
    },
  };
}
