/**
 * Golden SQL of one-to-many expansion and one-to-many filters (DESIGN §13) for PostgreSQL, MySQL
 * and SQL Server: the items of a page in one statement over the parents' keys, numbered per
 * parent by ROW_NUMBER() in the items' order and cut at the array's size, under the items' row
 * policy and `expandWhere`; a filter through a one-to-many relationship as a correlated EXISTS
 * under the related entity's row policy. Every statement is parsed as its vendor's SQL.
 */
import { describe, expect, it } from 'vitest';
import { compileItems } from '../../core/query/compile-items.ts';
import { compileRead } from '../../core/query/compile-read.ts';
import { planRead } from '../../core/query/plan-read.ts';
import { render } from '../../core/sql.ts';
import { expectSql, golden, ownerPolicy, request, scopeOf, VENDORS, type PerVendor } from './fixture.ts';
import { checkSyntax } from './syntax.ts';

const ITEMS: PerVendor = {
  postgres: golden(
    [
      'SELECT * FROM (SELECT "t0"."name" AS "c0", "t0"."region_id" AS "p", ROW_NUMBER() OVER (PARTITION BY "t0"."region_id" ORDER BY "t0"."email" DESC NULLS FIRST, "t0"."id" ASC) AS "n"',
      'FROM "public"."customers" "t0" WHERE ("t0"."owner" = $1) AND ((CASE WHEN ("t0"."owner" = $2) THEN (CASE WHEN ("t0"."vip") THEN 1 END) END) = 1) AND ("t0"."region_id" IN ($3, $4))) "q"',
      'WHERE "q"."n" <= $5 ORDER BY "q"."n"',
    ],
    ['alice', 'alice', 1, 2, 3],
  ),
  mysql: golden(
    [
      'SELECT * FROM (SELECT `t0`.`name` AS `c0`, `t0`.`region_id` AS `p`, ROW_NUMBER() OVER (PARTITION BY `t0`.`region_id` ORDER BY `t0`.`email` IS NOT NULL, `t0`.`email` DESC, `t0`.`id` ASC) AS `n`',
      'FROM `customers` `t0` WHERE (`t0`.`owner` = ?) AND ((CASE WHEN (`t0`.`owner` = ?) THEN (CASE WHEN ((`t0`.`vip` <> 0)) THEN 1 END) END) = 1) AND (`t0`.`region_id` IN (?, ?))) `q`',
      'WHERE `q`.`n` <= ? ORDER BY `q`.`n`',
    ],
    ['alice', 'alice', 1, 2, 3],
  ),
  mssql: golden(
    [
      'SELECT * FROM (SELECT [t0].[name] AS [c0], [t0].[region_id] AS [p], ROW_NUMBER() OVER (PARTITION BY [t0].[region_id] ORDER BY CASE WHEN [t0].[email] IS NULL THEN 0 ELSE 1 END, [t0].[email] DESC, [t0].[id] ASC) AS [n]',
      'FROM [dbo].[customers] [t0] WHERE ([t0].[owner] = @p1) AND ((CASE WHEN ([t0].[owner] = @p2) THEN (CASE WHEN (([t0].[vip] = 1)) THEN 1 END) END) = 1) AND ([t0].[region_id] IN (@p3, @p4))) [q]',
      'WHERE [q].[n] <= @p5 ORDER BY [q].[n]',
    ],
    ['alice', 'alice', 1, 2, 3],
  ),
};

const EXISTS: PerVendor = {
  postgres: golden(
    [
      'SELECT "t0"."id" AS "c0" FROM "public"."regions" "t0"',
      'WHERE (EXISTS (SELECT 1 FROM "public"."customers" "e1t0" WHERE "e1t0"."region_id" = "t0"."id" AND ("e1t0"."owner" = $1) AND ("e1t0"."name" = $2)))',
      'ORDER BY "t0"."id" ASC LIMIT $3 OFFSET $4',
    ],
    ['alice', 'Ada', 20, 0],
  ),
  mysql: golden(
    [
      'SELECT `t0`.`id` AS `c0` FROM `regions` `t0`',
      'WHERE (EXISTS (SELECT 1 FROM `customers` `e1t0` WHERE `e1t0`.`region_id` = `t0`.`id` AND (`e1t0`.`owner` = ?) AND (`e1t0`.`name` = ?)))',
      'ORDER BY `t0`.`id` ASC LIMIT ? OFFSET ?',
    ],
    ['alice', 'Ada', 20, 0],
  ),
  mssql: golden(
    [
      'SELECT [t0].[id] AS [c0] FROM [dbo].[regions] [t0]',
      'WHERE (EXISTS (SELECT 1 FROM [dbo].[customers] [e1t0] WHERE [e1t0].[region_id] = [t0].[id] AND ([e1t0].[owner] = @p1) AND ([e1t0].[name] = @p2)))',
      'ORDER BY [t0].[id] ASC OFFSET @p3 ROWS FETCH NEXT @p4 ROWS ONLY',
    ],
    ['alice', 'Ada', 0, 20],
  ),
};

const arrays = {
  size: new Map([['customers', 3]]),
  sort: new Map([['customers', [{ path: ['email'], direction: 'desc' as const }]]]),
  where: new Map([['customers', 'vip']]),
};

describe.each(VENDORS)('one-to-many in $name SQL', (vendor) => {
  it('reads the items of all parents in one statement, limited per parent, under the row policy', () => {
    const plan = planRead(scopeOf('regions', ownerPolicy('alice')), request({ fields: [['id'], ['customers', 'name']], expand: [['customers']], arrays }));
    const compiled = compileRead(plan, vendor.dialect);
    const page = render(compiled.page, vendor.dialect.sql).text;
    expect(page).toContain(' AS ');
    checkSyntax(vendor.syntax, page);
    const [array] = compiled.arrays;
    if (!array) throw new Error('the plan has no array');
    expect(array.at).toEqual([]);
    expectSql(vendor, compileItems(array.node, [1, 2], vendor.dialect).page, ITEMS[vendor.name]);
  });

  it('a filter through a one-to-many relationship is an EXISTS under the related row policy', () => {
    const plan = planRead(scopeOf('regions', ownerPolicy('alice')), request({ fields: [['id']], filters: [{ path: ['customers', 'name'], op: 'eq', value: 'Ada' }] }));
    expectSql(vendor, compileRead(plan, vendor.dialect).page, EXISTS[vendor.name]);
    checkSyntax(vendor.syntax, render(compileRead(plan, vendor.dialect).count, vendor.dialect.sql).text);
  });

  it('nested EXISTS aliases stay apart: regions having a customer having a paid order', () => {
    const plan = planRead(scopeOf('regions'), request({ fields: [['id']], filters: [{ path: ['customers', 'orders', 'status'], op: 'eq', value: 'paid' }] }));
    const text = render(compileRead(plan, vendor.dialect).page, vendor.dialect.sql).text;
    expect(text).toMatch(/e1t0/);
    expect(text).toMatch(/e1e1t0/);
    checkSyntax(vendor.syntax, text);
  });
});
