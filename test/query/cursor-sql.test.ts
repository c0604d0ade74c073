/**
 * Golden SQL of cursor pages (core/query/cursor.ts, seek.ts) for PostgreSQL, MySQL and SQL Server:
 * the first page reads size + 1 rows and returns every sort key under its own alias; a later page
 * adds the seek after the cursor row as an OR of AND-ed predicates with the NULL ordering of
 * DESIGN §12 (a NULL cursor value on a descending key seeks IS NOT NULL; an ascending nullable key
 * continues into its NULLs; the NOT NULL id needs no NULL branch). Each statement is also parsed
 * as its vendor's SQL.
 */
import { describe, expect, it } from 'vitest';
import { compileRead } from '../../core/query/compile-read.ts';
import { planCursor, queryIdentity } from '../../core/query/cursor.ts';
import { signCursor } from '../../core/query/cursor-token.ts';
import { parseReadRequest, type QueryParams } from '../../core/query/parse-request.ts';
import { planRead } from '../../core/query/plan-read.ts';
import { render, type Sql } from '../../core/sql.ts';
import { expectSql, golden, scopeOf, VENDORS, type PerVendor, type Vendor } from './fixture.ts';

const SECRET = 'golden-test-secret-0123456789abcdef';

/** The orders page of GET /orders?{query}, continuing after a cursor of `values` when given. */
function cursorPage(vendor: Vendor, query: QueryParams, values?: unknown[]): Sql {
  const scope = scopeOf('orders');
  const identity = queryIdentity(scope, parseReadRequest(query));
  const request = parseReadRequest(values ? { ...query, after: signCursor(SECRET, identity, values) } : query);
  return compileRead(planCursor(planRead(scope, request), request, identity, SECRET), vendor.dialect).page;
}

const COLUMNS = {
  postgres: '"t0"."id" AS "c0", "t0"."customer_id" AS "c1", "t0"."amount" AS "c2", "t0"."quantity" AS "c3", "t0"."status" AS "c4", "t0"."note" AS "c5", "t0"."ordered_at" AS "c6"',
  mysql: '`t0`.`id` AS `c0`, `t0`.`customer_id` AS `c1`, `t0`.`amount` AS `c2`, `t0`.`quantity` AS `c3`, `t0`.`status` AS `c4`, `t0`.`note` AS `c5`, `t0`.`ordered_at` AS `c6`',
  mssql: '[t0].[id] AS [c0], [t0].[customer_id] AS [c1], [t0].[amount] AS [c2], [t0].[quantity] AS [c3], [t0].[status] AS [c4], [t0].[note] AS [c5], [t0].[ordered_at] AS [c6]',
};

const FIRST_PAGE: PerVendor = {
  postgres: golden([`SELECT ${COLUMNS.postgres}, "t0"."id" AS "k0"`, 'FROM "public"."orders" "t0"', 'ORDER BY "t0"."id" ASC', 'LIMIT $1 OFFSET $2'], [11, 0]),
  mysql: golden([`SELECT ${COLUMNS.mysql}, \`t0\`.\`id\` AS \`k0\``, 'FROM `orders` `t0`', 'ORDER BY `t0`.`id` ASC', 'LIMIT ? OFFSET ?'], [11, 0]),
  mssql: golden(
    [`SELECT ${COLUMNS.mssql}, [t0].[id] AS [k0]`, 'FROM [dbo].[orders] [t0]', 'ORDER BY [t0].[id] ASC', 'OFFSET @p1 ROWS FETCH NEXT @p2 ROWS ONLY'],
    [0, 11],
  ),
};

const SEEK_PAGE: PerVendor = {
  postgres: golden(
    [
      `SELECT ${COLUMNS.postgres}, "t0"."note" AS "k0", "t1"."name" AS "k1", "t0"."id" AS "k2"`,
      'FROM "public"."orders" "t0" LEFT JOIN "public"."customers" "t1" ON "t1"."id" = "t0"."customer_id"',
      'WHERE ((("t0"."note" > $1)) OR (("t0"."note" IS NULL))',
      'OR (("t0"."note" = $2) AND ("t1"."name" IS NOT NULL))',
      'OR (("t0"."note" = $3) AND ("t1"."name" IS NULL) AND ("t0"."id" > $4)))',
      'ORDER BY "t0"."note" ASC NULLS LAST, "t1"."name" DESC NULLS FIRST, "t0"."id" ASC',
      'LIMIT $5 OFFSET $6',
    ],
    ['x', 'x', 'x', 7, 11, 0],
  ),
  mysql: golden(
    [
      `SELECT ${COLUMNS.mysql}, \`t0\`.\`note\` AS \`k0\`, \`t1\`.\`name\` AS \`k1\`, \`t0\`.\`id\` AS \`k2\``,
      'FROM `orders` `t0` LEFT JOIN `customers` `t1` ON `t1`.`id` = `t0`.`customer_id`',
      'WHERE (((`t0`.`note` > ?)) OR ((`t0`.`note` IS NULL))',
      'OR ((`t0`.`note` = ?) AND (`t1`.`name` IS NOT NULL))',
      'OR ((`t0`.`note` = ?) AND (`t1`.`name` IS NULL) AND (`t0`.`id` > ?)))',
      'ORDER BY `t0`.`note` IS NULL, `t0`.`note` ASC, `t1`.`name` IS NOT NULL, `t1`.`name` DESC, `t0`.`id` ASC',
      'LIMIT ? OFFSET ?',
    ],
    ['x', 'x', 'x', 7, 11, 0],
  ),
  mssql: golden(
    [
      `SELECT ${COLUMNS.mssql}, [t0].[note] AS [k0], [t1].[name] AS [k1], [t0].[id] AS [k2]`,
      'FROM [dbo].[orders] [t0] LEFT JOIN [dbo].[customers] [t1] ON [t1].[id] = [t0].[customer_id]',
      'WHERE ((([t0].[note] > @p1)) OR (([t0].[note] IS NULL))',
      'OR (([t0].[note] = @p2) AND ([t1].[name] IS NOT NULL))',
      'OR (([t0].[note] = @p3) AND ([t1].[name] IS NULL) AND ([t0].[id] > @p4)))',
      'ORDER BY CASE WHEN [t0].[note] IS NULL THEN 1 ELSE 0 END, [t0].[note] ASC, CASE WHEN [t1].[name] IS NULL THEN 0 ELSE 1 END, [t1].[name] DESC, [t0].[id] ASC',
      'OFFSET @p5 ROWS FETCH NEXT @p6 ROWS ONLY',
    ],
    ['x', 'x', 'x', 7, 0, 11],
  ),
};

/**
 * A descending key whose cursor value is not NULL, filters kept: the NULLs came first and are not
 * sought again. The timestamp key is read as text with every fractional digit (exactText). The
 * seek opens with `ordered_at <= v`, the range every branch implies, so an index starts there.
 */
const DESC_FILTERED_PAGE: PerVendor = {
  postgres: golden(
    [
      'SELECT "t0"."id" AS "c0", CAST("t0"."ordered_at" AS text) AS "k0", "t0"."id" AS "k1"',
      'FROM "public"."orders" "t0"',
      'WHERE ("t0"."status" = $1) AND ("t0"."ordered_at" <= $2) AND ((("t0"."ordered_at" < $3)) OR (("t0"."ordered_at" = $4) AND ("t0"."id" > $5)))',
      'ORDER BY "t0"."ordered_at" DESC NULLS FIRST, "t0"."id" ASC',
      'LIMIT $6 OFFSET $7',
    ],
    ['paid', '2026-01-10T00:30:00.000Z', '2026-01-10T00:30:00.000Z', '2026-01-10T00:30:00.000Z', 3, 6, 0],
  ),
  mysql: golden(
    [
      "SELECT `t0`.`id` AS `c0`, DATE_FORMAT(`t0`.`ordered_at`, '%Y-%m-%d %H:%i:%s.%f') AS `k0`, `t0`.`id` AS `k1`",
      'FROM `orders` `t0`',
      'WHERE (`t0`.`status` = ?) AND (`t0`.`ordered_at` <= ?) AND (((`t0`.`ordered_at` < ?)) OR ((`t0`.`ordered_at` = ?) AND (`t0`.`id` > ?)))',
      'ORDER BY `t0`.`ordered_at` IS NOT NULL, `t0`.`ordered_at` DESC, `t0`.`id` ASC',
      'LIMIT ? OFFSET ?',
    ],
    ['paid', '2026-01-10 00:30:00.000', '2026-01-10 00:30:00.000', '2026-01-10 00:30:00.000', 3, 6, 0],
  ),
  mssql: golden(
    [
      'SELECT [t0].[id] AS [c0], CONVERT(varchar(40), [t0].[ordered_at], 126) AS [k0], [t0].[id] AS [k1]',
      'FROM [dbo].[orders] [t0]',
      'WHERE ([t0].[status] = @p1) AND ([t0].[ordered_at] <= @p2) AND ((([t0].[ordered_at] < @p3)) OR (([t0].[ordered_at] = @p4) AND ([t0].[id] > @p5)))',
      'ORDER BY CASE WHEN [t0].[ordered_at] IS NULL THEN 0 ELSE 1 END, [t0].[ordered_at] DESC, [t0].[id] ASC',
      'OFFSET @p6 ROWS FETCH NEXT @p7 ROWS ONLY',
    ],
    // tedious binds a Date for a timestamp (the mssql dialect's encodeValue).
    ['paid', new Date('2026-01-10T00:30:00.000Z'), new Date('2026-01-10T00:30:00.000Z'), new Date('2026-01-10T00:30:00.000Z'), 3, 0, 6],
  ),
};

/** The seek values of a cursor whose timestamp has microseconds: every digit is bound, none cut to milliseconds. */
const MICROSECOND_VALUES: Readonly<Record<Vendor['name'], unknown[]>> = {
  postgres: ['paid', '2026-01-10T00:30:00.123456Z', '2026-01-10T00:30:00.123456Z', '2026-01-10T00:30:00.123456Z', 3, 6, 0],
  mysql: ['paid', '2026-01-10 00:30:00.123456', '2026-01-10 00:30:00.123456', '2026-01-10 00:30:00.123456', 3, 6, 0],
  // Finer than milliseconds binds as datetime2 text; a Date would be cut to datetime2(3).
  mssql: ['paid', '2026-01-10 00:30:00.123456', '2026-01-10 00:30:00.123456', '2026-01-10 00:30:00.123456', 3, 0, 6],
};

describe.each(VENDORS)('cursor page SQL on $name', (vendor) => {
  it('the first page reads size + 1 rows and names every sort key', () => {
    expectSql(vendor, cursorPage(vendor, { paging: 'cursor', size: '10' }), FIRST_PAGE[vendor.name]);
  });

  it('a later page seeks after the cursor row with the NULL ordering of §12, values bound', () => {
    expectSql(vendor, cursorPage(vendor, { sort: 'note,asc;customer.name,desc', size: '10' }, ['x', null, 7]), SEEK_PAGE[vendor.name]);
  });

  it('filters stay beside the seek; a descending non-NULL value seeks below it', () => {
    const query = { sort: 'orderedAt,desc', size: '5', fields: 'id', 'filter[status.eq]': 'paid' };
    expectSql(vendor, cursorPage(vendor, query, ['2026-01-10T00:30:00.000Z', 3]), DESC_FILTERED_PAGE[vendor.name]);
  });

  it('a timestamp cursor value keeps its microseconds when bound', () => {
    const query = { sort: 'orderedAt,desc', size: '5', fields: 'id', 'filter[status.eq]': 'paid' };
    const page = render(cursorPage(vendor, query, ['2026-01-10T00:30:00.123456Z', 3]), vendor.dialect.sql);
    expect(page.params).toEqual(MICROSECOND_VALUES[vendor.name]);
  });

  it('a cursor value that does not fit its key type is refused, never bound', () => {
    expect(() => cursorPage(vendor, { sort: 'quantity,asc' }, ['1; DROP TABLE orders', 1])).toThrow('cursor does not match this query');
    for (const stamp of ['2026-02-30T00:00:00.123456Z', '2026-01-10T00:30:00.123456Z; --', '2026-01-10T00:30:00.1234567890Z']) {
      expect(() => cursorPage(vendor, { sort: 'orderedAt,desc' }, [stamp, 1]), stamp).toThrow('cursor does not match this query');
    }
  });
});
