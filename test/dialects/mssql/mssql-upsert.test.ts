/**
 * INSERT and MERGE batches for SQL Server: the emitted T-SQL per conflict mode, the outcome
 * counted from the OUTPUT rows, identity handling, and the split at the TDS parameter cap.
 * The executor here records statements and answers as SQL Server would ({action, n} rows);
 * MERGE, OUTPUT … INTO and DECLARE batches are beyond the T-SQL parser and checked as text.
 */
import { describe, expect, it } from 'vitest';
import type { CompiledSql } from '../../../core/sql.ts';
import type { Executor, QueryResult, UpsertStatement } from '../../../dialects/dialect.ts';
import { chunkRows, renderMssqlInsert, renderMssqlUpsert } from '../../../dialects/mssql/mssql-upsert.ts';
import { config, dialect, renderMssql } from './mssql-model.ts';

const products = dialect.bind(config).tableRef('products');

function upsert(overrides: Partial<UpsertStatement> = {}): UpsertStatement {
  return {
    table: 'products',
    columns: ['sku', 'name', 'price'],
    rows: [['KB-01', 'Keyboard', '59.90'], ['NEW-1', 'New', '1.50']],
    returning: 'id',
    conflictColumns: ['sku'],
    action: 'UPDATE',
    updateColumns: ['name', 'price'],
    columnTypes: ['text', 'text', 'decimal'],
    ...overrides,
  };
}

/** Records statements; answers each with `answer(statement)` rows. */
function recorder(answer: (statement: CompiledSql) => Record<string, unknown>[] = () => []): Executor & { statements: CompiledSql[] } {
  const statements: CompiledSql[] = [];
  return {
    statements,
    async query(statement: CompiledSql): Promise<QueryResult> {
      statements.push(statement);
      return { rows: answer(statement), affectedRows: 0 };
    },
  };
}

const HEAD = 'DECLARE @out TABLE ([action] nvarchar(10));\n';
const TAIL = '\nSELECT [action], COUNT(*) AS [n] FROM @out GROUP BY [action];';
const SOURCE = 'USING (VALUES (@p1, @p2, @p3), (@p4, @p5, @p6)) AS [s] ([sku], [name], [price]) ON [t].[sku] = [s].[sku]';
const INSERT_BRANCH = 'WHEN NOT MATCHED BY TARGET THEN INSERT ([sku], [name], [price]) VALUES ([s].[sku], [s].[name], [s].[price]) OUTPUT $action INTO @out ([action]);';

describe('upsert statements', () => {
  it('UPDATE: MERGE WITH (HOLDLOCK) on exactly the conflict columns, terminated by ;', () => {
    const rendered = renderMssql(renderMssqlUpsert(products, '[dbo].[products]', upsert()));
    expect(rendered.text).toBe(
      `${HEAD}MERGE INTO [dbo].[products] WITH (HOLDLOCK) AS [t] ${SOURCE} WHEN MATCHED THEN UPDATE SET [name] = [s].[name], [price] = [s].[price] ${INSERT_BRANCH}${TAIL}`,
    );
    expect(rendered.params).toEqual(['KB-01', 'Keyboard', '59.90', 'NEW-1', 'New', '1.50']);
  });

  it('IGNORE: no WHEN MATCHED clause', () => {
    const rendered = renderMssql(renderMssqlUpsert(products, '[dbo].[products]', upsert({ action: 'IGNORE' })));
    expect(rendered.text).toBe(`${HEAD}MERGE INTO [dbo].[products] WITH (HOLDLOCK) AS [t] ${SOURCE} ${INSERT_BRANCH}${TAIL}`);
  });

  it('UPDATE with nothing to overwrite is the IGNORE statement', () => {
    const rendered = renderMssql(renderMssqlUpsert(products, '[dbo].[products]', upsert({ updateColumns: [] })));
    expect(rendered.text).toBe(`${HEAD}MERGE INTO [dbo].[products] WITH (HOLDLOCK) AS [t] ${SOURCE} ${INSERT_BRANCH}${TAIL}`);
  });

  it('matches on every conflict column of a composite key', () => {
    const rendered = renderMssql(renderMssqlUpsert(products, '[dbo].[products]', upsert({ conflictColumns: ['sku', 'name'], updateColumns: ['price'] })));
    expect(rendered.text).toContain('ON [t].[sku] = [s].[sku] AND [t].[name] = [s].[name] WHEN MATCHED THEN UPDATE SET [price] = [s].[price] WHEN NOT MATCHED');
  });

  it('ERROR: a plain INSERT, every row counted as inserted', () => {
    const rendered = renderMssql(renderMssqlUpsert(products, '[dbo].[products]', upsert({ action: 'ERROR' })));
    expect(rendered.text).toBe(`${HEAD}INSERT INTO [dbo].[products] ([sku], [name], [price]) OUTPUT N'INSERT' INTO @out ([action]) VALUES (@p1, @p2, @p3), (@p4, @p5, @p6);${TAIL}`);
  });

  it('writing the key column turns IDENTITY_INSERT on when it is an identity, and off whatever happens', () => {
    const statement = upsert({ columns: ['id', 'sku'], rows: [[1, 'KB-01']], conflictColumns: ['id'], updateColumns: ['sku'] });
    const rendered = renderMssql(renderMssqlUpsert(products, '[dbo].[products]', statement));
    expect(rendered.text).toBe(`${HEAD}DECLARE @identity bit = CASE WHEN COLUMNPROPERTY(OBJECT_ID(@p1), @p2, 'IsIdentity') = 1 THEN 1 ELSE 0 END;
BEGIN TRY
  IF @identity = 1 SET IDENTITY_INSERT [dbo].[products] ON;
  MERGE INTO [dbo].[products] WITH (HOLDLOCK) AS [t] USING (VALUES (@p3, @p4)) AS [s] ([id], [sku]) ON [t].[id] = [s].[id] WHEN MATCHED THEN UPDATE SET [sku] = [s].[sku] WHEN NOT MATCHED BY TARGET THEN INSERT ([id], [sku]) VALUES ([s].[id], [s].[sku]) OUTPUT $action INTO @out ([action]);
  IF @identity = 1 SET IDENTITY_INSERT [dbo].[products] OFF;
END TRY
BEGIN CATCH
  IF @identity = 1 SET IDENTITY_INSERT [dbo].[products] OFF;
  THROW;
END CATCH;${TAIL}`);
    expect(rendered.params).toEqual(['[dbo].[products]', 'id', 1, 'KB-01']);
  });
});

describe('upsert outcomes', () => {
  const counts = (inserted: number, updated: number) => () => [
    ...(inserted ? [{ action: 'INSERT', n: inserted }] : []),
    ...(updated ? [{ action: 'UPDATE', n: updated }] : []),
  ];

  it('counts inserted and updated rows from OUTPUT $action', async () => {
    expect(await dialect.bind(config).upsert(recorder(counts(1, 1)), upsert())).toEqual({ inserted: 1, updated: 1, ignored: 0 });
  });

  it('counts rows not output as ignored in IGNORE mode', async () => {
    expect(await dialect.bind(config).upsert(recorder(counts(1, 0)), upsert({ action: 'IGNORE' }))).toEqual({ inserted: 1, updated: 0, ignored: 1 });
  });

  it('counts matched rows as updated when UPDATE has nothing to overwrite', async () => {
    expect(await dialect.bind(config).upsert(recorder(counts(1, 0)), upsert({ updateColumns: [] }))).toEqual({ inserted: 1, updated: 1, ignored: 0 });
  });

  it('counts every row of an ERROR insert', async () => {
    expect(await dialect.bind(config).upsert(recorder(counts(2, 0)), upsert({ action: 'ERROR' }))).toEqual({ inserted: 2, updated: 0, ignored: 0 });
  });

  it('propagates the database refusal', async () => {
    const failing: Executor = { query: async () => { throw Object.assign(new Error('Violation of UNIQUE KEY constraint'), { number: 2627 }); } };
    await expect(dialect.bind(config).upsert(failing, upsert({ action: 'ERROR' }))).rejects.toThrow('UNIQUE KEY');
  });
});

describe('the 2100-parameter cap', () => {
  const rows = Array.from({ length: 1000 }, (_, i) => [`SKU-${i}`, `Product ${i}`, `${i}.50`, i % 2 === 0 ? 1 : 0, '2026-01-01']);
  const wide = upsert({ columns: ['sku', 'name', 'price', 'active', 'added'], rows, updateColumns: ['name', 'price', 'active', 'added'] });

  it('core chunks a 1000-row × 5-column batch by maxParams into statements under 2100 parameters', async () => {
    const db = recorder((s) => [{ action: 'INSERT', n: (s.params.length) / 5 }]);
    // What core/write/bulk.ts does: rows per statement = floor(maxParams / columns).
    const perStatement = Math.floor(dialect.capabilities.maxParams / 5);
    expect(perStatement).toBe(400);
    let inserted = 0;
    for (const chunk of chunkRows(rows, 5, dialect.capabilities.maxParams)) inserted += (await dialect.bind(config).upsert(db, { ...wide, rows: chunk })).inserted;
    expect(db.statements.map((s) => s.params.length)).toEqual([2000, 2000, 1000]);
    expect(inserted).toBe(1000);
  });

  it('the dialect splits an oversized statement itself and sums the outcomes', async () => {
    const db = recorder((s) => [{ action: 'UPDATE', n: s.params.length / 5 }]);
    expect(await dialect.bind(config).upsert(db, wide)).toEqual({ inserted: 0, updated: 1000, ignored: 0 });
    expect(db.statements).toHaveLength(3);
    for (const statement of db.statements) {
      expect(statement.params.length).toBeLessThanOrEqual(2100);
      expect(statement.text.endsWith(TAIL)).toBe(true);
      expect(statement.text).toContain('OUTPUT $action INTO @out ([action]);');
    }
    // The first row of the second statement is row 400.
    expect(db.statements[1]?.params.slice(0, 5)).toEqual(['SKU-400', 'Product 400', '400.50', 1, '2026-01-01']);
  });

  it('keeps the identity wrapper within the cap', async () => {
    const db = recorder(() => []);
    const withId = upsert({ columns: ['id', 'sku', 'name', 'price', 'active'], rows: rows.map((r, i) => [i + 1, ...r.slice(0, 4)]), conflictColumns: ['id'], updateColumns: ['sku'] });
    await dialect.bind(config).upsert(db, withId);
    expect(db.statements.map((s) => s.params.length)).toEqual([2002, 2002, 1002]);
  });
});

describe('insert', () => {
  it('one row: INSERT … OUTPUT INSERTED.<key> INTO a table variable', async () => {
    const db = recorder(() => [{ returned: 7 }]);
    const ids = await dialect.bind(config).insert(db, { table: 'products', columns: ['sku', 'name'], rows: [['A', 'B']], returning: 'id' });
    expect(ids).toEqual([7]);
    expect(db.statements[0]).toEqual({
      text: `DECLARE @out TABLE ([__row] int, [returned] sql_variant);
INSERT INTO [dbo].[products] ([sku], [name]) OUTPUT 0, [INSERTED].[id] INTO @out ([__row], [returned]) VALUES (@p1, @p2);
SELECT [returned] FROM @out ORDER BY [__row];`,
      params: ['A', 'B'],
    });
  });

  it('several rows: MERGE … ON 1 = 0 so that OUTPUT can name the source row number', () => {
    const rendered = renderMssql(renderMssqlInsert(products, '[dbo].[products]', { table: 'products', columns: ['sku'], rows: [['A'], ['B']], returning: 'id' }));
    expect(rendered.text).toBe(`DECLARE @out TABLE ([__row] int, [returned] sql_variant);
MERGE INTO [dbo].[products] AS [t] USING (VALUES (0, @p1), (1, @p2)) AS [s] ([__row], [sku]) ON 1 = 0 WHEN NOT MATCHED BY TARGET THEN INSERT ([sku]) VALUES ([s].[sku]) OUTPUT [s].[__row], [INSERTED].[id] INTO @out ([__row], [returned]);
SELECT [returned] FROM @out ORDER BY [__row];`);
    expect(rendered.params).toEqual(['A', 'B']);
  });

  it('a row without columns is DEFAULT VALUES, one statement per row', async () => {
    const db = recorder(() => [{ returned: 1 }]);
    expect(await dialect.bind(config).insert(db, { table: 'products', columns: [], rows: [[], []], returning: 'id' })).toEqual([1, 1]);
    expect(db.statements.map((s) => s.text.split('\n')[1])).toEqual([
      'INSERT INTO [dbo].[products] OUTPUT 0, [INSERTED].[id] INTO @out ([__row], [returned]) DEFAULT VALUES;',
      'INSERT INTO [dbo].[products] OUTPUT 0, [INSERTED].[id] INTO @out ([__row], [returned]) DEFAULT VALUES;',
    ]);
  });

  it('a given key value is inserted under the identity guard', async () => {
    const db = recorder(() => [{ returned: 77 }]);
    await dialect.bind(config).insert(db, { table: 'regions', columns: ['id', 'name'], rows: [[77, 'x']], returning: 'id' });
    expect(db.statements[0]?.text).toContain('IF @identity = 1 SET IDENTITY_INSERT [dbo].[regions] ON;');
    expect(db.statements[0]?.params).toEqual(['[dbo].[regions]', 'id', 77, 'x']);
  });
});
