/**
 * Formulas on MySQL 8 / MariaDB with the agreed meaning (DESIGN §7). Numbers are DOUBLE
 * (`+ 0e0` turns any numeric into one); DECIMAL appears only where the agreed meaning is decimal
 * (ROUND, MOD, CAST to INTEGER/BIGINT/DECIMAL) because ROUND on a DOUBLE rounds half to even.
 * Timestamps are DATETIME holding UTC (sessions run in UTC). Text comparisons and LIKE use
 * utf8mb4_bin so that a `_ci` column collation does not change what a formula means.
 */
import { join, raw, sql, type Sql } from '../../core/sql.ts';
import type { CastTarget } from '../../core/formula/ast.ts';
import type { FormulaDialect, FunctionEmitter } from '../../core/formula/formula-dialect.ts';
import type { FormulaType, ValueType } from '../../core/formula/types.ts';
import type { Field } from '../../core/schema/model.ts';

/** Exact decimal wide enough for any double the evaluator keeps (15 significant digits). */
const DECIMAL = 'DECIMAL(65,15)';

const castAs = (value: Sql, type: string): Sql => sql`CAST(${value} AS ${raw(type)})`;
const double = (value: Sql): Sql => sql`(${value} + 0e0)`;
/**
 * A double as an exact decimal of 15 significant digits, as PostgreSQL's float8 → numeric
 * conversion (and the evaluator's decimal.ts) keeps them.
 */
const decimal = (value: Sql): Sql =>
  sql`(CASE WHEN ${value} = 0 THEN ${castAs(value, DECIMAL)} ELSE ROUND(${castAs(value, DECIMAL)}, 14 - FLOOR(LOG10(ABS(${value})))) END)`;
const binText = (value: Sql): Sql => sql`(${castAs(value, 'CHAR CHARACTER SET utf8mb4')} COLLATE utf8mb4_bin)`;
/** A double as SQL integer, half away from zero (ROUND on DECIMAL rounds so). */
const integer = (value: Sql): Sql => castAs(sql`ROUND(${decimal(value)})`, 'SIGNED');

/**
 * A double as PostgreSQL's float8 text (the agreed form): MySQL prints the same shortest digits
 * but writes exponents as `1e15` / `1e-5` where the agreed form has `1e+15` / `1e-05`.
 */
function numberText(value: Sql): Sql {
  // String functions, not REGEXP_REPLACE: MySQL (ICU, `$1`) and MariaDB (PCRE, `\\1`) spell
  // back references differently.
  const text = castAs(value, 'CHAR');
  const exponent = sql`SUBSTRING_INDEX(${text}, 'e', -1)`;
  const negative = sql`LEFT(${exponent}, 1) = '-'`;
  const digits = sql`(CASE WHEN ${negative} THEN SUBSTRING(${exponent}, 2) ELSE ${exponent} END)`;
  const withExponent = sql`CONCAT(SUBSTRING_INDEX(${text}, 'e', 1), 'e', (CASE WHEN ${negative} THEN '-' ELSE '+' END), LPAD(${digits}, 2, '0'))`;
  // MySQL writes 0.00001 in full where the agreed form switches to an exponent below 1e-4.
  const fraction = sql`SUBSTRING(${castAs(sql`ABS(${value})`, 'CHAR')}, 3)`;
  const significant = sql`TRIM(LEADING '0' FROM ${fraction})`;
  const small = sql`CONCAT((CASE WHEN ${value} < 0 THEN '-' ELSE '' END), LEFT(${significant}, 1),
    (CASE WHEN CHAR_LENGTH(${significant}) > 1 THEN CONCAT('.', SUBSTRING(${significant}, 2)) ELSE '' END),
    'e-', LPAD(CHAR_LENGTH(${fraction}) - CHAR_LENGTH(${significant}) + 1, 2, '0'))`;
  return sql`(CASE WHEN LOCATE('e', ${text}) > 0 THEN ${withExponent} WHEN ${value} <> 0 AND ABS(${value}) < 1e-4 THEN ${small} ELSE ${text} END)`;
}

function toText(value: Sql, from: FormulaType): Sql {
  switch (from) {
    case 'text':
      return value;
    case 'date':
      return sql`DATE_FORMAT(${value}, '%Y-%m-%d')`;
    case 'timestamp':
      return sql`CONCAT(DATE_FORMAT(${value}, '%Y-%m-%dT%H:%i:%s.'), LPAD(FLOOR(MICROSECOND(${value}) / 1000), 3, '0'), 'Z')`;
    case 'boolean':
      return sql`(CASE WHEN ${value} THEN 'true' WHEN NOT (${value}) THEN 'false' END)`;
    case 'number':
      return numberText(value);
    default:
      return castAs(value, 'CHAR');
  }
}

function toNumber(value: Sql, from: FormulaType, target: 'SIGNED' | string): Sql {
  if (from === 'boolean') return double(value);
  if (target === 'SIGNED') return double(integer(value));
  return double(castAs(value, target));
}

function toBoolean(value: Sql, from: FormulaType): Sql {
  if (from === 'boolean') return value;
  if (from === 'number') return sql`(${value} <> 0)`;
  // PostgreSQL's boolean input: any unique prefix of true/false/yes/no, on/off, 1/0; else NULL here.
  const t = sql`LOWER(TRIM(${value}))`;
  return sql`(CASE WHEN ${t} IN ('t', 'tr', 'tru', 'true', 'y', 'ye', 'yes', 'on', '1') THEN TRUE
    WHEN ${t} IN ('f', 'fa', 'fal', 'fals', 'false', 'n', 'no', 'of', 'off', '0') THEN FALSE END)`;
}

function cast(value: Sql, from: FormulaType, target: CastTarget): Sql {
  switch (target.name) {
    case 'TEXT':
      return toText(value, from);
    case 'VARCHAR':
      return target.length === null ? toText(value, from) : sql`LEFT(${toText(value, from)}, ${raw(String(target.length))})`;
    case 'INTEGER':
    case 'BIGINT':
      return toNumber(value, from, 'SIGNED');
    case 'DECIMAL':
      return toNumber(value, from, target.precision === null ? DECIMAL : `DECIMAL(${target.precision},${target.scale ?? 0})`);
    case 'BOOLEAN':
      return toBoolean(value, from);
    case 'DATE':
      return from === 'date' ? value : castAs(value, 'DATE');
    case 'TIMESTAMP':
      return from === 'timestamp' ? value : castAs(value, 'DATETIME(3)');
  }
}

function coerce(value: Sql, from: FormulaType, to: ValueType): Sql {
  if (to === 'text') return toText(value, from);
  if (from === to) return value;
  switch (to) {
    case 'number':
      return double(value);
    case 'boolean':
      return toBoolean(value, from);
    case 'date':
      return castAs(value, 'DATE');
    case 'timestamp':
      return castAs(value, 'DATETIME(3)');
  }
}

const TEXT_TYPES = /^(varchar|char|tinytext|text|mediumtext|longtext)\b/i;

function fieldValue(column: Sql, field: Field, type: ValueType): Sql {
  switch (type) {
    case 'number':
      return /^double\b/i.test(field.nativeType) ? column : double(column);
    case 'text':
      // enum, uuid, time, json columns compare and concatenate as text.
      return TEXT_TYPES.test(field.nativeType) ? column : castAs(column, 'CHAR CHARACTER SET utf8mb4');
    case 'boolean':
      return sql`(${column} <> 0)`;
    default:
      return column;
  }
}

const call = (name: string): FunctionEmitter => (args) => sql`${raw(name)}(${join(args)})`;

/** SUBSTRING with PostgreSQL's substr meaning: positions before 1 count but yield nothing. */
const substring: FunctionEmitter = ([text, start, length]) => {
  if (!text || !start) throw new Error('SUBSTRING needs two arguments');
  const from = integer(start);
  const first = sql`GREATEST(${from}, 1)`;
  if (!length) return sql`SUBSTRING(${text}, ${first})`;
  const len = integer(length);
  return sql`(CASE WHEN ${len} < 0 THEN '' ELSE SUBSTRING(${text}, ${first}, GREATEST(${from} + ${len} - ${first}, 0)) END)`;
};

const round: FunctionEmitter = ([value, digits]) => {
  if (!value) throw new Error('ROUND needs an argument');
  return double(digits ? sql`ROUND(${decimal(value)}, ${integer(digits)})` : sql`ROUND(${decimal(value)})`);
};

const mod: FunctionEmitter = ([a, b]) => {
  if (!a || !b) throw new Error('MOD needs two arguments');
  return double(sql`MOD(${decimal(a)}, NULLIF(${decimal(b)}, 0))`);
};

/** GREATEST/LEAST ignoring NULLs: each argument falls back to the others, so only all-NULL is NULL. */
const ignoringNulls = (name: string): FunctionEmitter => (args) => {
  const filled = args.map((arg, i) => sql`COALESCE(${join([arg, ...args.filter((_, j) => j !== i)])})`);
  return sql`${raw(name)}(${join(filled)})`;
};

/** CONCAT with NULL arguments counted as '' (MySQL's CONCAT returns NULL on any NULL). */
const concatFunction: FunctionEmitter = (args) => sql`CONCAT(${join(args.map((arg) => sql`IFNULL(${arg}, '')`))})`;

const utcNow = raw('UTC_TIMESTAMP(3)');

export const mysqlFormula: FormulaDialect = {
  vendor: 'mysql',
  literal: (value, type) => (type === 'number' ? double(sql`${value}`) : castAs(sql`${value}`, 'CHAR CHARACTER SET utf8mb4')),
  booleanLiteral: (value) => raw(value ? 'TRUE' : 'FALSE'),
  nullLiteral: () => raw('NULL'),
  fieldValue,
  arithmetic: (op, left, right) => (op === '/' ? sql`(${left} / NULLIF(${right}, 0))` : sql`(${left} ${raw(op)} ${right})`),
  negate: (operand) => sql`(- ${operand})`,
  // `||` is OR in MySQL's default sql_mode; CONCAT already gives NULL when either side is NULL.
  concat: (left, right) => sql`CONCAT(${left}, ${right})`,
  compare: (op, left, right, type) =>
    type === 'text' ? sql`(${binText(left)} ${raw(op)} ${binText(right)})` : sql`(${left} ${raw(op)} ${right})`,
  // The SQL text '\\' is one backslash: MySQL strings use backslash escapes.
  like: (operand, pattern, negated) => sql`(${binText(operand)}${raw(negated ? ' NOT' : '')} LIKE ${pattern} ESCAPE '\\\\')`,
  cast,
  coerce,
  predicateToValue: (predicate) => predicate,
  valueToPredicate: (value) => value,
  functions: {
    CONCAT: concatFunction,
    UPPER: call('UPPER'),
    LOWER: call('LOWER'),
    TRIM: call('TRIM'),
    LENGTH: (args) => double(call('CHAR_LENGTH')(args, [], 'number')),
    SUBSTRING: substring,
    REPLACE: call('REPLACE'),
    ABS: call('ABS'),
    ROUND: round,
    CEIL: (args) => double(call('CEIL')(args, [], 'number')),
    FLOOR: (args) => double(call('FLOOR')(args, [], 'number')),
    MOD: mod,
    GREATEST: ignoringNulls('GREATEST'),
    LEAST: ignoringNulls('LEAST'),
    COALESCE: call('COALESCE'),
    NULLIF: call('NULLIF'),
    NOW: () => utcNow,
    CURRENT_TIMESTAMP: () => utcNow,
    CURRENT_DATE: () => raw('UTC_DATE()'),
  },
};
