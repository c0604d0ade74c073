/**
 * Formulas on SQL Server with the agreed meaning (DESIGN §7). Numbers are float (double
 * precision); text is nvarchar; booleans are bit values, turned into predicates with `= 1` and
 * back with CASE; timestamps are datetime2 holding UTC. Works on SQL Server 2016+: no TRIM,
 * GREATEST/LEAST or CONCAT_WS is used.
 *
 * Collations: the column's collation (often case- and accent-insensitive) must not change a
 * formula's meaning, so
 * - comparisons and LIKE compare under Latin1_General_100_BIN2 (code units; the same order as
 *   the evaluator's code points outside the surrogate range), on both sides so that neither
 *   side's collation wins. Text comparisons append NCHAR(0) to both sides: SQL Server pads the
 *   shorter string with spaces before comparing ('a' = 'a ' is true there), and a trailing
 *   NCHAR(0), which sorts below the space, keeps 'a' < 'a ' as PostgreSQL has it;
 * - LENGTH, SUBSTRING, VARCHAR(n) and REPLACE work under Latin1_General_100_CS_AS_SC: a
 *   supplementary-character (_SC) collation counts an emoji as one character, and CS_AS makes
 *   REPLACE case- and accent-sensitive. Only this one explicit collation ever reaches a value,
 *   so two explicit collations never meet (SQL Server would refuse the expression).
 *
 * Exact steps (ROUND, MOD, CAST to INTEGER/BIGINT/DECIMAL) go through decimal(38,15): float →
 * decimal keeps 15 decimal places, which is the evaluator's 15 significant digits for numbers
 * below 10, close to it above, and overflows from 1e23 (an error, as for any out-of-range cast).
 */
import { join, raw, sql, type Sql, type SqlPart } from '../../core/sql.ts';
import type { CastTarget } from '../../core/formula/ast.ts';
import type { FormulaDialect, FunctionEmitter } from '../../core/formula/formula-dialect.ts';
import type { FormulaType, ValueType } from '../../core/formula/types.ts';
import type { Field } from '../../core/schema/model.ts';
import { arg, call, castAs, defineFormula, type OwnFormula } from '../standard-formula.ts';

export const VALUE_COLLATION = 'Latin1_General_100_CS_AS_SC';
export const BINARY_COLLATION = 'Latin1_General_100_BIN2';

const sqlTypes: Readonly<Record<FormulaType, string>> = {
  text: 'nvarchar(max)',
  number: 'float',
  boolean: 'bit',
  date: 'date',
  timestamp: 'datetime2(3)',
  null: 'nvarchar(max)',
};

const float = (value: Sql): Sql => castAs(value, 'float');
const exact = (value: Sql): Sql => castAs(value, 'decimal(38,15)');
/** A float as SQL integer, half away from zero, range-checked by the cast (error 8115). */
const integer = (value: Sql, type = 'int'): Sql => castAs(sql`ROUND(${exact(value)}, 0)`, type);
const characters = (text: Sql): Sql => sql`(${text}) COLLATE ${raw(VALUE_COLLATION)}`;
const binary = (text: Sql): Sql => sql`(${text}) COLLATE ${raw(BINARY_COLLATION)}`;
const padded = (text: Sql): Sql => binary(sql`${text} + NCHAR(0)`);
const bit = (value: boolean): Sql => raw(value ? 'CAST(1 AS bit)' : 'CAST(0 AS bit)');

/**
 * The evaluator's number text (PostgreSQL's float8 output): the shortest of 15, 16 or 17
 * significant digits that reads back as the same double, exponent form from 1e15 and below
 * 1e-4 ('1e+15', '1e-05'). .NET's "G" format (FORMAT) switches to exponents at the same points
 * for 15 digits; CAST(float AS nvarchar) would keep only 6 digits.
 */
function numberText(value: Sql): Sql {
  const g = (digits: number): Sql => raw(`FORMAT([n].[v], 'G${digits}', 'en-US')`);
  return sql`(SELECT LOWER(CASE WHEN CAST(${g(15)} AS float) = [n].[v] THEN ${g(15)} WHEN CAST(${g(16)} AS float) = [n].[v] THEN ${g(16)} ELSE ${g(17)} END) FROM (VALUES (${value})) AS [n]([v]))`;
}

/** The agreed text forms (core/formula/values.ts). */
function toText(value: Sql, from: FormulaType): Sql {
  switch (from) {
    case 'text':
      return value;
    case 'number':
      return numberText(value);
    case 'boolean':
      return sql`(CASE ${value} WHEN 1 THEN N'true' WHEN 0 THEN N'false' END)`;
    case 'date':
      return sql`CONVERT(nvarchar(10), ${value}, 23)`;
    case 'timestamp':
      // Style 121 prints 'yyyy-mm-dd hh:mi:ss.mmm' with all three digits for datetime2(3).
      return sql`(STUFF(CONVERT(nvarchar(23), ${castAs(value, 'datetime2(3)')}, 121), 11, 1, N'T') + N'Z')`;
    case 'null':
      return castAs(value, 'nvarchar(max)');
  }
}

/** PostgreSQL's boolean input; anything else fails to convert ('x' + w is never a bit). */
function textToBoolean(value: Sql): Sql {
  const truthy = "N't', N'tr', N'tru', N'true', N'y', N'ye', N'yes', N'on', N'1'";
  const falsy = "N'f', N'fa', N'fal', N'fals', N'false', N'n', N'no', N'of', N'off', N'0'";
  return sql`(SELECT CASE WHEN [b].[w] IN (${raw(truthy)}) THEN CAST(1 AS bit) WHEN [b].[w] IN (${raw(falsy)}) THEN CAST(0 AS bit) ELSE CAST(N'x' + [b].[w] AS bit) END FROM (VALUES (LOWER(LTRIM(RTRIM(${value}))))) AS [b]([w]))`;
}

/**
 * Text read as a date or timestamp: through datetimeoffset, which accepts ISO text with or
 * without a zone; the cast to datetime2/date then keeps the written local time, ignoring the
 * offset as SQL `timestamp` input does.
 */
const fromText = (value: Sql, type: 'date' | 'datetime2(3)'): Sql => castAs(castAs(value, 'datetimeoffset'), type);

function decimalType(precision: number | null, scale: number | null): string | null {
  if (precision === null) return null;
  const p = Math.min(38, Math.max(1, precision));
  return `decimal(${p},${Math.min(p, scale ?? 0)})`;
}

function toNumber(value: Sql, from: FormulaType, target: CastTarget & { name: 'INTEGER' | 'BIGINT' | 'DECIMAL' }): Sql {
  const intType = target.name === 'BIGINT' ? 'bigint' : 'int';
  const decimal = target.name === 'DECIMAL' ? decimalType(target.precision, target.scale) : null;
  switch (from) {
    case 'number':
      if (target.name !== 'DECIMAL') return float(integer(value, intType));
      return float(decimal ? castAs(exact(value), decimal) : exact(value));
    case 'boolean':
      return float(decimal ? castAs(castAs(value, 'int'), decimal) : castAs(value, 'int'));
    case 'text':
      if (target.name !== 'DECIMAL') return float(castAs(value, intType));
      return float(decimal ? castAs(value, decimal) : value);
    default:
      return float(value);
  }
}

function cast(value: Sql, from: FormulaType, target: CastTarget): Sql {
  switch (target.name) {
    case 'TEXT':
      return toText(value, from);
    case 'VARCHAR':
      return target.length === null ? toText(value, from) : sql`LEFT(${characters(toText(value, from))}, ${target.length})`;
    case 'INTEGER':
    case 'BIGINT':
    case 'DECIMAL':
      return toNumber(value, from, target);
    case 'BOOLEAN':
      if (from === 'boolean') return value;
      // float → bit: any nonzero value is 1.
      return from === 'text' ? textToBoolean(value) : castAs(value, 'bit');
    case 'DATE':
      if (from === 'date') return value;
      return from === 'text' ? fromText(value, 'date') : castAs(value, 'date');
    case 'TIMESTAMP':
      if (from === 'timestamp') return value;
      return from === 'text' ? fromText(value, 'datetime2(3)') : castAs(value, 'datetime2(3)');
  }
}

function coerce(value: Sql, from: FormulaType, to: ValueType): Sql {
  if (to === 'text') return toText(value, from);
  if (from === to) return value;
  if (to === 'date' || to === 'timestamp') return cast(value, from, { name: to === 'date' ? 'DATE' : 'TIMESTAMP' });
  return castAs(value, sqlTypes[to]);
}

const FLOAT_TYPES = /^float(\(53\))?$/i;
const NTEXT_TYPES = /^n(var)?char\b/i;

function fieldValue(column: Sql, field: Field, type: ValueType): Sql {
  const native = field.nativeType.toLowerCase();
  switch (type) {
    case 'number':
      return FLOAT_TYPES.test(native) ? column : float(column);
    case 'text':
      // uniqueidentifier prints in upper case; PostgreSQL (and the wire format) use lower case.
      if (native === 'uniqueidentifier') return sql`LOWER(CAST(${column} AS nvarchar(36)))`;
      return NTEXT_TYPES.test(native) ? column : castAs(column, 'nvarchar(max)');
    case 'timestamp':
      if (native.startsWith('datetimeoffset')) return castAs(sql`SWITCHOFFSET(${column}, '+00:00')`, 'datetime2');
      return native.startsWith('datetime2') ? column : castAs(column, 'datetime2(3)');
    default:
      return column;
  }
}

function isParam(part: SqlPart | undefined): part is { kind: 'param'; value: unknown } {
  return part?.kind === 'param';
}

/** The text, parameter and identifier parts of a fragment, nested fragments flattened. */
function leaves(fragment: Sql): SqlPart[] {
  return fragment.parts.flatMap((part) => (part.kind === 'fragment' ? leaves(part.fragment) : [part]));
}

/** `[` escaped as `\[` in a LIKE pattern held in `text` (SQL Server reads `[…]` as a character class). */
export function escapeBrackets(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] ?? '';
    if (ch === '\\' && i + 1 < text.length) {
      out += ch + (text[i + 1] ?? '');
      i++;
    } else out += ch === '[' ? '\\[' : ch;
  }
  return out;
}

/**
 * A LIKE pattern with `[` made literal, as it is on the other vendors. A bound pattern (alone or
 * as a typed literal) is rewritten before binding; any other expression gets `[` → `[[]` in SQL.
 */
export function likePattern(pattern: Sql): Sql {
  const parts = leaves(pattern);
  const params = parts.filter(isParam);
  const around = parts.map((p) => (p.kind === 'text' ? p.text : p.kind === 'param' ? '' : '?')).join('');
  const literal = around === '' || around === 'CAST( AS nvarchar(max))';
  if (literal && params.length === 1 && typeof params[0]?.value === 'string') {
    return { parts: parts.map((p) => (isParam(p) ? { kind: 'param', value: escapeBrackets(p.value as string) } : p)) };
  }
  return sql`REPLACE(${pattern}, N'[', N'[[]')`;
}

/** CONCAT takes 2 to 254 arguments; the first is made nvarchar(max) so nothing is cut at 4000. */
const concatAll: FunctionEmitter = (args) => {
  const [first, ...rest] = args;
  if (!first) throw new Error('CONCAT needs an argument');
  if (rest.length === 0) return sql`COALESCE(${first}, N'')`;
  const chunks: Sql[] = [castAs(first, 'nvarchar(max)')];
  for (let i = 0; i < rest.length; i += 252) chunks.push(join(rest.slice(i, i + 252)));
  return chunks.slice(1).reduce((acc, chunk) => sql`CONCAT(${acc}, ${chunk})`, chunks[0] as Sql);
};

const substring: FunctionEmitter = (args) => {
  const text = characters(arg(args, 0, 'SUBSTRING'));
  const start = integer(arg(args, 1, 'SUBSTRING'));
  const length = args[2];
  // SQL Server needs a length: nvarchar(max) holds at most 2^30 - 1 characters.
  if (!length) return sql`SUBSTRING(${text}, ${start}, 1073741823)`;
  const len = integer(length);
  return sql`SUBSTRING(${text}, ${start}, (CASE WHEN ${len} < 0 THEN 0 ELSE ${len} END))`;
};

const round: FunctionEmitter = (args) => {
  const digits = args[1] ? integer(args[1]) : raw('0');
  return float(sql`ROUND(${exact(arg(args, 0, 'ROUND'))}, ${digits})`);
};

/** `%` on decimals keeps the dividend's sign, as PostgreSQL's mod does; float has no `%`. */
const mod: FunctionEmitter = (args) => float(sql`(${exact(arg(args, 0, 'MOD'))} % NULLIF(${exact(arg(args, 1, 'MOD'))}, 0))`);

/**
 * GREATEST/LEAST ignoring NULLs on every version (the 2022 built-ins are not used): the largest
 * of a VALUES list. bit has no MAX; text is ordered in code units like the evaluator.
 */
function extreme(direction: 'MAX' | 'MIN'): FunctionEmitter {
  return (args, _argTypes, resultType) => {
    const rows = join(args.map((a) => sql`(${a})`));
    const source = sql`FROM (VALUES ${rows}) AS [g]([v])`;
    if (resultType === 'text') {
      const order = raw(direction === 'MAX' ? 'DESC' : 'ASC');
      return sql`(SELECT TOP 1 [g].[v] ${source} WHERE [g].[v] IS NOT NULL ORDER BY ${padded(raw('[g].[v]'))} ${order})`;
    }
    if (resultType === 'boolean') return sql`(SELECT CAST(${raw(direction)}(CAST([g].[v] AS tinyint)) AS bit) ${source})`;
    return sql`(SELECT ${raw(direction)}([g].[v]) ${source})`;
  };
}

const nullif: FunctionEmitter = (args, _argTypes, resultType) => {
  const a = arg(args, 0, 'NULLIF');
  const b = arg(args, 1, 'NULLIF');
  return resultType === 'text' ? sql`(CASE WHEN (${padded(a)} = ${padded(b)}) THEN NULL ELSE ${a} END)` : sql`NULLIF(${a}, ${b})`;
};

/** What SQL Server must state: the rest is standard SQL (dialects/standard-formula.ts). */
export const mssqlOwnFormula: OwnFormula = {
  vendor: 'mssql',
  types: sqlTypes,
  toText,
  utcNow: raw('SYSUTCDATETIME()'),
  exact,
  integer: (value) => integer(value),
  textOrder: padded,
  fieldValue,
  cast,
};

export const mssqlFormula: FormulaDialect = defineFormula({
  ...mssqlOwnFormula,
  booleanLiteral: bit,
  // `+` propagates NULL (CONCAT_NULL_YIELDS_NULL is always on); nvarchar(max) keeps long results whole.
  concat: (left, right) => sql`(${castAs(left, 'nvarchar(max)')} + ${right})`,
  like: (operand, pattern, negated) =>
    sql`(${binary(operand)}${raw(negated ? ' NOT' : '')} LIKE ${binary(likePattern(pattern))} ESCAPE '\\')`,
  coerce,
  predicateToValue: (predicate) => sql`(CASE WHEN ${predicate} THEN CAST(1 AS bit) WHEN NOT (${predicate}) THEN CAST(0 AS bit) END)`,
  valueToPredicate: (value) => sql`(${value} = 1)`,
  functions: {
    CONCAT: concatAll,
    // TRIM() exists from 2017 only; both trim spaces alone, as the agreed meaning does.
    TRIM: (args) => sql`LTRIM(RTRIM(${arg(args, 0, 'TRIM')}))`,
    // LEN ignores trailing spaces: count one more character, then subtract it.
    LENGTH: (args) => float(sql`LEN(${characters(sql`${arg(args, 0, 'LENGTH')} + N'x'`)}) - 1`),
    SUBSTRING: substring,
    REPLACE: (args) => sql`REPLACE(${characters(arg(args, 0, 'REPLACE'))}, ${arg(args, 1, 'REPLACE')}, ${arg(args, 2, 'REPLACE')})`,
    ROUND: round,
    CEIL: call('CEILING'),
    MOD: mod,
    GREATEST: extreme('MAX'),
    LEAST: extreme('MIN'),
    COALESCE: (args) => (args.length === 1 ? arg(args, 0, 'COALESCE') : call('COALESCE')(args, [], 'null')),
    NULLIF: nullif,
  },
});
