/**
 * Golden SQL of `where` (core/query/where.ts) for PostgreSQL, MySQL and SQL Server: under a row
 * policy the formula sits behind the policy in nested CASE, so no vendor evaluates it on a row
 * the policy hides; the count statement carries the same condition and joins. Every statement is
 * also parsed as its vendor's SQL (the T-SQL parser stands in for a SQL Server database).
 */
import { describe, expect, it } from 'vitest';
import { compileRead } from '../../core/query/compile-read.ts';
import { planRead } from '../../core/query/plan-read.ts';
import { render } from '../../core/sql.ts';
import { expectSql, golden, ownerPolicy, request, scopeOf, VENDORS, type PerVendor } from './fixture.ts';
import { checkSyntax } from './syntax.ts';

const GUARDED_PAGE: PerVendor = {
  postgres: golden(
    [
      'SELECT "t0"."id" AS "c0" FROM "public"."customers" "t0" LEFT JOIN "public"."regions" "t1" ON "t1"."id" = "t0"."region_id"',
      'WHERE ("t0"."owner" = $1) AND ((CASE WHEN ("t0"."owner" = $2) THEN (CASE WHEN (("t0"."vip" AND ("t1"."code" IS NULL))) THEN 1 END) END) = 1)',
      'ORDER BY "t0"."id" ASC LIMIT $3 OFFSET $4',
    ],
    ['alice', 'alice', 20, 0],
  ),
  mysql: golden(
    [
      'SELECT `t0`.`id` AS `c0` FROM `customers` `t0` LEFT JOIN `regions` `t1` ON `t1`.`id` = `t0`.`region_id`',
      'WHERE (`t0`.`owner` = ?) AND ((CASE WHEN (`t0`.`owner` = ?) THEN (CASE WHEN (((`t0`.`vip` <> 0) AND ((CONVERT(`t1`.`code` USING utf8mb4) COLLATE utf8mb4_bin) IS NULL))) THEN 1 END) END) = 1)',
      'ORDER BY `t0`.`id` ASC LIMIT ? OFFSET ?',
    ],
    ['alice', 'alice', 20, 0],
  ),
  mssql: golden(
    [
      'SELECT [t0].[id] AS [c0] FROM [dbo].[customers] [t0] LEFT JOIN [dbo].[regions] [t1] ON [t1].[id] = [t0].[region_id]',
      'WHERE ([t0].[owner] = @p1) AND ((CASE WHEN ([t0].[owner] = @p2) THEN (CASE WHEN ((([t0].[vip] = 1) AND (CAST([t1].[code] AS nvarchar(max)) IS NULL))) THEN 1 END) END) = 1)',
      'ORDER BY [t0].[id] ASC OFFSET @p3 ROWS FETCH NEXT @p4 ROWS ONLY',
    ],
    ['alice', 'alice', 0, 20],
  ),
};

describe.each(VENDORS)('where in $name SQL', (vendor) => {
  it('sits behind the row policy in nested CASE, and the count uses the same condition', () => {
    const plan = planRead(scopeOf('customers', ownerPolicy('alice')), request({ fields: [['id']], where: 'vip AND region.code IS NULL' }));
    const compiled = compileRead(plan, vendor.dialect);
    expectSql(vendor, compiled.page, GUARDED_PAGE[vendor.name]);
    const page = render(compiled.page, vendor.dialect.sql).text;
    const count = render(compiled.count, vendor.dialect.sql).text;
    const condition = (text: string): string => text.slice(text.indexOf(' LEFT JOIN '), text.indexOf(' ORDER BY ') < 0 ? undefined : text.indexOf(' ORDER BY '));
    expect(condition(count)).toBe(condition(page));
    checkSyntax(vendor.syntax, count);
  });

  it('without a row policy is the formula itself, literals bound, joins planned for rel.field', () => {
    const plan = planRead(scopeOf('orders'), request({ fields: [['id']], where: "status = 'paid' OR (amount > 100 AND customer.name LIKE 'A%')" }));
    const { text, params } = render(compileRead(plan, vendor.dialect).page, vendor.dialect.sql);
    expect(text.slice(text.indexOf(' WHERE '), text.indexOf(' ORDER BY '))).not.toContain('CASE');
    expect(text).toContain(' LEFT JOIN ');
    expect(text).not.toMatch(/paid|'A%'/);
    expect(params.slice(0, 3)).toEqual(['paid', 100, 'A%']);
    checkSyntax(vendor.syntax, text);
  });
});
