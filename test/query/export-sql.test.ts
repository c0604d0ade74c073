/**
 * Golden SQL of the export's statement (core/query/export.ts): the list's SELECT, joins, WHERE and
 * ORDER BY without any LIMIT/OFFSET/FETCH, per vendor, each parsed as its vendor's SQL (SQL Server
 * by the T-SQL parser: its streaming driver cannot run here).
 */
import { describe, it } from 'vitest';
import { compileUnpaged } from '../../core/query/compile-read.ts';
import { parseExportRequest } from '../../core/query/parse-request.ts';
import { planRead } from '../../core/query/plan-read.ts';
import { expectSql, golden, scopeOf, VENDORS, type PerVendor } from './fixture.ts';

const QUERY = { expand: 'customer', fields: 'id,amount,customer.name', 'filter[status.eq]': 'paid', sort: 'amount,desc' };

const UNPAGED: PerVendor = {
  postgres: golden(
    [
      'SELECT "t0"."id" AS "c0", "t0"."amount" AS "c1", "t1"."id" AS "c2", "t1"."name" AS "c3"',
      'FROM "public"."orders" "t0" LEFT JOIN "public"."customers" "t1" ON "t1"."id" = "t0"."customer_id"',
      'WHERE ("t0"."status" = $1)',
      'ORDER BY "t0"."amount" DESC, "t0"."id" ASC',
    ],
    ['paid'],
  ),
  mysql: golden(
    [
      'SELECT `t0`.`id` AS `c0`, `t0`.`amount` AS `c1`, `t1`.`id` AS `c2`, `t1`.`name` AS `c3`',
      'FROM `orders` `t0` LEFT JOIN `customers` `t1` ON `t1`.`id` = `t0`.`customer_id`',
      'WHERE (`t0`.`status` = ?)',
      'ORDER BY `t0`.`amount` DESC, `t0`.`id` ASC',
    ],
    ['paid'],
  ),
  mssql: golden(
    [
      'SELECT [t0].[id] AS [c0], [t0].[amount] AS [c1], [t1].[id] AS [c2], [t1].[name] AS [c3]',
      'FROM [dbo].[orders] [t0] LEFT JOIN [dbo].[customers] [t1] ON [t1].[id] = [t0].[customer_id]',
      'WHERE ([t0].[status] = @p1)',
      'ORDER BY [t0].[amount] DESC, [t0].[id] ASC',
    ],
    ['paid'],
  ),
};

describe.each(VENDORS)('export statement on $name', (vendor) => {
  it('reads every row in the list order, unpaged', () => {
    const plan = planRead(scopeOf('orders'), { ...parseExportRequest(QUERY), page: 0, count: 'none' });
    expectSql(vendor, compileUnpaged(plan, vendor.dialect).statement, UNPAGED[vendor.name]);
  });
});
