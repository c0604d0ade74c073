/**
 * Formula SQL on SQL Server: the emitted T-SQL and parameters of every construct and every
 * whitelisted function with the agreed meaning (DESIGN §7), over an orders → customer → region
 * model with SQL Server column types; then every example of test/formula/examples.ts compiles
 * to a SELECT the T-SQL parser accepts. Values are checked on a server only by the live suite.
 */
import { describe, expect, it } from 'vitest';
import { checkFormula, compileFormula, functionRegistry, parseFormula } from '../../../core/formula/index.ts';
import { ident, render, sql, type Sql } from '../../../core/sql.ts';
import type { SchemaModel } from '../../../core/schema/model.ts';
import { mssqlFormula } from '../../../dialects/mssql/index.ts';
import { escapeBrackets } from '../../../dialects/mssql/mssql-formula.ts';
import { examples } from '../../formula/examples.ts';
import { entity, field } from '../../support/formula-fixtures.ts';
import { dialect } from './mssql-model.ts';
import { parseTsql } from './tsql-parser.ts';

const regions = entity('regions', 'regions', [field('id', 'id', 'integer', 'int'), field('name', 'name', 'text', 'nvarchar(50)')]);
const customers = entity('customers', 'customers', [
  field('id', 'id', 'integer', 'int'),
  field('name', 'name', 'text', 'nvarchar(100)'),
  field('regionId', 'region_id', 'integer', 'int'),
  field('vip', 'vip', 'boolean', 'bit'),
], [{ name: 'region', kind: 'manyToOne', field: 'regionId', target: 'regions', targetField: 'id' }]);
const orders = entity('orders', 'orders', [
  field('id', 'id', 'integer', 'int'),
  field('amount', 'amount', 'float', 'float'),
  field('qty', 'qty', 'integer', 'int'),
  field('price', 'price', 'decimal', 'decimal(10,2)'),
  field('note', 'note', 'text', 'nvarchar(max)'),
  field('code', 'code', 'text', 'varchar(20)'),
  field('paid', 'paid', 'boolean', 'bit'),
  field('orderDate', 'order_date', 'date', 'date'),
  field('createdAt', 'created_at', 'timestamp', 'datetime2(3)'),
  field('shippedAt', 'shipped_at', 'timestamp', 'datetimeoffset(3)'),
  field('legacyAt', 'legacy_at', 'timestamp', 'datetime'),
  field('customerId', 'customer_id', 'integer', 'int'),
  field('token', 'token', 'uuid', 'uniqueidentifier'),
], [{ name: 'customer', kind: 'manyToOne', field: 'customerId', target: 'customers', targetField: 'id' }]);
const model: SchemaModel = { entities: new Map([['orders', orders], ['customers', customers], ['regions', regions]]), skipped: [] };
const context = { entity: orders, model };

const aliases = ['o', 'c', 'r'];
const byDepth = [orders, customers, regions];
function columnRef(path: readonly string[]): Sql {
  const depth = path.length - 1;
  const column = byDepth[depth]?.fields.find((f) => f.name === path[path.length - 1])?.column;
  if (!column) throw new Error(`no column for ${path.join('.')}`);
  return ident(aliases[depth] ?? 'x', column);
}

const emitted = (text: string) => render(compileFormula(text, { ...context, dialect: mssqlFormula, columnRef }).sql, dialect.sql);
const predicate = (text: string) => render(compileFormula(text, { ...context, dialect: mssqlFormula, columnRef, as: 'predicate' }).sql, dialect.sql);
const selectOf = (expr: string) => `SELECT ${expr} AS [v] FROM [dbo].[orders] [o] LEFT JOIN [dbo].[customers] [c] ON [c].[id] = [o].[customer_id] LEFT JOIN [dbo].[regions] [r] ON [r].[id] = [c].[region_id]`;

const F = (p: number) => `CAST(@p${p} AS float)`;
const T = (p: number) => `CAST(@p${p} AS nvarchar(max))`;
const INT = (x: string) => `CAST(ROUND(CAST(${x} AS decimal(38,15)), 0) AS int)`;
const NUMBER_TEXT = (x: string) =>
  `(SELECT LOWER(CASE WHEN CAST(FORMAT([n].[v], 'G15', 'en-US') AS float) = [n].[v] THEN FORMAT([n].[v], 'G15', 'en-US') WHEN CAST(FORMAT([n].[v], 'G16', 'en-US') AS float) = [n].[v] THEN FORMAT([n].[v], 'G16', 'en-US') ELSE FORMAT([n].[v], 'G17', 'en-US') END) FROM (VALUES (${x})) AS [n]([v]))`;
const BIN = 'COLLATE Latin1_General_100_BIN2';
const SC = 'COLLATE Latin1_General_100_CS_AS_SC';

/** [formula, T-SQL, params] — value position unless stated. */
const GOLDEN: readonly (readonly [string, string, unknown[]])[] = [
  // literals and fields
  ["'a'", T(1), ['a']],
  ['2.5', F(1), [2.5]],
  ['TRUE', 'CAST(1 AS bit)', []],
  ['NULL', 'CAST(NULL AS nvarchar(max))', []],
  ['amount', '[o].[amount]', []],
  ['qty', 'CAST([o].[qty] AS float)', []],
  ['price', 'CAST([o].[price] AS float)', []],
  ['note', '[o].[note]', []],
  ['code', 'CAST([o].[code] AS nvarchar(max))', []],
  ['token', 'LOWER(CAST([o].[token] AS nvarchar(36)))', []],
  ['createdAt', '[o].[created_at]', []],
  ['shippedAt', "CAST(SWITCHOFFSET([o].[shipped_at], '+00:00') AS datetime2)", []],
  ['legacyAt', 'CAST([o].[legacy_at] AS datetime2(3))', []],
  ['customer.region.name', '[r].[name]', []],
  // operators
  ['amount + qty * 2', `([o].[amount] + (CAST([o].[qty] AS float) * ${F(1)}))`, [2]],
  ['7 / 2', `(${F(1)} / NULLIF(${F(2)}, 0))`, [7, 2]],
  ['-qty', '(- CAST([o].[qty] AS float))', []],
  ["note || '!'", `(CAST([o].[note] AS nvarchar(max)) + ${T(1)})`, ['!']],
  ['qty = 3', `(CASE WHEN (CAST([o].[qty] AS float) = ${F(1)}) THEN CAST(1 AS bit) WHEN NOT ((CAST([o].[qty] AS float) = ${F(2)})) THEN CAST(0 AS bit) END)`, [3, 3]],
  ["customer.name > 'Z'", `(CASE WHEN (([c].[name] + NCHAR(0)) ${BIN} > (${T(1)} + NCHAR(0)) ${BIN}) THEN CAST(1 AS bit) WHEN NOT ((([c].[name] + NCHAR(0)) ${BIN} > (${T(2)} + NCHAR(0)) ${BIN})) THEN CAST(0 AS bit) END)`, ['Z', 'Z']],
  ['paid = TRUE', '(CASE WHEN ([o].[paid] = CAST(1 AS bit)) THEN CAST(1 AS bit) WHEN NOT (([o].[paid] = CAST(1 AS bit))) THEN CAST(0 AS bit) END)', []],
  ['createdAt > orderDate', '(CASE WHEN ([o].[created_at] > CAST([o].[order_date] AS datetime2(3))) THEN CAST(1 AS bit) WHEN NOT (([o].[created_at] > CAST([o].[order_date] AS datetime2(3)))) THEN CAST(0 AS bit) END)', []],
  ['NOT paid', '(CASE WHEN (NOT ([o].[paid] = 1)) THEN CAST(1 AS bit) WHEN NOT ((NOT ([o].[paid] = 1))) THEN CAST(0 AS bit) END)', []],
  ["CASE WHEN paid THEN 'y' END", `(CASE WHEN ([o].[paid] = 1) THEN ${T(1)} END)`, ['y']],
  // functions
  ["CONCAT(note, NULL, '|', qty)", `CONCAT(CAST([o].[note] AS nvarchar(max)), CAST(NULL AS nvarchar(max)), ${T(1)}, ${NUMBER_TEXT('CAST([o].[qty] AS float)')})`, ['|']],
  ['CONCAT(note)', "COALESCE([o].[note], N'')", []],
  ['UPPER(note)', 'UPPER([o].[note])', []],
  ['LOWER(code)', 'LOWER(CAST([o].[code] AS nvarchar(max)))', []],
  ['TRIM(note)', 'LTRIM(RTRIM([o].[note]))', []],
  ['LENGTH(note)', `CAST(LEN(([o].[note] + N'x') ${SC}) - 1 AS float)`, []],
  ['SUBSTRING(note, 2)', `SUBSTRING(([o].[note]) ${SC}, ${INT(F(1))}, 1073741823)`, [2]],
  ['SUBSTRING(note, 2, 3)', `SUBSTRING(([o].[note]) ${SC}, ${INT(F(1))}, (CASE WHEN ${INT(F(2))} < 0 THEN 0 ELSE ${INT(F(3))} END))`, [2, 3, 3]],
  ["REPLACE(note, 'l', 'L')", `REPLACE(([o].[note]) ${SC}, ${T(1)}, ${T(2)})`, ['l', 'L']],
  ['ABS(amount)', 'ABS([o].[amount])', []],
  ['ROUND(amount)', 'CAST(ROUND(CAST([o].[amount] AS decimal(38,15)), 0) AS float)', []],
  ['ROUND(amount, 2)', `CAST(ROUND(CAST([o].[amount] AS decimal(38,15)), ${INT(F(1))}) AS float)`, [2]],
  ['CEIL(amount)', 'CEILING([o].[amount])', []],
  ['FLOOR(amount)', 'FLOOR([o].[amount])', []],
  ['MOD(qty, 3)', `CAST((CAST(CAST([o].[qty] AS float) AS decimal(38,15)) % NULLIF(CAST(${F(1)} AS decimal(38,15)), 0)) AS float)`, [3]],
  ['GREATEST(amount, qty)', '(SELECT MAX([g].[v]) FROM (VALUES ([o].[amount]), (CAST([o].[qty] AS float))) AS [g]([v]))', []],
  ['LEAST(orderDate, createdAt)', '(SELECT MIN([g].[v]) FROM (VALUES (CAST([o].[order_date] AS datetime2(3))), ([o].[created_at])) AS [g]([v]))', []],
  ["GREATEST(note, 'b')", `(SELECT TOP 1 [g].[v] FROM (VALUES ([o].[note]), (${T(1)})) AS [g]([v]) WHERE [g].[v] IS NOT NULL ORDER BY ([g].[v] + NCHAR(0)) ${BIN} DESC)`, ['b']],
  ['LEAST(paid, customer.vip)', '(SELECT CAST(MIN(CAST([g].[v] AS tinyint)) AS bit) FROM (VALUES ([o].[paid]), ([c].[vip])) AS [g]([v]))', []],
  ['COALESCE(customer.vip, paid)', 'COALESCE([c].[vip], [o].[paid])', []],
  ['NULLIF(qty, 3)', `NULLIF(CAST([o].[qty] AS float), ${F(1)})`, [3]],
  ["NULLIF(note, 'x')", `(CASE WHEN (([o].[note] + NCHAR(0)) ${BIN} = (${T(1)} + NCHAR(0)) ${BIN}) THEN NULL ELSE [o].[note] END)`, ['x']],
  ['NOW()', 'SYSUTCDATETIME()', []],
  ['CURRENT_TIMESTAMP', 'SYSUTCDATETIME()', []],
  ['CURRENT_DATE', 'CAST(SYSUTCDATETIME() AS date)', []],
  // CAST
  ['CAST(amount AS TEXT)', NUMBER_TEXT('[o].[amount]'), []],
  ['CAST(paid AS TEXT)', "(CASE [o].[paid] WHEN 1 THEN N'true' WHEN 0 THEN N'false' END)", []],
  ['CAST(orderDate AS TEXT)', 'CONVERT(nvarchar(10), [o].[order_date], 23)', []],
  ['CAST(createdAt AS TEXT)', "(STUFF(CONVERT(nvarchar(23), CAST([o].[created_at] AS datetime2(3)), 121), 11, 1, N'T') + N'Z')", []],
  ['CAST(note AS VARCHAR(5))', `LEFT(([o].[note]) ${SC}, @p1)`, [5]],
  ['CAST(amount AS INTEGER)', `CAST(${INT('[o].[amount]')} AS float)`, []],
  ['CAST(amount AS BIGINT)', 'CAST(CAST(ROUND(CAST([o].[amount] AS decimal(38,15)), 0) AS bigint) AS float)', []],
  ["CAST('42' AS INTEGER)", `CAST(CAST(${T(1)} AS int) AS float)`, ['42']],
  ['CAST(paid AS INTEGER)', 'CAST(CAST([o].[paid] AS int) AS float)', []],
  ['CAST(amount AS DECIMAL(5,2))', 'CAST(CAST(CAST([o].[amount] AS decimal(38,15)) AS decimal(5,2)) AS float)', []],
  ['CAST(amount AS DECIMAL)', 'CAST(CAST([o].[amount] AS decimal(38,15)) AS float)', []],
  ["CAST('1.005' AS DECIMAL(4,2))", `CAST(CAST(${T(1)} AS decimal(4,2)) AS float)`, ['1.005']],
  ['CAST(amount AS BOOLEAN)', 'CAST([o].[amount] AS bit)', []],
  ["CAST(note AS BOOLEAN)", "(SELECT CASE WHEN [b].[w] IN (N't', N'tr', N'tru', N'true', N'y', N'ye', N'yes', N'on', N'1') THEN CAST(1 AS bit) WHEN [b].[w] IN (N'f', N'fa', N'fal', N'fals', N'false', N'n', N'no', N'of', N'off', N'0') THEN CAST(0 AS bit) ELSE CAST(N'x' + [b].[w] AS bit) END FROM (VALUES (LOWER(LTRIM(RTRIM([o].[note]))))) AS [b]([w]))", []],
  ["CAST('2024-2-3' AS DATE)", `CAST(CAST(${T(1)} AS datetimeoffset) AS date)`, ['2024-2-3']],
  ['CAST(createdAt AS DATE)', 'CAST([o].[created_at] AS date)', []],
  ['CAST(orderDate AS TIMESTAMP)', 'CAST([o].[order_date] AS datetime2(3))', []],
  ["CAST('2024-01-02 03:04:05' AS TIMESTAMP)", `CAST(CAST(${T(1)} AS datetimeoffset) AS datetime2(3))`, ['2024-01-02 03:04:05']],
  // implicit conversions
  ["createdAt < '2024-03-01 10:20:31'", `(CASE WHEN ([o].[created_at] < CAST(CAST(${T(1)} AS datetimeoffset) AS datetime2(3))) THEN CAST(1 AS bit) WHEN NOT (([o].[created_at] < CAST(CAST(${T(2)} AS datetimeoffset) AS datetime2(3)))) THEN CAST(0 AS bit) END)`, ['2024-03-01 10:20:31', '2024-03-01 10:20:31']],
  ['qty + NULL', '(CAST([o].[qty] AS float) + CAST(NULL AS float))', []],
];

describe('SQL Server formula SQL', () => {
  it.each(GOLDEN)('%s', (formula, text, params) => {
    expect(emitted(formula)).toEqual({ text, params });
    parseTsql(selectOf(text));
  });

  it('covers every whitelisted function', () => {
    const called = new Set(GOLDEN.map(([f]) => /^([A-Z_]+)(\(|$)/.exec(f)?.[1]).filter(Boolean));
    for (const name of functionRegistry.keys()) expect(called, name).toContain(name);
  });

  it('writes boolean formulas as predicates in WHERE and bit values elsewhere', () => {
    expect(predicate('paid AND qty > 1')).toEqual({ text: `(([o].[paid] = 1) AND (CAST([o].[qty] AS float) > ${F(1)}))`, params: [1] });
    expect(predicate('customer.vip')).toEqual({ text: '([c].[vip] = 1)', params: [] });
    expect(predicate('COALESCE(customer.vip, FALSE)')).toEqual({ text: '(COALESCE([c].[vip], CAST(0 AS bit)) = 1)', params: [] });
    parseTsql(`SELECT 1 AS [v] FROM [dbo].[orders] [o] LEFT JOIN [dbo].[customers] [c] ON [c].[id] = [o].[customer_id] WHERE ${predicate('paid AND qty > 1').text}`);
  });

  it('LIKE compares in code units and keeps [ literal', () => {
    expect(emitted("code LIKE 'A[B]%'").params).toEqual(['A\\[B]%', 'A\\[B]%']);
    expect(predicate("code NOT LIKE 'ab%'")).toEqual({
      text: `((CAST([o].[code] AS nvarchar(max))) ${BIN} NOT LIKE (${T(1)}) ${BIN} ESCAPE '\\')`,
      params: ['ab%'],
    });
    expect(predicate("note LIKE code || '%'").text).toBe(
      `(([o].[note]) ${BIN} LIKE (REPLACE((CAST(CAST([o].[code] AS nvarchar(max)) AS nvarchar(max)) + ${T(1)}), N'[', N'[[]')) ${BIN} ESCAPE '\\')`,
    );
    expect(escapeBrackets('a[b\\[c\\%[')).toBe('a\\[b\\[c\\%\\[');
  });

  it('nests CONCAT beyond its 254 arguments', () => {
    const text = emitted(`CONCAT(${Array.from({ length: 300 }, (_, i) => `'${i}'`).join(', ')})`).text;
    expect(text.match(/CONCAT\(/g)).toHaveLength(2);
    parseTsql(selectOf(text));
  });

  it('never uses the built-ins SQL Server 2016 lacks', () => {
    for (const [formula] of examples) {
      const text = emitted(formula).text;
      expect(text, formula).not.toMatch(/\b(GREATEST|LEAST|TRIM|CONCAT_WS|STRING_AGG)\(/);
      expect(text, formula).not.toMatch(/\|\||\bTRUE\b|\bFALSE\b|::/);
    }
  });
});

describe('every example compiles to T-SQL the parser accepts', () => {
  it.each(examples.map(([formula]) => formula))('%s', (formula) => {
    const checked = checkFormula(parseFormula(formula), context);
    const compiled = emitted(formula);
    const placeholders = compiled.text.match(/@p\d+/g) ?? [];
    expect(placeholders.length).toBe(compiled.params.length);
    parseTsql(selectOf(compiled.text));
    if (checked.type === 'boolean') parseTsql(`${selectOf('1')} WHERE ${predicate(formula).text}`);
  });
});

describe('the dialect exposes the formula hooks', () => {
  it('is the SQL Server formula dialect', () => {
    expect(dialect.formula.vendor).toBe('mssql');
    expect(render(dialect.formula.literal('x', 'text'), dialect.sql).text).toBe(T(1));
    expect(render(sql`${dialect.formula.nullLiteral('timestamp')}`, dialect.sql).text).toBe('CAST(NULL AS datetime2(3))');
  });
});
