/**
 * MariaDB / MySQL as a test vendor: a fresh database per provision on the server at MYSQL_URL
 * (default mysql://root@127.0.0.1:3306/test), dropped again by `drop`.
 */
import { uniqueName } from './names.ts';
import { SERVER_CONNECT_TIMEOUT_MS } from './probe.ts';
import mysql from 'mysql2/promise';
import type { ProvisionedDatabase, Rows, TestSqlDialect, VendorTarget } from './vendors.ts';
import { mysqlFixtureDdl, mysqlFixtureInserts } from './mysql-fixture.ts';

export const MYSQL_ADMIN_URL = process.env.MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/test';

/** InnoDB moves AUTO_INCREMENT past explicitly inserted ids by itself. */
export const MYSQL_TEST_SQL: TestSqlDialect = {
  autoId: 'integer AUTO_INCREMENT PRIMARY KEY',
  param: () => '?',
  resetIdentity: () => null,
};

/** The admin URL with its database replaced. */
export function mysqlUrlFor(database: string): string {
  const url = new URL(MYSQL_ADMIN_URL);
  url.pathname = `/${database}`;
  return url.toString();
}

/** A connection to the admin URL's database, waiting as long as the other server probes. */
export async function mysqlAdminConnection(): Promise<mysql.Connection> {
  return mysql.createConnection({ uri: MYSQL_ADMIN_URL, connectTimeout: SERVER_CONNECT_TIMEOUT_MS });
}

export async function mysqlReachable(): Promise<boolean> {
  try {
    const conn = await mysqlAdminConnection();
    await conn.end();
    return true;
  } catch {
    return false;
  }
}

/** Creates an empty utf8mb4 database; with `withFixture`, loads the shared fixture into it. */
export async function provisionMysqlDatabase(withFixture: boolean): Promise<ProvisionedDatabase & { readonly name: string; readonly url: string }> {
  const name = uniqueName('wdapi_test');
  const admin = await mysqlAdminConnection();
  try {
    await admin.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4`);
  } finally {
    await admin.end();
  }
  const url = mysqlUrlFor(name);
  const pool = mysql.createPool({ uri: url, connectionLimit: 2, timezone: 'Z', dateStrings: ['DATE'], supportBigNumbers: true, bigNumberStrings: true });
  pool.on('connection', (conn) => conn.query("SET SESSION time_zone = '+00:00'"));
  const query = async (text: string, params?: unknown[]): Promise<Rows> => {
    const [result] = await pool.query(text, params);
    return Array.isArray(result) ? (result as Rows) : [];
  };
  if (withFixture) {
    for (const statement of mysqlFixtureDdl()) await query(statement);
    for (const { text, params } of mysqlFixtureInserts()) await query(text, params);
    await query('ANALYZE TABLE regions, customers, products, orders');
  }
  return {
    sql: MYSQL_TEST_SQL,
    name,
    url,
    database: { vendor: 'mysql', url },
    query,
    table: (table) => `\`${name}\`.\`${table}\``,
    async drop() {
      await pool.end();
      const cleaner = await mysqlAdminConnection();
      try {
        await cleaner.query(`DROP DATABASE IF EXISTS \`${name}\``);
      } finally {
        await cleaner.end();
      }
    },
  };
}

export const mariadbTarget: VendorTarget = {
  name: 'mariadb',
  upsertMatchesAnyUniqueKey: true,
  available: mysqlReachable,
  provision: (_service, withFixture) => provisionMysqlDatabase(withFixture),
};
