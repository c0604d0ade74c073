/**
 * Golden SQL of the read planner (parseReadRequest → planRead → compileRead) for PostgreSQL,
 * MySQL and SQL Server: the plain page, sorting with today's NULL ordering spelling, filters and
 * the count statement. A change to the planner or a dialect's spelling shows here as a text diff;
 * every expected statement is also parsed as its vendor's SQL (test/query/syntax.ts).
 */
import { describe, it } from 'vitest';
import { compileRead, type CompiledRead } from '../../core/query/compile-read.ts';
import { parseReadRequest, type QueryParams } from '../../core/query/parse-request.ts';
import { planRead } from '../../core/query/plan-read.ts';
import { expectSql, golden, scopeOf, VENDORS, type PerVendor, type Vendor } from './fixture.ts';

/** The orders list as GET /records/orders?{query} compiles it for `vendor`. */
function ordersRead(vendor: Vendor, query: QueryParams): CompiledRead {
  return compileRead(planRead(scopeOf('orders'), parseReadRequest(query)), vendor.dialect);
}

const PLAIN_PAGE: PerVendor = {
  postgres: golden(
    [
      'SELECT "t0"."id" AS "c0", "t0"."customer_id" AS "c1", "t0"."amount" AS "c2", "t0"."quantity" AS "c3", "t0"."status" AS "c4", "t0"."note" AS "c5", "t0"."ordered_at" AS "c6"',
      'FROM "public"."orders" "t0"',
      'ORDER BY "t0"."id" ASC',
      'LIMIT $1 OFFSET $2',
    ],
    [20, 0],
  ),
  mysql: golden(
    [
      'SELECT `t0`.`id` AS `c0`, `t0`.`customer_id` AS `c1`, `t0`.`amount` AS `c2`, `t0`.`quantity` AS `c3`, `t0`.`status` AS `c4`, `t0`.`note` AS `c5`, `t0`.`ordered_at` AS `c6`',
      'FROM `orders` `t0`',
      'ORDER BY `t0`.`id` ASC',
      'LIMIT ? OFFSET ?',
    ],
    [20, 0],
  ),
  mssql: golden(
    [
      'SELECT [t0].[id] AS [c0], [t0].[customer_id] AS [c1], [t0].[amount] AS [c2], [t0].[quantity] AS [c3], [t0].[status] AS [c4], [t0].[note] AS [c5], [t0].[ordered_at] AS [c6]',
      'FROM [dbo].[orders] [t0]',
      'ORDER BY [t0].[id] ASC',
      'OFFSET @p1 ROWS FETCH NEXT @p2 ROWS ONLY',
    ],
    [0, 20],
  ),
};

const PLAIN_COUNT: PerVendor = {
  postgres: golden(['SELECT COUNT(*) AS "total" FROM "public"."orders" "t0"'], []),
  mysql: golden(['SELECT COUNT(*) AS `total` FROM `orders` `t0`'], []),
  mssql: golden(['SELECT COUNT(*) AS [total] FROM [dbo].[orders] [t0]'], []),
};

const SORT_NULLABLE_ASC_PAGE: PerVendor = {
  postgres: golden(
    [
      'SELECT "t0"."id" AS "c0"',
      'FROM "public"."orders" "t0"',
      'ORDER BY "t0"."note" ASC NULLS LAST, "t0"."status" DESC, "t0"."id" ASC',
      'LIMIT $1 OFFSET $2',
    ],
    [10, 20],
  ),
  mysql: golden(
    [
      'SELECT `t0`.`id` AS `c0`',
      'FROM `orders` `t0`',
      'ORDER BY `t0`.`note` IS NULL, `t0`.`note` ASC, `t0`.`status` DESC, `t0`.`id` ASC',
      'LIMIT ? OFFSET ?',
    ],
    [10, 20],
  ),
  mssql: golden(
    [
      'SELECT [t0].[id] AS [c0]',
      'FROM [dbo].[orders] [t0]',
      'ORDER BY CASE WHEN [t0].[note] IS NULL THEN 1 ELSE 0 END, [t0].[note] ASC, [t0].[status] DESC, [t0].[id] ASC',
      'OFFSET @p1 ROWS FETCH NEXT @p2 ROWS ONLY',
    ],
    [20, 10],
  ),
};

const SORT_NULLABLE_DESC_PAGE: PerVendor = {
  postgres: golden(
    [
      'SELECT "t0"."id" AS "c0"',
      'FROM "public"."orders" "t0"',
      'ORDER BY "t0"."note" DESC NULLS FIRST, "t0"."status" ASC, "t0"."id" ASC',
      'LIMIT $1 OFFSET $2',
    ],
    [20, 0],
  ),
  mysql: golden(
    [
      'SELECT `t0`.`id` AS `c0`',
      'FROM `orders` `t0`',
      'ORDER BY `t0`.`note` IS NOT NULL, `t0`.`note` DESC, `t0`.`status` ASC, `t0`.`id` ASC',
      'LIMIT ? OFFSET ?',
    ],
    [20, 0],
  ),
  mssql: golden(
    [
      'SELECT [t0].[id] AS [c0]',
      'FROM [dbo].[orders] [t0]',
      'ORDER BY CASE WHEN [t0].[note] IS NULL THEN 0 ELSE 1 END, [t0].[note] DESC, [t0].[status] ASC, [t0].[id] ASC',
      'OFFSET @p1 ROWS FETCH NEXT @p2 ROWS ONLY',
    ],
    [0, 20],
  ),
};

const FILTERS_PAGE: PerVendor = {
  postgres: golden(
    [
      'SELECT "t0"."id" AS "c0"',
      'FROM "public"."orders" "t0"',
      'LEFT JOIN "public"."customers" "t1" ON "t1"."id" = "t0"."customer_id"',
      'WHERE ("t0"."status" = $1)',
      'AND ("t0"."quantity" IN ($2, $3))',
      `AND ("t0"."note"::text LIKE $4 ESCAPE '\\')`,
      'AND ("t0"."ordered_at" IS NULL)',
      `AND ("t1"."name"::text ILIKE $5 ESCAPE '\\')`,
      'ORDER BY "t0"."id" ASC',
      'LIMIT $6 OFFSET $7',
    ],
    ['new', 1, 2, '%50\\%\\_off\\\\%', 'ad%', 20, 0],
  ),
  mysql: golden(
    [
      'SELECT `t0`.`id` AS `c0`',
      'FROM `orders` `t0`',
      'LEFT JOIN `customers` `t1` ON `t1`.`id` = `t0`.`customer_id`',
      'WHERE (`t0`.`status` = ?)',
      'AND (`t0`.`quantity` IN (?, ?))',
      "AND (CAST(`t0`.`note` AS CHAR CHARACTER SET utf8mb4) COLLATE utf8mb4_bin LIKE ? ESCAPE '\\\\')",
      'AND (`t0`.`ordered_at` IS NULL)',
      "AND (LOWER(CAST(`t1`.`name` AS CHAR CHARACTER SET utf8mb4)) COLLATE utf8mb4_bin LIKE LOWER(?) ESCAPE '\\\\')",
      'ORDER BY `t0`.`id` ASC',
      'LIMIT ? OFFSET ?',
    ],
    ['new', 1, 2, '%50\\%\\_off\\\\%', 'ad%', 20, 0],
  ),
  mssql: golden(
    [
      'SELECT [t0].[id] AS [c0]',
      'FROM [dbo].[orders] [t0]',
      'LEFT JOIN [dbo].[customers] [t1] ON [t1].[id] = [t0].[customer_id]',
      'WHERE ([t0].[status] = @p1)',
      'AND ([t0].[quantity] IN (@p2, @p3))',
      `AND (CAST([t0].[note] AS nvarchar(max)) COLLATE Latin1_General_100_BIN2 LIKE @p4 COLLATE Latin1_General_100_BIN2 ESCAPE '\\')`,
      'AND ([t0].[ordered_at] IS NULL)',
      `AND (LOWER(CAST([t1].[name] AS nvarchar(max))) COLLATE Latin1_General_100_BIN2 LIKE LOWER(@p5) COLLATE Latin1_General_100_BIN2 ESCAPE '\\')`,
      'ORDER BY [t0].[id] ASC',
      'OFFSET @p6 ROWS FETCH NEXT @p7 ROWS ONLY',
    ],
    ['new', 1, 2, '%50\\%\\_off\\\\%', 'ad%', 0, 20],
  ),
};

const FILTERS_COUNT: PerVendor = {
  postgres: golden(
    [
      'SELECT COUNT(*) AS "total"',
      'FROM "public"."orders" "t0"',
      'LEFT JOIN "public"."customers" "t1" ON "t1"."id" = "t0"."customer_id"',
      'WHERE ("t0"."status" = $1)',
      'AND ("t0"."quantity" IN ($2, $3))',
      `AND ("t0"."note"::text LIKE $4 ESCAPE '\\')`,
      'AND ("t0"."ordered_at" IS NULL)',
      `AND ("t1"."name"::text ILIKE $5 ESCAPE '\\')`,
    ],
    ['new', 1, 2, '%50\\%\\_off\\\\%', 'ad%'],
  ),
  mysql: golden(
    [
      'SELECT COUNT(*) AS `total`',
      'FROM `orders` `t0`',
      'LEFT JOIN `customers` `t1` ON `t1`.`id` = `t0`.`customer_id`',
      'WHERE (`t0`.`status` = ?)',
      'AND (`t0`.`quantity` IN (?, ?))',
      "AND (CAST(`t0`.`note` AS CHAR CHARACTER SET utf8mb4) COLLATE utf8mb4_bin LIKE ? ESCAPE '\\\\')",
      'AND (`t0`.`ordered_at` IS NULL)',
      "AND (LOWER(CAST(`t1`.`name` AS CHAR CHARACTER SET utf8mb4)) COLLATE utf8mb4_bin LIKE LOWER(?) ESCAPE '\\\\')",
    ],
    ['new', 1, 2, '%50\\%\\_off\\\\%', 'ad%'],
  ),
  mssql: golden(
    [
      'SELECT COUNT(*) AS [total]',
      'FROM [dbo].[orders] [t0]',
      'LEFT JOIN [dbo].[customers] [t1] ON [t1].[id] = [t0].[customer_id]',
      'WHERE ([t0].[status] = @p1)',
      'AND ([t0].[quantity] IN (@p2, @p3))',
      `AND (CAST([t0].[note] AS nvarchar(max)) COLLATE Latin1_General_100_BIN2 LIKE @p4 COLLATE Latin1_General_100_BIN2 ESCAPE '\\')`,
      'AND ([t0].[ordered_at] IS NULL)',
      `AND (LOWER(CAST([t1].[name] AS nvarchar(max))) COLLATE Latin1_General_100_BIN2 LIKE LOWER(@p5) COLLATE Latin1_General_100_BIN2 ESCAPE '\\')`,
    ],
    ['new', 1, 2, '%50\\%\\_off\\\\%', 'ad%'],
  ),
};

describe.each(VENDORS)('read plans in $name SQL', (vendor) => {
  it('a plain page selects every field, sorts by id and pages with the defaults (20 from 0)', () => {
    const read = ordersRead(vendor, {});
    expectSql(vendor, read.page, PLAIN_PAGE[vendor.name]);
    expectSql(vendor, read.count, PLAIN_COUNT[vendor.name]);
  });

  it('sorts a nullable column ascending and a NOT NULL one descending: NULLs last ascending, first descending', () => {
    const read = ordersRead(vendor, { fields: 'id', sort: 'note,asc;status,desc', page: '2', size: '10' });
    expectSql(vendor, read.page, SORT_NULLABLE_ASC_PAGE[vendor.name]);
  });

  it('sorts a nullable column descending and a NOT NULL one ascending', () => {
    const read = ordersRead(vendor, { fields: 'id', sort: 'note,desc;status,asc' });
    expectSql(vendor, read.page, SORT_NULLABLE_DESC_PAGE[vendor.name]);
  });

  it('filters with eq, in, contains (wildcards escaped), isNull and ilike through a join; the count keeps the join', () => {
    const read = ordersRead(vendor, {
      fields: 'id',
      'filter[status.eq]': 'new',
      'filter[quantity.in]': '1,2',
      'filter[note.contains]': '50%_off\\',
      'filter[orderedAt.isNull]': 'true',
      'filter[customer.name.ilike]': 'ad%',
    });
    expectSql(vendor, read.page, FILTERS_PAGE[vendor.name]);
    expectSql(vendor, read.count, FILTERS_COUNT[vendor.name]);
  });
});
