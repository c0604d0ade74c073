/**
 * Reads compiled for SQL Server by core (planRead + compileRead) over the fixture's model as the
 * introspector builds it: joins for expansions, filters, sorts with NULL ordering, OFFSET/FETCH
 * paging, the count and estimate statements, and a computed column emitted through the
 * SQL Server formula dialect. Every statement is parsed as T-SQL.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { checkFormula, emitFormula, parseFormula } from '../../../core/formula/index.ts';
import type { SchemaModel } from '../../../core/schema/model.ts';
import type { ComputedField } from '../../../core/query/plan.ts';
import { planRead } from '../../../core/query/plan-read.ts';
import { compileRead } from '../../../core/query/compile-read.ts';
import type { ReadRequest } from '../../../core/query/request.ts';
import { config, dialect, fixtureModel, renderMssql, scopeOf, shapeOf } from './mssql-model.ts';
import { parseTsql } from './tsql-parser.ts';

let model: SchemaModel;
beforeAll(async () => {
  model = await fixtureModel();
});

function request(overrides: Partial<ReadRequest>): ReadRequest {
  return { page: 0, size: 20, sort: [], expand: [], fields: null, filters: [], count: null, ...overrides };
}

describe('reads compiled for SQL Server', () => {
  it('builds the model from the catalog: fields, relationships, unique keys', () => {
    const orders = model.entities.get('orders');
    expect(orders?.fields.map((f) => f.name)).toEqual(['id', 'customerId', 'productId', 'quantity', 'amount', 'status', 'note', 'orderedAt', 'createdAt', 'updatedAt']);
    expect([...(orders?.relationships.keys() ?? [])]).toEqual(['customer', 'product']);
    expect(model.entities.get('customers')?.uniqueKeys.map((k) => k.name)).toEqual(['customers_email_key', 'customers_pkey']);
  });

  it('expands many-to-one relationships with LEFT JOINs, filters through them and pages', () => {
    const plan = planRead(scopeOf(model, 'orders'), request({
      page: 2,
      size: 5,
      expand: [['customer'], ['customer', 'region']],
      fields: [['id'], ['amount'], ['customer', 'name'], ['customer', 'region', 'name']],
      filters: [{ path: ['customer', 'region', 'name'], op: 'eq', value: 'North' }, { path: ['note'], op: 'contains', value: '50%' }],
      sort: [{ path: ['customer', 'name'], direction: 'desc' }],
    }));
    const compiled = compileRead(plan, dialect.bind(config));
    const page = renderMssql(compiled.page);
    expect(page.text).toBe(
      'SELECT [t0].[id] AS [c0], [t0].[amount] AS [c1], [t1].[id] AS [c2], [t1].[name] AS [c3], [t2].[id] AS [c4], [t2].[name] AS [c5] ' +
        'FROM [dbo].[orders] [t0] LEFT JOIN [dbo].[customers] [t1] ON [t1].[id] = [t0].[customer_id] LEFT JOIN [dbo].[regions] [t2] ON [t2].[id] = [t1].[region_id] ' +
        "WHERE ([t2].[name] = @p1) AND (CAST([t0].[note] AS nvarchar(max)) COLLATE Latin1_General_100_BIN2 LIKE @p2 COLLATE Latin1_General_100_BIN2 ESCAPE '\\') " +
        'ORDER BY CASE WHEN [t1].[name] IS NULL THEN 0 ELSE 1 END, [t1].[name] DESC, [t0].[id] ASC ' +
        'OFFSET @p3 ROWS FETCH NEXT @p4 ROWS ONLY',
    );
    expect(page.params).toEqual(['North', '%50\\%%', 10, 5]);
    parseTsql(page.text);

    const count = renderMssql(compiled.count);
    expect(count.text).toBe(
      'SELECT COUNT(*) AS [total] FROM [dbo].[orders] [t0] LEFT JOIN [dbo].[customers] [t1] ON [t1].[id] = [t0].[customer_id] LEFT JOIN [dbo].[regions] [t2] ON [t2].[id] = [t1].[region_id] ' +
        "WHERE ([t2].[name] = @p1) AND (CAST([t0].[note] AS nvarchar(max)) COLLATE Latin1_General_100_BIN2 LIKE @p2 COLLATE Latin1_General_100_BIN2 ESCAPE '\\')",
    );
    parseTsql(count.text);
    const estimate = renderMssql(compiled.estimate);
    expect(estimate.text.startsWith('SELECT 1 FROM [dbo].[orders] [t0] LEFT JOIN')).toBe(true);
    parseTsql(estimate.text);
  });

  it('binds filter values through encodeValue: booleans 1/0, timestamps as Dates, IN lists, NULL tests', () => {
    const plan = planRead(scopeOf(model, 'customers'), request({
      fields: [['id']],
      filters: [
        { path: ['vip'], op: 'eq', value: 'true' },
        { path: ['createdAt'], op: 'gte', value: '2026-01-01T00:00:00Z' },
        { path: ['regionId'], op: 'in', value: '1,2' },
        { path: ['birthDate'], op: 'isNull', value: 'false' },
        { path: ['name'], op: 'ilike', value: 'a%' },
      ],
    }));
    const page = renderMssql(compileRead(plan, dialect.bind(config)).page);
    expect(page.text).toBe(
      'SELECT [t0].[id] AS [c0] FROM [dbo].[customers] [t0] WHERE ([t0].[vip] = @p1) AND ([t0].[created_at] >= @p2) AND ([t0].[region_id] IN (@p3, @p4)) ' +
        "AND ([t0].[birth_date] IS NOT NULL) AND (LOWER(CAST([t0].[name] AS nvarchar(max))) COLLATE Latin1_General_100_BIN2 LIKE LOWER(@p5) COLLATE Latin1_General_100_BIN2 ESCAPE '\\') " +
        'ORDER BY [t0].[id] ASC OFFSET @p6 ROWS FETCH NEXT @p7 ROWS ONLY',
    );
    expect(page.params).toEqual([1, new Date('2026-01-01T00:00:00.000Z'), 1, 2, 'a%', 0, 20]);
    parseTsql(page.text);
  });

  it('selects and sorts a computed column emitted by the SQL Server formula dialect', () => {
    const orders = model.entities.get('orders');
    if (!orders) throw new Error('no orders');
    const checked = checkFormula(parseFormula('amount / quantity'), { entity: orders, model });
    const computed: ComputedField = {
      fieldName: 'unitPrice', valueType: checked.type, refs: checked.refs, broken: null,
      emit: (columnRef, formula) => emitFormula(checked, { dialect: formula, columnRef }),
    };
    const shape = { ...shapeOf(model, 'orders'), computed: [computed] };
    const plan = planRead(scopeOf(model, 'orders', shape), request({ fields: [['id'], ['unitPrice']], sort: [{ path: ['unitPrice'], direction: 'asc' }], size: 3 }));
    const page = renderMssql(compileRead(plan, dialect.bind(config)).page);
    const expr = '(CAST([t0].[amount] AS float) / NULLIF(CAST([t0].[quantity] AS float), 0))';
    expect(page.text).toBe(
      `SELECT [t0].[id] AS [c0], (${expr}) AS [c1] FROM [dbo].[orders] [t0] ` +
        `ORDER BY CASE WHEN (${expr}) IS NULL THEN 1 ELSE 0 END, (${expr}) ASC, [t0].[id] ASC OFFSET @p1 ROWS FETCH NEXT @p2 ROWS ONLY`,
    );
    parseTsql(page.text);
  });
});
