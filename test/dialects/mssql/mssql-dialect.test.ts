/**
 * The SQL Server dialect without a server: the emitted T-SQL and its parameters for every
 * statement the dialect builds, syntax-checked by a T-SQL parser where the parser knows the
 * construct (tsql-parser.ts lists what it does not), and introspection from catalog rows.
 */
import { describe, expect, it } from 'vitest';
import { ident, join, raw, sql } from '../../../core/sql.ts';
import { COLUMNS, FOREIGN_KEYS, JSON_CHECKS, TABLES, UNIQUE_KEYS, jsonColumnsOf, nativeTypeOf } from '../../../dialects/mssql/mssql-introspector.ts';
import { catalogExecutor, catalogRows, config, dialect, renderMssql } from './mssql-model.ts';
import { parseTsql } from './tsql-parser.ts';

const orders = dialect.bind(config).tableRef('orders');
const col = (name: string) => ident('t0', name);

describe('names, parameters and paging', () => {
  it('quotes with brackets, doubling a closing bracket, and numbers parameters @p1…', () => {
    expect(dialect.name).toBe('mssql');
    expect(dialect.sql.quoteIdent('a]b[c')).toBe('[a]]b[c]');
    expect(dialect.sql.placeholder(1)).toBe('@p1');
    expect(renderMssql(sql`${ident('t0', 'x')} = ${1} AND ${ident('y')} = ${'a'}`)).toEqual({ text: '[t0].[x] = @p1 AND [y] = @p2', params: [1, 'a'] });
  });

  it('qualifies tables with the configured schema, dbo by default', () => {
    expect(renderMssql(orders).text).toBe('[dbo].[orders]');
    expect(renderMssql(dialect.bind({ vendor: 'mssql', schema: 'sales' }).tableRef('orders')).text).toBe('[sales].[orders]');
  });

  it('pages with OFFSET/FETCH after the ORDER BY, offset then limit', () => {
    const page = sql`SELECT ${col('id')} FROM ${orders} [t0] ORDER BY ${dialect.sql.orderTerm(col('id'), 'asc', false)}${dialect.sql.paginate(20, 40)}`;
    const rendered = renderMssql(page);
    expect(rendered).toEqual({
      text: 'SELECT [t0].[id] FROM [dbo].[orders] [t0] ORDER BY [t0].[id] ASC OFFSET @p1 ROWS FETCH NEXT @p2 ROWS ONLY',
      params: [40, 20],
    });
    parseTsql(rendered.text);
  });

  it('sorts NULLs last ascending and first descending', () => {
    expect(renderMssql(dialect.sql.orderTerm(col('note'), 'asc', true)).text).toBe('CASE WHEN [t0].[note] IS NULL THEN 1 ELSE 0 END, [t0].[note] ASC');
    expect(renderMssql(dialect.sql.orderTerm(col('note'), 'desc', true)).text).toBe('CASE WHEN [t0].[note] IS NULL THEN 0 ELSE 1 END, [t0].[note] DESC');
    // A column that cannot be NULL is sorted plainly, so an index serves it.
    expect(renderMssql(dialect.sql.orderTerm(col('id'), 'desc', false)).text).toBe('[t0].[id] DESC');
  });

  it('has the TDS parameter budget and MERGE on exactly the named columns', () => {
    expect(dialect.capabilities.maxParams).toBe(2000);
    expect(dialect.capabilities.maxParams).toBeLessThan(2100);
    expect(dialect.capabilities.upsertMatchesAnyUniqueKey).toBe(false);
    expect(dialect.capabilities.jsonArrivesAsText).toBe(true);
  });
});

describe('LIKE', () => {
  it('compares in code units with backslash escapes; case-insensitive lowers both sides', () => {
    expect(renderMssql(dialect.sql.like(col('name'), sql`${'Zo%'}`, false))).toEqual({
      text: "CAST([t0].[name] AS nvarchar(max)) COLLATE Latin1_General_100_BIN2 LIKE @p1 COLLATE Latin1_General_100_BIN2 ESCAPE '\\'",
      params: ['Zo%'],
    });
    expect(renderMssql(dialect.sql.like(col('name'), sql`${'a%'}`, true))).toEqual({
      text: "LOWER(CAST([t0].[name] AS nvarchar(max))) COLLATE Latin1_General_100_BIN2 LIKE LOWER(@p1) COLLATE Latin1_General_100_BIN2 ESCAPE '\\'",
      params: ['a%'],
    });
  });

  it('makes [ literal in bound patterns, keeping escaped characters as they are', () => {
    expect(renderMssql(dialect.sql.like(col('name'), sql`${'%[x]\\%\\[_'}`, false)).params).toEqual(['%\\[x]\\%\\[_']);
  });

  it('escapes [ in SQL when the pattern is an expression', () => {
    expect(renderMssql(dialect.sql.like(col('name'), col('pattern'), false)).text).toBe(
      "CAST([t0].[name] AS nvarchar(max)) COLLATE Latin1_General_100_BIN2 LIKE REPLACE([t0].[pattern], N'[', N'[[]') COLLATE Latin1_General_100_BIN2 ESCAPE '\\'",
    );
  });

  it('parses inside a WHERE clause', () => {
    parseTsql(renderMssql(sql`SELECT 1 FROM ${orders} [t0] WHERE ${dialect.sql.like(col('note'), sql`${'%x%'}`, true)}`).text);
  });
});

describe('values', () => {
  it('encodes booleans as 1/0, timestamps as Dates, json as text, bigint and decimal as text', () => {
    expect(dialect.sql.encodeValue('boolean', true)).toBe(1);
    expect(dialect.sql.encodeValue('boolean', false)).toBe(0);
    expect(dialect.sql.encodeValue('timestamp', '2026-11-22T10:00:00.123+01:00')).toEqual(new Date('2026-11-22T09:00:00.123Z'));
    expect(dialect.sql.encodeValue('timestamp', new Date(0))).toEqual(new Date(0));
    expect(dialect.sql.encodeValue('json', { a: [1, 'x'] })).toBe('{"a":[1,"x"]}');
    expect(dialect.sql.encodeValue('json', 'text')).toBe('"text"');
    expect(dialect.sql.encodeValue('bigint', 9007199254740991)).toBe('9007199254740991');
    expect(dialect.sql.encodeValue('bigint', '9223372036854775807')).toBe('9223372036854775807');
    expect(dialect.sql.encodeValue('decimal', 12.5)).toBe('12.5');
    expect(dialect.sql.encodeValue('decimal', '0.10')).toBe('0.10');
    expect(dialect.sql.encodeValue('integer', 7)).toBe(7);
    expect(dialect.sql.encodeValue('date', '2024-02-29')).toBe('2024-02-29');
    expect(dialect.sql.encodeValue('uuid', '6f1c2d1e-0000-4000-8000-000000000001')).toBe('6f1c2d1e-0000-4000-8000-000000000001');
    expect(dialect.sql.encodeValue('text', null)).toBeNull();
    expect(dialect.sql.encodeValue('text', undefined)).toBeNull();
  });
});

describe('UPDATE, DELETE and DDL', () => {
  it('updates through the alias named in FROM', () => {
    const assignments = join([sql`${ident('note')} = ${'x'}`, sql`${ident('quantity')} = ${2}`]);
    const rendered = renderMssql(dialect.sql.updateStatement(orders, 't0', assignments, sql`(${col('id')} = ${5})`));
    expect(rendered).toEqual({
      text: 'UPDATE [t0] SET [note] = @p1, [quantity] = @p2 FROM [dbo].[orders] AS [t0] WHERE ([t0].[id] = @p3)',
      params: ['x', 2, 5],
    });
    parseTsql(rendered.text);
  });

  it('deletes through the alias named in FROM', () => {
    const rendered = renderMssql(dialect.sql.deleteStatement(orders, 't0', sql`(${col('id')} = ${5}) AND (${col('status')} = ${'new'})`));
    expect(rendered).toEqual({
      text: 'DELETE [t0] FROM [dbo].[orders] AS [t0] WHERE ([t0].[id] = @p1) AND ([t0].[status] = @p2)',
      params: [5, 'new'],
    });
    parseTsql(rendered.text);
  });

  it('adds nullable columns of every neutral type', () => {
    const types = { integer: 'int', bigint: 'bigint', decimal: 'decimal(18,6)', float: 'float', boolean: 'bit', date: 'date', timestamp: 'datetime2(3)', time: 'time(3)', uuid: 'uniqueidentifier', text: 'nvarchar(max)', binary: 'varbinary(max)' } as const;
    for (const [type, native] of Object.entries(types)) {
      const rendered = renderMssql(dialect.sql.addColumnStatement(orders, 'extra col', type as keyof typeof types));
      expect(rendered).toEqual({ text: `ALTER TABLE [dbo].[orders] ADD [extra col] ${native} NULL`, params: [] });
      parseTsql(rendered.text);
    }
  });

  it('adds json columns as nvarchar(max) with an ISJSON check, which introspects as json', () => {
    const rendered = renderMssql(dialect.sql.addColumnStatement(orders, 'meta', 'json'));
    expect(rendered.text).toBe('ALTER TABLE [dbo].[orders] ADD [meta] nvarchar(max) NULL CHECK (ISJSON([meta]) = 1)');
    // The catalog's normalised definition of that constraint:
    expect(jsonColumnsOf([{ table_name: 'orders', definition: '(isjson([meta])=(1))' }])).toEqual(new Set(['orders.meta']));
  });

  it('drops a column after the CHECK and DEFAULT constraints on it', () => {
    const rendered = renderMssql(dialect.sql.dropColumnStatement(orders, 'meta'));
    expect(rendered.text.endsWith('EXEC sp_executesql @drop;\nALTER TABLE [dbo].[orders] DROP COLUMN [meta];')).toBe(true);
    expect(rendered.text).toContain('FROM sys.check_constraints');
    expect(rendered.text).toContain('FROM sys.default_constraints');
    expect(rendered.params).toEqual(['[dbo].[orders]', '[dbo].[orders]', '[dbo].[orders]', 'meta', '[dbo].[orders]', '[dbo].[orders]', 'meta']);
    parseTsql(renderMssql(sql`ALTER TABLE ${orders} DROP COLUMN ${ident('meta')}`).text);
  });
});

describe('row estimates', () => {
  it('reads the row count of the root table it is given from sys.partitions', async () => {
    const seen: { text: string; params: readonly unknown[] }[] = [];
    const db = { query: async (statement: { text: string; params: readonly unknown[] }) => { seen.push(statement); return { rows: [{ n: '45' }], affectedRows: 0 }; } };
    const estimate = renderMssql(sql`SELECT 1 FROM ${orders} ${ident('t0')} LEFT JOIN ${dialect.bind(config).tableRef('customers')} ${ident('t1')} ON 1 = 1 WHERE ${col('id')} > ${3}`);
    expect(await dialect.bind(config).estimateRows(db, estimate, 'orders')).toBe(45);
    expect(seen).toEqual([{
      text: 'SELECT SUM([p].[rows]) AS [n] FROM sys.partitions AS [p] WHERE [p].[object_id] = OBJECT_ID(@p1) AND [p].[index_id] IN (0, 1)',
      params: ['[dbo].[orders]'],
    }]);
    parseTsql(seen[0]?.text ?? '');
    const empty = { query: async () => ({ rows: [{ n: null }], affectedRows: 0 }) };
    expect(await dialect.bind(config).estimateRows(empty, estimate, 'orders')).toBeNull();
  });

  it('names the table with doubled brackets', async () => {
    let named: unknown;
    const db = { query: async (statement: { params: readonly unknown[] }) => { named = statement.params[0]; return { rows: [{ n: 1 }], affectedRows: 0 }; } };
    const bound = dialect.bind({ vendor: 'mssql', schema: 's s' });
    await bound.estimateRows(db, renderMssql(sql`SELECT 1 FROM ${bound.tableRef('we]ird')} [t0]`), 'we]ird');
    expect(named).toBe('[s s].[we]]ird]');
  });
});

describe('introspection', () => {
  it('runs five catalog queries bound to the schema, each valid T-SQL', async () => {
    const db = catalogExecutor();
    await dialect.bind({ vendor: 'mssql', schema: 'sales' }).introspect(db);
    expect(db.statements.map((s) => s.text)).toEqual([TABLES, COLUMNS, UNIQUE_KEYS, FOREIGN_KEYS, JSON_CHECKS]);
    for (const statement of db.statements) {
      expect(statement.params).toEqual(['sales']);
      expect(statement.text).toContain('s.name = @p1');
      parseTsql(statement.text);
    }
  });

  it('reads the fixture: types, lengths, identity, defaults, keys and foreign keys', async () => {
    const schema = await dialect.bind(config).introspect(catalogExecutor());
    expect(schema.tables.map((t) => [t.name, t.estimatedRows])).toEqual([['customers', 12], ['orders', 45], ['products', 3], ['regions', 3]]);
    const customers = schema.tables[0];
    expect(customers?.primaryKey).toEqual(['id']);
    expect(customers?.uniqueKeys).toEqual([
      { name: 'customers_email_key', columns: ['email'], primary: false },
      { name: 'customers_pkey', columns: ['id'], primary: true },
    ]);
    expect(customers?.foreignKeys).toEqual([{ name: 'customers_region_id_fkey', columns: ['region_id'], refTable: 'regions', refColumns: ['id'] }]);
    expect(customers?.columns.map((c) => [c.name, c.type, c.nativeType, c.nullable, c.maxLength, c.autoIncrement, c.defaultValue])).toEqual([
      ['id', 'integer', 'int', false, null, true, null],
      ['name', 'text', 'nvarchar(100)', false, 100, false, null],
      ['email', 'text', 'nvarchar(200)', false, 200, false, null],
      ['region_id', 'integer', 'int', true, null, false, null],
      ['vip', 'boolean', 'bit', false, null, false, '((0))'],
      ['birth_date', 'date', 'date', true, null, false, null],
      ['created_at', 'timestamp', 'datetime2(3)', false, null, false, '(sysutcdatetime())'],
    ]);
    const orders = schema.tables[1];
    const amount = orders?.columns.find((c) => c.name === 'amount');
    expect([amount?.type, amount?.nativeType, amount?.numericPrecision, amount?.numericScale]).toEqual(['decimal', 'decimal(12,2)', 12, 2]);
    const note = orders?.columns.find((c) => c.name === 'note');
    expect([note?.type, note?.nativeType, note?.maxLength]).toEqual(['text', 'nvarchar(max)', null]);
  });

  it('maps every SQL Server type; computed, period and rowversion columns are generated', async () => {
    const row = (name: string, type: string, extra: Record<string, unknown> = {}) => ({
      table_name: 't', column_name: name, column_id: 1, type_name: type, base_type: type, max_length: 0, precision: 0, scale: 0,
      is_nullable: true, is_identity: false, is_computed: false, generated_always_type: 0, default_value: null, ...extra,
    });
    const rows = {
      ...catalogRows,
      [TABLES]: [{ table_name: 't', row_count: null }],
      [COLUMNS]: [
        row('a', 'tinyint'), row('b', 'smallint'), row('c', 'bigint'), row('d', 'numeric', { precision: 18, scale: 4 }),
        row('e', 'money'), row('f', 'float'), row('g', 'real'), row('h', 'datetime'), row('i', 'smalldatetime'),
        row('j', 'datetimeoffset', { scale: 7 }), row('k', 'time', { scale: 3 }), row('l', 'uniqueidentifier'),
        row('m', 'char', { max_length: 2 }), row('n', 'varchar', { max_length: -1 }), row('o', 'nchar', { max_length: 20 }),
        row('p', 'text'), row('q', 'ntext'), row('r', 'varbinary', { max_length: 16 }), row('s', 'image'),
        row('u', 'timestamp', { is_nullable: false }), row('v', 'xml'), row('w', 'sql_variant'),
        row('x', 'int', { is_computed: true }), row('y', 'datetime2', { scale: 7, generated_always_type: 1 }),
        row('z', 'nvarchar', { max_length: -1 }), row('zz', 'phone', { base_type: 'nvarchar', max_length: 40 }),
      ],
      [UNIQUE_KEYS]: [], [FOREIGN_KEYS]: [],
      [JSON_CHECKS]: [{ table_name: 't', definition: '(isjson([z])>(0))' }],
    };
    const [table] = (await dialect.bind(config).introspect(catalogExecutor(rows))).tables;
    expect(table?.estimatedRows).toBe(-1);
    expect(table?.primaryKey).toEqual([]);
    expect(table?.columns.map((c) => `${c.name}:${c.type}:${c.nativeType}:${c.maxLength}:${c.generated}`)).toEqual([
      'a:integer:tinyint:null:false', 'b:integer:smallint:null:false', 'c:bigint:bigint:null:false', 'd:decimal:numeric(18,4):null:false',
      'e:decimal:money:null:false', 'f:float:float:null:false', 'g:float:real:null:false', 'h:timestamp:datetime:null:false',
      'i:timestamp:smalldatetime:null:false', 'j:timestamp:datetimeoffset(7):null:false', 'k:time:time(3):null:false',
      'l:uuid:uniqueidentifier:null:false', 'm:text:char(2):2:false', 'n:text:varchar(max):null:false', 'o:text:nchar(10):10:false',
      'p:text:text:null:false', 'q:text:ntext:null:false', 'r:binary:varbinary(16):16:false', 's:binary:image:null:false',
      'u:binary:timestamp:null:true', 'v:unknown:xml:null:false', 'w:unknown:sql_variant:null:false',
      'x:integer:int:null:true', 'y:timestamp:datetime2(7):null:true', 'z:json:nvarchar(max):null:false', 'zz:text:phone:20:false',
    ]);
  });

  it('spells native types as DDL does', () => {
    expect(nativeTypeOf('nvarchar', 'nvarchar', 100, 0, 0)).toBe('nvarchar(50)');
    expect(nativeTypeOf('varbinary', 'varbinary', -1, 0, 0)).toBe('varbinary(max)');
    expect(nativeTypeOf('decimal', 'decimal', 9, 12, 2)).toBe('decimal(12,2)');
    expect(nativeTypeOf('datetime2', 'datetime2', 7, 27, 3)).toBe('datetime2(3)');
    expect(nativeTypeOf('bit', 'bit', 1, 1, 0)).toBe('bit');
  });
});
