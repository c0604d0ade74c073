/**
 * Golden SQL of aggregates (core/query/compile-aggregate.ts) for PostgreSQL, MySQL and SQL Server:
 * the filtered rows projected in a derived table under the row policy, grouped by its plain
 * aliases, ordered by a repeated aggregate with the group keys as tiebreak; the group count over
 * the same rows. Every statement is also parsed as its vendor's SQL (the T-SQL parser stands in
 * for a SQL Server database).
 */
import { describe, expect, it } from 'vitest';
import { checkFormula, emitFormula, parseFormula } from '../../core/formula/index.ts';
import { compileAggregate } from '../../core/query/compile-aggregate.ts';
import type { ComputedField } from '../../core/query/plan.ts';
import { planAggregate } from '../../core/query/plan-aggregate.ts';
import type { AggregateRequest } from '../../core/query/aggregate-request.ts';
import { render } from '../../core/sql.ts';
import { entity, expectSql, golden, model, ownerPolicy, scopeOf, shapeOf, VENDORS, type PerVendor, type VendorName } from './fixture.ts';
import { checkSyntax } from './syntax.ts';

function aggregateRequest(overrides: Partial<AggregateRequest> = {}): AggregateRequest {
  return { groupBy: [], metrics: [{ kind: 'count', path: null }], filters: [], sort: [], page: 0, size: 20, ...overrides };
}

/** A computed column whose formula binds a literal, as the control plane would save it. */
function computed(fieldName: string, formula: string): ComputedField {
  const checked = checkFormula(parseFormula(formula), { entity: entity('orders'), model });
  return { fieldName, valueType: checked.type, refs: checked.refs, broken: null, emit: (columnRef, dialect) => emitFormula(checked, { dialect, columnRef }) };
}

const GROUPED = aggregateRequest({
  groupBy: [['status'], ['customer', 'regionId']],
  metrics: [
    { kind: 'count', path: null },
    { kind: 'countDistinct', path: ['customerId'] },
    { kind: 'sum', path: ['amount'] },
    { kind: 'avg', path: ['quantity'] },
    { kind: 'min', path: ['orderedAt'] },
  ],
  filters: [{ path: ['quantity'], op: 'gte', value: '2' }],
  sort: [{ key: { kind: 'metric', metric: { kind: 'sum', path: ['amount'] } }, direction: 'desc' }],
  page: 1,
  size: 5,
});

const PAGE: PerVendor = {
  postgres: golden(
    [
      'SELECT "g"."g0", "g"."g1", COUNT(*) AS "m0", COUNT(DISTINCT "g"."v1") AS "m1", SUM("g"."v2") AS "m2", CAST(SUM("g"."v3") AS DOUBLE PRECISION) / NULLIF(COUNT("g"."v3"), 0) AS "m3", MIN("g"."v4") AS "m4"',
      'FROM (SELECT "t0"."status" AS "g0", "t1"."region_id" AS "g1", "t0"."customer_id" AS "v1", "t0"."amount" AS "v2", "t0"."quantity" AS "v3", "t0"."ordered_at" AS "v4" FROM "public"."orders" "t0" LEFT JOIN "public"."customers" "t1" ON "t1"."id" = "t0"."customer_id" AND ("t1"."owner" = $1)',
      'WHERE ("t0"."quantity" >= $2)) "g"',
      'GROUP BY "g"."g0", "g"."g1"',
      'ORDER BY SUM("g"."v2") DESC NULLS FIRST, "g"."g0" ASC, "g"."g1" ASC NULLS LAST LIMIT $3 OFFSET $4',
    ],
    ['alice', 2, 5, 5],
  ),
  mysql: golden(
    [
      'SELECT `g`.`g0`, `g`.`g1`, COUNT(*) AS `m0`, COUNT(DISTINCT `g`.`v1`) AS `m1`, SUM(`g`.`v2`) AS `m2`, CAST(SUM(`g`.`v3`) AS DOUBLE) / NULLIF(COUNT(`g`.`v3`), 0) AS `m3`, MIN(`g`.`v4`) AS `m4`',
      'FROM (SELECT `t0`.`status` AS `g0`, `t1`.`region_id` AS `g1`, `t0`.`customer_id` AS `v1`, `t0`.`amount` AS `v2`, `t0`.`quantity` AS `v3`, `t0`.`ordered_at` AS `v4` FROM `orders` `t0` LEFT JOIN `customers` `t1` ON `t1`.`id` = `t0`.`customer_id` AND (`t1`.`owner` = ?)',
      'WHERE (`t0`.`quantity` >= ?)) `g`',
      'GROUP BY `g`.`g0`, `g`.`g1`',
      'ORDER BY SUM(`g`.`v2`) IS NOT NULL, SUM(`g`.`v2`) DESC, `g`.`g0` ASC, `g`.`g1` IS NULL, `g`.`g1` ASC LIMIT ? OFFSET ?',
    ],
    ['alice', 2, 5, 5],
  ),
  mssql: golden(
    [
      'SELECT [g].[g0], [g].[g1], COUNT(*) AS [m0], COUNT(DISTINCT [g].[v1]) AS [m1], SUM([g].[v2]) AS [m2], CAST(SUM(CAST([g].[v3] AS bigint)) AS float) / NULLIF(COUNT([g].[v3]), 0) AS [m3], MIN([g].[v4]) AS [m4]',
      'FROM (SELECT [t0].[status] AS [g0], [t1].[region_id] AS [g1], [t0].[customer_id] AS [v1], [t0].[amount] AS [v2], [t0].[quantity] AS [v3], [t0].[ordered_at] AS [v4] FROM [dbo].[orders] [t0] LEFT JOIN [dbo].[customers] [t1] ON [t1].[id] = [t0].[customer_id] AND ([t1].[owner] = @p1)',
      'WHERE ([t0].[quantity] >= @p2)) [g]',
      'GROUP BY [g].[g0], [g].[g1]',
      'ORDER BY CASE WHEN SUM([g].[v2]) IS NULL THEN 0 ELSE 1 END, SUM([g].[v2]) DESC, [g].[g0] ASC, CASE WHEN [g].[g1] IS NULL THEN 1 ELSE 0 END, [g].[g1] ASC OFFSET @p3 ROWS FETCH NEXT @p4 ROWS ONLY',
    ],
    ['alice', 2, 5, 5],
  ),
};

const COUNT: PerVendor = {
  postgres: golden(
    [
      'SELECT COUNT(*) AS "total"',
      'FROM (SELECT "g"."g0", "g"."g1" FROM (SELECT "t0"."status" AS "g0", "t1"."region_id" AS "g1" FROM "public"."orders" "t0" LEFT JOIN "public"."customers" "t1" ON "t1"."id" = "t0"."customer_id" AND ("t1"."owner" = $1)',
      'WHERE ("t0"."quantity" >= $2)) "g"',
      'GROUP BY "g"."g0", "g"."g1") "n"',
    ],
    ['alice', 2],
  ),
  mysql: golden(
    [
      'SELECT COUNT(*) AS `total`',
      'FROM (SELECT `g`.`g0`, `g`.`g1` FROM (SELECT `t0`.`status` AS `g0`, `t1`.`region_id` AS `g1` FROM `orders` `t0` LEFT JOIN `customers` `t1` ON `t1`.`id` = `t0`.`customer_id` AND (`t1`.`owner` = ?)',
      'WHERE (`t0`.`quantity` >= ?)) `g`',
      'GROUP BY `g`.`g0`, `g`.`g1`) `n`',
    ],
    ['alice', 2],
  ),
  mssql: golden(
    [
      'SELECT COUNT(*) AS [total]',
      'FROM (SELECT [g].[g0], [g].[g1] FROM (SELECT [t0].[status] AS [g0], [t1].[region_id] AS [g1] FROM [dbo].[orders] [t0] LEFT JOIN [dbo].[customers] [t1] ON [t1].[id] = [t0].[customer_id] AND ([t1].[owner] = @p1)',
      'WHERE ([t0].[quantity] >= @p2)) [g]',
      'GROUP BY [g].[g0], [g].[g1]) [n]',
    ],
    ['alice', 2],
  ),
};

describe.each(VENDORS)('aggregates in $name SQL', (vendor) => {
  it('groups a derived table of the visible rows, orders by a metric then the keys, and counts the groups', () => {
    const compiled = compileAggregate(planAggregate(scopeOf('orders', ownerPolicy('alice')), GROUPED), vendor.dialect);
    expectSql(vendor, compiled.page, PAGE[vendor.name]);
    if (!compiled.count) throw new Error('a grouped aggregate counts its groups');
    expectSql(vendor, compiled.count, COUNT[vendor.name]);
  });
});

/** status is NOT NULL, note nullable; a count is never NULL. */
const PLAIN_COUNT_ORDER: Readonly<Record<VendorName, string>> = {
  postgres: 'ORDER BY COUNT(*) DESC, "g"."g0" ASC, "g"."g1" ASC NULLS LAST LIMIT',
  mysql: 'ORDER BY COUNT(*) DESC, `g`.`g0` ASC, `g`.`g1` IS NULL, `g`.`g1` ASC LIMIT',
  mssql: 'ORDER BY COUNT(*) DESC, [g].[g0] ASC, CASE WHEN [g].[g1] IS NULL THEN 1 ELSE 0 END, [g].[g1] ASC OFFSET',
};

describe.each(VENDORS)('aggregates in $name SQL, more shapes', (vendor) => {
  it('without groupBy: one statement, no GROUP BY, no paging, no count', () => {
    const compiled = compileAggregate(planAggregate(scopeOf('orders'), aggregateRequest({ metrics: [{ kind: 'count', path: null }] })), vendor.dialect);
    expect(compiled.count).toBeNull();
    const { text, params } = render(compiled.page, vendor.dialect.sql);
    expect(text).not.toMatch(/GROUP BY|ORDER BY|LIMIT|FETCH/);
    expect(params).toEqual([]);
    checkSyntax(vendor.syntax, text);
  });

  it('a count and a NOT NULL key sort plainly; a nullable key keeps its NULL ordering', () => {
    const request = aggregateRequest({
      groupBy: [['status'], ['note']],
      metrics: [{ kind: 'count', path: null }],
      sort: [{ key: { kind: 'metric', metric: { kind: 'count', path: null } }, direction: 'desc' }],
    });
    const { text } = render(compileAggregate(planAggregate(scopeOf('orders'), request), vendor.dialect).page, vendor.dialect.sql);
    expect(text).toContain(PLAIN_COUNT_ORDER[vendor.name]);
    checkSyntax(vendor.syntax, text);
  });

  it('a computed key binds its literals once, in the derived table, and is grouped and ordered by its alias', () => {
    const scope = scopeOf({ ...shapeOf('orders'), computed: [computed('band', "CASE WHEN amount > 100 THEN 'big' ELSE 'small' END"), computed('total', 'amount * quantity')] });
    const request = aggregateRequest({
      groupBy: [['band']],
      metrics: [{ kind: 'sum', path: ['total'] }, { kind: 'avg', path: ['total'] }],
      sort: [{ key: { kind: 'metric', metric: { kind: 'avg', path: ['total'] } }, direction: 'asc' }],
    });
    const compiled = compileAggregate(planAggregate(scope, request), vendor.dialect);
    const page = render(compiled.page, vendor.dialect.sql);
    const paging = vendor.name === 'mssql' ? [0, 20] : [20, 0];
    expect(page.params).toEqual([100, 'big', 'small', ...paging]);
    expect(page.text).toMatch(/ GROUP BY .g.\..g0. ORDER BY /);
    checkSyntax(vendor.syntax, page.text);
    if (!compiled.count) throw new Error('a grouped aggregate counts its groups');
    const count = render(compiled.count, vendor.dialect.sql);
    expect(count.params).toEqual([100, 'big', 'small']);
    expect(count.text).toMatch(/ GROUP BY .g.\..g0.\) /);
    checkSyntax(vendor.syntax, count.text);
    // A double is summed through the formulas' exact decimal step on every vendor.
    expect(render(compiled.page, vendor.dialect.sql).text).toMatch(/SUM\(CAST\(.g.\..v0. AS NUMERIC\)\)|SUM\(\(CASE WHEN .g.\..v0. = 0 |SUM\(CAST\(.g.\..v0. AS decimal\(38,15\)\)\)/);
  });
});
