/**
 * SQL Server: a create and an update with the read of their row in one batch,
 * as golden text. The parser knows neither DECLARE nor OUTPUT, so the batch's read (the get-by-id
 * shape with its joins, computed column and visibility column) is parsed as T-SQL on its own,
 * and so is the UPDATE.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { checkFormula, emitFormula, parseFormula } from '../../../core/formula/index.ts';
import type { SchemaModel } from '../../../core/schema/model.ts';
import type { ComputedField, Predicate, ReadScope } from '../../../core/query/plan.ts';
import type { ReadRequest } from '../../../core/query/request.ts';
import { planWrittenRead } from '../../../core/query/written-row.ts';
import { compileUpdateParts } from '../../../core/query/compile-write.ts';
import { planUpdate } from '../../../core/query/plan-write.ts';
import type { CompiledSql } from '../../../core/sql.ts';
import type { Executor, QueryResult } from '../../../dialects/dialect.ts';
import { config, dialect, fixtureModel, scopeOf, shapeOf } from './mssql-model.ts';
import { parseTsql } from './tsql-parser.ts';

let model: SchemaModel;
beforeAll(async () => {
  model = await fixtureModel();
});

const bound = dialect.bind(config);

function request(overrides: Partial<ReadRequest> = {}): ReadRequest {
  return { page: 0, size: 20, sort: [], expand: [], fields: null, filters: [], count: null, ...overrides };
}

/** Records the batch and answers one row of the read. */
function recorder(): Executor & { readonly statements: CompiledSql[] } {
  const statements: CompiledSql[] = [];
  return {
    statements,
    async query(statement: CompiledSql): Promise<QueryResult> {
      statements.push(statement);
      return { rows: [{ c0: 1 }], affectedRows: 1 };
    },
  };
}

/** Orders through a view with a computed column, read by a caller whose policy keeps status 'new'. */
function ordersScope(): ReadScope {
  const orders = model.entities.get('orders');
  const status = orders?.fieldsByName.get('status');
  if (!orders || !status) throw new Error('no orders.status');
  const checked = checkFormula(parseFormula('amount * quantity'), { entity: orders, model });
  const computed: ComputedField = {
    fieldName: 'lineTotal', valueType: checked.type, refs: checked.refs, broken: null,
    emit: (columnRef, formula) => emitFormula(checked, { dialect: formula, columnRef }),
  };
  const policy: Predicate = { target: { kind: 'field', hops: [], field: status }, op: 'eq', value: 'new' };
  return { ...scopeOf(model, 'orders', { ...shapeOf(model, 'orders'), computed: [computed] }), policy: { rowPredicates: (entity) => (entity.name === 'orders' ? [policy] : []) } };
}

const READ =
  'SELECT [t0].[id] AS [c0], [t0].[amount] AS [c1], ((CAST([t0].[amount] AS float) * CAST([t0].[quantity] AS float))) AS [c2], [t1].[id] AS [c3], [t1].[name] AS [c4], ' +
  "[t0].[id] AS [written_key], CASE WHEN ([t0].[status] = @p{status}) THEN 1 ELSE 0 END AS [written_visible] " +
  'FROM [dbo].[orders] [t0] LEFT JOIN [dbo].[customers] [t1] ON [t1].[id] = [t0].[customer_id] WHERE [t0].[id] = ';

describe('SQL Server: the write and the read of its row in one batch', () => {
  it('a create is INSERT … OUTPUT INTO a typed table variable, then the read shape by that key', async () => {
    const scope = ordersScope();
    const planned = planWrittenRead(scope, request({ expand: [['customer']], fields: [['id'], ['amount'], ['lineTotal'], ['customer', 'name']] }), bound);
    const db = recorder();
    const rows = await bound.insertAndRead(db, { table: 'orders', columns: ['customer_id', 'amount', 'status'], rows: [[2, '12.5', 'new']], returning: 'id' }, planned.read);
    expect(rows).toEqual([{ c0: 1 }]);
    expect(db.statements).toHaveLength(1);
    const batch = db.statements[0];
    expect(batch?.text).toBe(
      'DECLARE @out TABLE ([returned] int);\n' +
        'INSERT INTO [dbo].[orders] ([customer_id], [amount], [status]) OUTPUT [INSERTED].[id] INTO @out ([returned]) VALUES (@p1, @p2, @p3);\n' +
        `${READ.replace('{status}', '4')}(SELECT [returned] FROM @out);`,
    );
    expect(batch?.params).toEqual([2, '12.5', 'new', 'new']);
    const read = batch?.text.split('\n')[2] ?? '';
    parseTsql(read.replace('(SELECT [returned] FROM @out);', '1'));
  });

  it('a create that writes the key turns IDENTITY_INSERT on around the INSERT only', async () => {
    const planned = planWrittenRead(scopeOf(model, 'regions'), request(), bound);
    const db = recorder();
    await bound.insertAndRead(db, { table: 'regions', columns: ['id', 'name'], rows: [[7, 'West']], returning: 'id' }, planned.read);
    const text = db.statements[0]?.text ?? '';
    expect(text.startsWith('DECLARE @out TABLE ([returned] int);\nDECLARE @identity bit')).toBe(true);
    expect(text).toContain('INSERT INTO [dbo].[regions] ([id], [name]) OUTPUT [INSERTED].[id] INTO @out ([returned]) VALUES (@p3, @p4);');
    expect(text.endsWith('\nSELECT [t0].[id] AS [c0], [t0].[name] AS [c1], [t0].[id] AS [written_key] FROM [dbo].[regions] [t0] WHERE [t0].[id] = (SELECT [returned] FROM @out);')).toBe(true);
  });

  it('a key of an alias type is left to the insert and the read-back statement', async () => {
    const planned = planWrittenRead(scopeOf(model, 'regions'), request(), bound);
    const read = { ...planned.read, key: { ...planned.read.key, nativeType: 'dbo.region_key' } };
    const db = recorder();
    expect(await bound.insertAndRead(db, { table: 'regions', columns: ['name'], rows: [['West']], returning: 'id' }, read)).toBeNull();
    expect(db.statements).toHaveLength(0);
  });

  it('an update is the UPDATE with its row policy, then the read shape by the key', async () => {
    const scope = ordersScope();
    const orders = model.entities.get('orders');
    const amount = orders?.fieldsByName.get('amount');
    if (!amount) throw new Error('no orders.amount');
    const planned = planWrittenRead(scope, request({ expand: [['customer']], fields: [['id'], ['amount'], ['lineTotal'], ['customer', 'name']] }), bound);
    const db = recorder();
    await bound.updateAndRead(db, compileUpdateParts(planUpdate(scope, 5, new Map([[amount, 99.5]])), bound, 5), planned.read);
    const batch = db.statements[0];
    const update = 'UPDATE [t0] SET [amount] = @p1 FROM [dbo].[orders] AS [t0] WHERE ([t0].[status] = @p2) AND ([t0].[id] = @p3)';
    expect(batch?.text).toBe(`${update};\n${READ.replace('{status}', '4')}@p5;`);
    expect(batch?.params).toEqual(['99.5', 'new', 5, 'new', 5]);
    parseTsql(update);
    parseTsql(`${READ.replace('{status}', '4')}@p5`);
  });
});
