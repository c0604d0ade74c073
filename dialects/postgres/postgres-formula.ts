/**
 * Formulas on PostgreSQL with the agreed meaning (DESIGN §7). Every number is double precision
 * (columns are cast on read), so results match the evaluator bit for bit; NUMERIC appears only
 * where the agreed meaning is decimal (ROUND, MOD, CAST to INTEGER/BIGINT/DECIMAL), where a double
 * becomes its shortest digits rounded to 15 significant digits, as the evaluator's decimal.ts does.
 * Timestamps are `timestamp` (without zone) holding UTC.
 */
import { raw, sql, type Sql } from '../../core/sql.ts';
import type { CastTarget, CompareOp } from '../../core/formula/ast.ts';
import type { ExactNumberKind } from '../../core/formula/exact-compare.ts';
import type { FormulaDialect, FunctionEmitter } from '../../core/formula/formula-dialect.ts';
import type { FormulaType, ValueType } from '../../core/formula/types.ts';
import type { Field } from '../../core/schema/model.ts';
import { call, castAs, defineFormula, fifteenDigits, type OwnFormula } from '../standard-formula.ts';

const pgTypes: Readonly<Record<FormulaType, string>> = {
  text: 'text',
  number: 'double precision',
  boolean: 'boolean',
  date: 'date',
  timestamp: 'timestamp',
  null: 'text',
};

const double = (value: Sql): Sql => castAs(value, 'double precision');
/**
 * A double as the agreed exact decimal (fifteenDigits), read from its shortest digits: float8's text
 * with extra_float_digits = 1, the default. Not `float8::numeric`, which rounds the exact binary
 * value: a double printed `-0.008821000000000015` would be `-0.00882100000000001` here and
 * `-0.00882100000000002` on MariaDB. numeric's own log would count digits exactly but costs 12 µs
 * a row.
 */
const numeric = (value: Sql): Sql =>
  fifteenDigits(value, castAs(castAs(value, 'text'), 'numeric'), raw('0::numeric'), (digits) => castAs(digits, 'integer'));

/** A double as SQL integer, half away from zero (numeric → integer rounds so; float8 → integer rounds half-even). */
const integer = (value: Sql): Sql => castAs(numeric(value), 'integer');

/** The agreed text forms (values.ts): DateStyle-independent dates, ISO UTC timestamps. */
function toText(value: Sql, from: FormulaType): Sql {
  switch (from) {
    case 'text':
      return value;
    case 'date':
      return sql`to_char(${value}, 'YYYY-MM-DD')`;
    case 'timestamp':
      return sql`to_char(${value}, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
    default:
      // float8 output is the shortest round-trip form with extra_float_digits = 1 (the default).
      return castAs(value, 'text');
  }
}

function toNumber(value: Sql, from: FormulaType, sqlType: string): Sql {
  if (from === 'boolean') return double(castAs(castAs(value, 'integer'), sqlType));
  if (from === 'number') return double(castAs(numeric(value), sqlType));
  return double(castAs(value, sqlType));
}

function cast(value: Sql, from: FormulaType, target: CastTarget): Sql {
  switch (target.name) {
    case 'TEXT':
      return toText(value, from);
    case 'VARCHAR':
      return target.length === null ? toText(value, from) : castAs(toText(value, from), `varchar(${target.length})`);
    case 'INTEGER':
      return toNumber(value, from, 'integer');
    case 'BIGINT':
      return toNumber(value, from, 'bigint');
    case 'DECIMAL':
      return toNumber(value, from, target.precision === null ? 'numeric' : `numeric(${target.precision},${target.scale ?? 0})`);
    case 'BOOLEAN':
      return from === 'number' ? sql`(${value} <> 0)` : from === 'boolean' ? value : castAs(value, 'boolean');
    case 'DATE':
      return from === 'date' ? value : castAs(value, 'date');
    case 'TIMESTAMP':
      return from === 'timestamp' ? value : castAs(value, 'timestamp');
  }
}

const TEXT_TYPES = /^(text|character varying(\(\d+\))?|varchar(\(\d+\))?)$/i;
const DOUBLE_TYPES = /^(double precision|float8)$/i;
const ZONED_TYPES = /with time zone|timestamptz/i;

function fieldValue(column: Sql, field: Field, type: ValueType): Sql {
  switch (type) {
    case 'number':
      return DOUBLE_TYPES.test(field.nativeType) ? column : double(column);
    case 'timestamp':
      return ZONED_TYPES.test(field.nativeType) ? sql`(${column} AT TIME ZONE 'UTC')` : column;
    case 'text':
      // enum, uuid, time, json columns compare and concatenate as text.
      return TEXT_TYPES.test(field.nativeType) ? column : castAs(column, 'text');
    default:
      return column;
  }
}

/**
 * `column op literal` in the column's type (core/formula/exact-compare.ts says when): an int2 or
 * int4 column against a bigint, which it compares with directly; a decimal against a numeric of
 * the literal's shortest digits (what pg sends for a number). Measured: the 1M-order `status =
 * 'paid' OR amount > 1000` page ran 8,000–8,400 statements a second with `CAST(amount AS double
 * precision)`, 9,000–9,600 without (pgbench, one client).
 */
function compareInColumnType(op: CompareOp, column: Sql, kind: ExactNumberKind, literal: number): Sql {
  return sql`(${column} ${raw(op)} CAST(${literal} AS ${raw(kind === 'integer' ? 'bigint' : 'numeric')}))`;
}

/** SUBSTRING as `substr`, the spelling its plans know; a negative length gives '' (PostgreSQL would raise). */
const substring: FunctionEmitter = ([text, start, length]) => {
  if (!text || !start) throw new Error('SUBSTRING needs two arguments');
  if (!length) return sql`substr(${text}, ${integer(start)})`;
  const len = integer(length);
  return sql`substr(${text}, ${integer(start)}, (CASE WHEN ${len} < 0 THEN 0 ELSE ${len} END))`;
};

/** What PostgreSQL must state: the rest is standard SQL (dialects/standard-formula.ts). */
export const postgresOwnFormula: OwnFormula = {
  vendor: 'postgres',
  types: pgTypes,
  nameCase: 'lower',
  toText,
  utcNow: raw("(now() AT TIME ZONE 'UTC')"),
  // round(numeric) rounds half away from zero; round(double precision) would round half to even.
  exact: numeric,
  integer,
  fieldValue,
  cast,
};

/** PostgreSQL's own spellings where they are shorter than the standard ones and mean the same. */
export const postgresFormula: FormulaDialect = defineFormula({
  ...postgresOwnFormula,
  compareInColumnType,
  // Backslash is PostgreSQL's default LIKE escape character.
  like: (operand, pattern, negated) => sql`(${operand}${raw(negated ? ' NOT' : '')} LIKE ${pattern})`,
  functions: {
    CONCAT: call('concat'),
    TRIM: call('btrim'),
    SUBSTRING: substring,
    // PostgreSQL's greatest and least ignore NULLs themselves.
    GREATEST: call('greatest'),
    LEAST: call('least'),
  },
});
