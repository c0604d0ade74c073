/**
 * Golden SQL of the read planner's joins for PostgreSQL, MySQL and SQL Server: many-to-one
 * expansion two levels deep with `fields` (the count keeps only the joins its filters use), a
 * row policy placed in a join's ON clause, and a computed column emitted by each vendor's formula
 * dialect. Every expected statement is also parsed as its vendor's SQL (test/query/syntax.ts).
 */
import { describe, it } from 'vitest';
import { checkFormula, emitFormula, parseFormula } from '../../core/formula/index.ts';
import { compileRead, type CompiledRead } from '../../core/query/compile-read.ts';
import { parseReadRequest, type QueryParams } from '../../core/query/parse-request.ts';
import type { ComputedField, ReadScope } from '../../core/query/plan.ts';
import { planRead } from '../../core/query/plan-read.ts';
import { entity, expectSql, golden, model, ownerPolicy, scopeOf, shapeOf, VENDORS, type PerVendor, type Vendor } from './fixture.ts';

function compiled(vendor: Vendor, scope: ReadScope, query: QueryParams): CompiledRead {
  return compileRead(planRead(scope, parseReadRequest(query)), vendor.dialect);
}

/** orders.total = amount * quantity, compiled by core/formula as the control plane would save it. */
function totalColumn(): ComputedField {
  const checked = checkFormula(parseFormula('amount * quantity'), { entity: entity('orders'), model });
  return {
    fieldName: 'total', valueType: checked.type, refs: checked.refs, broken: null,
    emit: (columnRef, formula) => emitFormula(checked, { dialect: formula, columnRef }),
  };
}

const EXPAND_PAGE: PerVendor = {
  postgres: golden(
    [
      'SELECT "t0"."id" AS "c0", "t0"."amount" AS "c1", "t1"."id" AS "c2", "t1"."name" AS "c3", "t2"."id" AS "c4", "t2"."name" AS "c5"',
      'FROM "public"."orders" "t0"',
      'LEFT JOIN "public"."customers" "t1" ON "t1"."id" = "t0"."customer_id"',
      'LEFT JOIN "public"."regions" "t2" ON "t2"."id" = "t1"."region_id"',
      'WHERE ("t1"."vip" = $1)',
      'AND ("t1"."created_at" >= $2)',
      'ORDER BY "t0"."id" ASC',
      'LIMIT $3 OFFSET $4',
    ],
    [true, '2026-01-01T00:00:00.000Z', 20, 0],
  ),
  mysql: golden(
    [
      'SELECT `t0`.`id` AS `c0`, `t0`.`amount` AS `c1`, `t1`.`id` AS `c2`, `t1`.`name` AS `c3`, `t2`.`id` AS `c4`, `t2`.`name` AS `c5`',
      'FROM `orders` `t0`',
      'LEFT JOIN `customers` `t1` ON `t1`.`id` = `t0`.`customer_id`',
      'LEFT JOIN `regions` `t2` ON `t2`.`id` = `t1`.`region_id`',
      'WHERE (`t1`.`vip` = ?)',
      'AND (`t1`.`created_at` >= ?)',
      'ORDER BY `t0`.`id` ASC',
      'LIMIT ? OFFSET ?',
    ],
    [1, '2026-01-01 00:00:00.000', 20, 0],
  ),
  mssql: golden(
    [
      'SELECT [t0].[id] AS [c0], [t0].[amount] AS [c1], [t1].[id] AS [c2], [t1].[name] AS [c3], [t2].[id] AS [c4], [t2].[name] AS [c5]',
      'FROM [dbo].[orders] [t0]',
      'LEFT JOIN [dbo].[customers] [t1] ON [t1].[id] = [t0].[customer_id]',
      'LEFT JOIN [dbo].[regions] [t2] ON [t2].[id] = [t1].[region_id]',
      'WHERE ([t1].[vip] = @p1)',
      'AND ([t1].[created_at] >= @p2)',
      'ORDER BY [t0].[id] ASC',
      'OFFSET @p3 ROWS FETCH NEXT @p4 ROWS ONLY',
    ],
    [1, new Date('2026-01-01T00:00:00.000Z'), 0, 20],
  ),
};

const EXPAND_COUNT: PerVendor = {
  postgres: golden(
    [
      'SELECT COUNT(*) AS "total"',
      'FROM "public"."orders" "t0"',
      'LEFT JOIN "public"."customers" "t1" ON "t1"."id" = "t0"."customer_id"',
      'WHERE ("t1"."vip" = $1)',
      'AND ("t1"."created_at" >= $2)',
    ],
    [true, '2026-01-01T00:00:00.000Z'],
  ),
  mysql: golden(
    [
      'SELECT COUNT(*) AS `total`',
      'FROM `orders` `t0`',
      'LEFT JOIN `customers` `t1` ON `t1`.`id` = `t0`.`customer_id`',
      'WHERE (`t1`.`vip` = ?)',
      'AND (`t1`.`created_at` >= ?)',
    ],
    [1, '2026-01-01 00:00:00.000'],
  ),
  mssql: golden(
    [
      'SELECT COUNT(*) AS [total]',
      'FROM [dbo].[orders] [t0]',
      'LEFT JOIN [dbo].[customers] [t1] ON [t1].[id] = [t0].[customer_id]',
      'WHERE ([t1].[vip] = @p1)',
      'AND ([t1].[created_at] >= @p2)',
    ],
    [1, new Date('2026-01-01T00:00:00.000Z')],
  ),
};

const POLICY_PAGE: PerVendor = {
  postgres: golden(
    [
      'SELECT "t0"."id" AS "c0", "t1"."id" AS "c1", "t1"."name" AS "c2"',
      'FROM "public"."orders" "t0"',
      'LEFT JOIN "public"."customers" "t1" ON "t1"."id" = "t0"."customer_id"',
      'AND ("t1"."owner" = $1)',
      'ORDER BY "t0"."id" ASC',
      'LIMIT $2 OFFSET $3',
    ],
    ['alice', 20, 0],
  ),
  mysql: golden(
    [
      'SELECT `t0`.`id` AS `c0`, `t1`.`id` AS `c1`, `t1`.`name` AS `c2`',
      'FROM `orders` `t0`',
      'LEFT JOIN `customers` `t1` ON `t1`.`id` = `t0`.`customer_id`',
      'AND (`t1`.`owner` = ?)',
      'ORDER BY `t0`.`id` ASC',
      'LIMIT ? OFFSET ?',
    ],
    ['alice', 20, 0],
  ),
  mssql: golden(
    [
      'SELECT [t0].[id] AS [c0], [t1].[id] AS [c1], [t1].[name] AS [c2]',
      'FROM [dbo].[orders] [t0]',
      'LEFT JOIN [dbo].[customers] [t1] ON [t1].[id] = [t0].[customer_id]',
      'AND ([t1].[owner] = @p1)',
      'ORDER BY [t0].[id] ASC',
      'OFFSET @p2 ROWS FETCH NEXT @p3 ROWS ONLY',
    ],
    ['alice', 0, 20],
  ),
};

const POLICY_COUNT: PerVendor = {
  postgres: golden(['SELECT COUNT(*) AS "total" FROM "public"."orders" "t0"'], []),
  mysql: golden(['SELECT COUNT(*) AS `total` FROM `orders` `t0`'], []),
  mssql: golden(['SELECT COUNT(*) AS [total] FROM [dbo].[orders] [t0]'], []),
};

const COMPUTED_PAGE: PerVendor = {
  postgres: golden(
    [
      'SELECT "t0"."id" AS "c0", ((CAST("t0"."amount" AS double precision) * CAST("t0"."quantity" AS double precision))) AS "c1"',
      'FROM "public"."orders" "t0"',
      'WHERE (((CAST("t0"."amount" AS double precision) * CAST("t0"."quantity" AS double precision))) > $1)',
      'ORDER BY ((CAST("t0"."amount" AS double precision) * CAST("t0"."quantity" AS double precision))) DESC NULLS FIRST, "t0"."id" ASC',
      'LIMIT $2 OFFSET $3',
    ],
    ['100', 20, 0],
  ),
  mysql: golden(
    [
      'SELECT `t0`.`id` AS `c0`, (((`t0`.`amount` + 0e0) * (`t0`.`quantity` + 0e0))) AS `c1`',
      'FROM `orders` `t0`',
      'WHERE ((((`t0`.`amount` + 0e0) * (`t0`.`quantity` + 0e0))) > ?)',
      'ORDER BY (((`t0`.`amount` + 0e0) * (`t0`.`quantity` + 0e0))) IS NOT NULL, (((`t0`.`amount` + 0e0) * (`t0`.`quantity` + 0e0))) DESC, `t0`.`id` ASC',
      'LIMIT ? OFFSET ?',
    ],
    ['100', 20, 0],
  ),
  mssql: golden(
    [
      'SELECT [t0].[id] AS [c0], ((CAST([t0].[amount] AS float) * CAST([t0].[quantity] AS float))) AS [c1]',
      'FROM [dbo].[orders] [t0]',
      'WHERE (((CAST([t0].[amount] AS float) * CAST([t0].[quantity] AS float))) > @p1)',
      'ORDER BY CASE WHEN ((CAST([t0].[amount] AS float) * CAST([t0].[quantity] AS float))) IS NULL THEN 0 ELSE 1 END, ((CAST([t0].[amount] AS float) * CAST([t0].[quantity] AS float))) DESC, [t0].[id] ASC',
      'OFFSET @p2 ROWS FETCH NEXT @p3 ROWS ONLY',
    ],
    ['100', 0, 20],
  ),
};

describe.each(VENDORS)('read plans with joins in $name SQL', (vendor) => {
  it('expands customer and customer.region with fields, filtering through the join; the count drops the unused region join', () => {
    const read = compiled(vendor, scopeOf('orders'), {
      expand: 'customer,customer.region',
      fields: 'id,amount,customer.name,customer.region.name',
      'filter[customer.vip.eq]': 'true',
      'filter[customer.createdAt.gte]': '2026-01-01T00:00:00Z',
    });
    expectSql(vendor, read.page, EXPAND_PAGE[vendor.name]);
    expectSql(vendor, read.count, EXPAND_COUNT[vendor.name]);
  });

  it('puts a row policy on an expanded entity into the ON clause, so a hidden customer reads as null', () => {
    const read = compiled(vendor, scopeOf('orders', ownerPolicy('alice')), { expand: 'customer', fields: 'id,customer.name' });
    expectSql(vendor, read.page, POLICY_PAGE[vendor.name]);
    expectSql(vendor, read.count, POLICY_COUNT[vendor.name]);
  });

  it('selects, filters and sorts a computed column through the vendor formula dialect', () => {
    const scope = scopeOf({ ...shapeOf('orders'), computed: [totalColumn()] });
    const read = compiled(vendor, scope, { fields: 'id,total', sort: 'total,desc', 'filter[total.gt]': '100' });
    expectSql(vendor, read.page, COMPUTED_PAGE[vendor.name]);
  });
});
