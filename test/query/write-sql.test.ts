/**
 * Golden SQL of writes for PostgreSQL, MySQL/MariaDB and SQL Server: UPDATE and DELETE of one
 * record under a row policy (assembled as the writers assemble them, see write-statements.ts:
 * writes have no plan yet), INSERT, and upsert on a conflict column in UPDATE and IGNORE mode as
 * the dialects send them. Statements are parsed as their vendor's SQL, except SQL Server's
 * DECLARE/MERGE/OUTPUT batches, which the T-SQL parser cannot read (golden text only).
 */
import { describe, expect, it } from 'vitest';
import type { ColumnType } from '../../core/schema/introspection.ts';
import type { ConflictAction, InsertStatement, UpsertStatement } from '../../dialects/dialect.ts';
import { batch, entity, expectCompiled, expectSql, golden, ownerPolicy, VENDORS, type Golden, type PerVendor, type Vendor } from './fixture.ts';
import { checkSyntax } from './syntax.ts';
import { deleteOf, insertSent, updateOf, upsertSent } from './write-statements.ts';

const UPDATE: PerVendor = {
  postgres: golden(
    ['UPDATE "public"."customers" AS "t0"', 'SET "name" = $1, "vip" = $2, "region_id" = $3', 'WHERE ("t0"."owner" = $4)', 'AND ("t0"."id" = $5)'],
    ['Ada', true, null, 'alice', 7],
  ),
  mysql: golden(
    ['UPDATE `customers` AS `t0`', 'SET `name` = ?, `vip` = ?, `region_id` = ?', 'WHERE (`t0`.`owner` = ?)', 'AND (`t0`.`id` = ?)'],
    ['Ada', 1, null, 'alice', 7],
  ),
  mssql: golden(
    ['UPDATE [t0]', 'SET [name] = @p1, [vip] = @p2, [region_id] = @p3', 'FROM [dbo].[customers] AS [t0]', 'WHERE ([t0].[owner] = @p4)', 'AND ([t0].[id] = @p5)'],
    ['Ada', 1, null, 'alice', 7],
  ),
};

const DELETE: PerVendor = {
  postgres: golden(['DELETE FROM "public"."customers" AS "t0"', 'WHERE ("t0"."owner" = $1)', 'AND ("t0"."id" = $2)'], ['alice', 7]),
  mysql: golden(['DELETE `t0` FROM `customers` AS `t0`', 'WHERE (`t0`.`owner` = ?)', 'AND (`t0`.`id` = ?)'], ['alice', 7]),
  mssql: golden(['DELETE [t0] FROM [dbo].[customers] AS [t0]', 'WHERE ([t0].[owner] = @p1)', 'AND ([t0].[id] = @p2)'], ['alice', 7]),
};

const INSERT: PerVendor = {
  postgres: golden(['INSERT INTO "public"."customers" ("name", "email", "vip") VALUES ($1, $2, $3)', 'RETURNING "id" AS "returned"'], ['Ada', 'ada@example.com', true]),
  mysql: golden(['INSERT INTO `customers` (`name`, `email`, `vip`) VALUES (?, ?, ?)'], ['Ada', 'ada@example.com', 1]),
  mssql: batch(
    [
      ['DECLARE @out TABLE ([__row] int, [returned] sql_variant);'],
      ['INSERT INTO [dbo].[customers] ([name], [email], [vip])', 'OUTPUT 0, [INSERTED].[id] INTO @out ([__row], [returned])', 'VALUES (@p1, @p2, @p3);'],
      ['SELECT [returned] FROM @out ORDER BY [__row];'],
    ],
    ['Ada', 'ada@example.com', 1],
  ),
};

const MARIADB_INSERT = golden(['INSERT INTO `customers` (`name`, `email`, `vip`) VALUES (?, ?, ?)', 'RETURNING `id` AS `returned`'], ['Ada', 'ada@example.com', 1]);

/** PostgreSQL sends the rows as one JSON parameter (json_populate_recordset). */
const RECORDSET = '[{"name":"Ada","email":"ada@example.com","vip":true},{"name":"Bob","email":"bob@example.com","vip":false}]';
const TWO_ROWS = ['Ada', 'ada@example.com', 1, 'Bob', 'bob@example.com', 0];
const MERGE_HEAD = ['MERGE INTO [dbo].[customers] WITH (HOLDLOCK) AS [t]', 'USING (VALUES (@p1, @p2, @p3), (@p4, @p5, @p6)) AS [s] ([name], [email], [vip])', 'ON [t].[email] = [s].[email]'];
const MERGE_INSERT = ['WHEN NOT MATCHED BY TARGET THEN INSERT ([name], [email], [vip]) VALUES ([s].[name], [s].[email], [s].[vip])', 'OUTPUT $action INTO @out ([action]);'];
const MERGE_DECLARE = ['DECLARE @out TABLE ([action] nvarchar(10));'];
const MERGE_COUNTS = ['SELECT [action], COUNT(*) AS [n] FROM @out GROUP BY [action];'];

const UPSERT_UPDATE: PerVendor = {
  postgres: golden(
    [
      'WITH written AS (INSERT INTO "public"."customers" ("name", "email", "vip")',
      `SELECT "name", "email", "vip" FROM json_populate_recordset(NULL::"public"."customers", convert_from($1::bytea, 'UTF8')::json)`,
      'ON CONFLICT ("email") DO UPDATE SET "name" = EXCLUDED."name", "vip" = EXCLUDED."vip"',
      'RETURNING (xmax = 0) AS inserted)',
      'SELECT count(*) FILTER (WHERE inserted)::integer AS inserted, count(*)::integer AS written FROM written',
    ],
    [Buffer.from(RECORDSET)],
  ),
  mysql: golden(
    ['INSERT INTO `customers` (`name`, `email`, `vip`) VALUES (?, ?, ?), (?, ?, ?) AS `new_row`', 'ON DUPLICATE KEY UPDATE `name` = `new_row`.`name`, `vip` = `new_row`.`vip`'],
    TWO_ROWS,
  ),
  mssql: batch([MERGE_DECLARE, [...MERGE_HEAD, 'WHEN MATCHED THEN UPDATE SET [name] = [s].[name], [vip] = [s].[vip]', ...MERGE_INSERT], MERGE_COUNTS], TWO_ROWS),
};

const MARIADB_UPSERT_UPDATE = golden(
  ['INSERT INTO `customers` (`name`, `email`, `vip`) VALUES (?, ?, ?), (?, ?, ?)', 'ON DUPLICATE KEY UPDATE `name` = VALUES(`name`), `vip` = VALUES(`vip`)'],
  TWO_ROWS,
);

const UPSERT_IGNORE: PerVendor = {
  postgres: golden(
    [
      'INSERT INTO "public"."customers" ("name", "email", "vip")',
      `SELECT "name", "email", "vip" FROM json_populate_recordset(NULL::"public"."customers", convert_from($1::bytea, 'UTF8')::json)`,
      'ON CONFLICT ("email") DO NOTHING',
    ],
    [Buffer.from(RECORDSET)],
  ),
  mysql: golden(['INSERT INTO `customers` (`name`, `email`, `vip`) VALUES (?, ?, ?), (?, ?, ?)', 'ON DUPLICATE KEY UPDATE `email` = `email`'], TWO_ROWS),
  mssql: batch([MERGE_DECLARE, [...MERGE_HEAD, ...MERGE_INSERT], MERGE_COUNTS], TWO_ROWS),
};

const MYSQL_8 = '8.0.36';
const MARIADB = '10.11.6-MariaDB';

const COLUMNS = ['name', 'email', 'vip'];
const TYPES: readonly ColumnType[] = ['text', 'text', 'boolean'];

/** Rows as the writers hand them to the dialect: each value encoded for its column type. */
function encodedRows(vendor: Vendor, rows: readonly (readonly unknown[])[]): unknown[][] {
  return rows.map((row) => row.map((value, i) => vendor.dialect.sql.encodeValue(TYPES[i] ?? 'text', value)));
}

function insertOf(vendor: Vendor): InsertStatement {
  return { table: 'customers', columns: COLUMNS, rows: encodedRows(vendor, [['Ada', 'ada@example.com', true]]), returning: 'id' };
}

function upsertOf(vendor: Vendor, action: ConflictAction): UpsertStatement {
  const rows = encodedRows(vendor, [['Ada', 'ada@example.com', true], ['Bob', 'bob@example.com', false]]);
  return { table: 'customers', columns: COLUMNS, rows, returning: 'id', conflictColumns: ['email'], action, updateColumns: ['name', 'vip'], columnTypes: TYPES };
}

/** SQL Server's batches (DECLARE, OUTPUT … INTO, MERGE) are beyond the T-SQL parser: text only. */
function expectBatch(vendor: Vendor, sent: { text: string; params: readonly unknown[] }, expected: Golden): void {
  expectCompiled(sent, expected);
  if (vendor.name !== 'mssql') checkSyntax(vendor.syntax, expected.text);
}

describe.each(VENDORS)('writes in $name SQL', (vendor) => {
  const customers = entity('customers');
  const alice = ownerPolicy('alice');

  it('updates one record: assignments encoded per column, the row policy then the id in WHERE', () => {
    expectSql(vendor, updateOf(vendor, customers, alice, 7, { name: 'Ada', vip: true, regionId: null }), UPDATE[vendor.name]);
  });

  it('deletes one record under the row policy', () => {
    expectSql(vendor, deleteOf(vendor, customers, alice, 7), DELETE[vendor.name]);
  });

  it('inserts a record and asks for its generated key (MySQL 8: from the OK packet)', async () => {
    expectBatch(vendor, await insertSent(vendor, insertOf(vendor), MYSQL_8), INSERT[vendor.name]);
  });

  it('upserts on the conflict column, overwriting the update columns (MySQL 8: the row alias)', async () => {
    expectBatch(vendor, await upsertSent(vendor, upsertOf(vendor, 'UPDATE'), MYSQL_8), UPSERT_UPDATE[vendor.name]);
  });

  it('upserts on the conflict column, leaving existing rows as they are', async () => {
    expectBatch(vendor, await upsertSent(vendor, upsertOf(vendor, 'IGNORE'), MYSQL_8), UPSERT_IGNORE[vendor.name]);
  });
});

describe('writes in MariaDB SQL (the mysql dialect on a MariaDB server)', () => {
  const mysql = VENDORS.find((vendor) => vendor.name === 'mysql');
  if (!mysql) throw new Error('no mysql vendor');

  it('inserts with RETURNING', async () => {
    const sent = await insertSent(mysql, insertOf(mysql), MARIADB);
    expectCompiled(sent, MARIADB_INSERT);
    checkSyntax('mariadb', sent.text);
  });

  it('upserts with VALUES(column): MariaDB has no row alias', async () => {
    const sent = await upsertSent(mysql, upsertOf(mysql, 'UPDATE'), MARIADB);
    expectCompiled(sent, MARIADB_UPSERT_UPDATE);
    checkSyntax('mariadb', sent.text);
  });

  it('IGNORE is the same statement on MySQL 8 and MariaDB', async () => {
    expect((await upsertSent(mysql, upsertOf(mysql, 'IGNORE'), MARIADB)).text).toBe(UPSERT_IGNORE.mysql.text);
  });
});
