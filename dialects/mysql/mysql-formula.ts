/**
 * Formulas on MySQL 8 / MariaDB with the agreed meaning (DESIGN §7). Numbers are DOUBLE
 * (`+ 0e0` turns any numeric into one); DECIMAL appears only where the agreed meaning is decimal
 * (ROUND, MOD, CAST to INTEGER/BIGINT/DECIMAL) because ROUND on a DOUBLE rounds half to even.
 * Timestamps are DATETIME holding UTC (sessions run in UTC).
 *
 * Text (test/formula's differential property runs this on MariaDB over utf8mb4_general_ci
 * columns): every text value the dialect makes — column, literal, conversion to text — is utf8mb4
 * with the explicit collation utf8mb4_bin, so a `_ci`/`_ai` column collation or the connection's
 * collation never changes what a formula means, and everything built from it (CONCAT, UPPER,
 * CASE, IN, BETWEEN written by core) inherits that collation. utf8mb4_bin orders by code point
 * like the evaluator and PostgreSQL's "C", but it is PAD SPACE on MySQL and MariaDB ('a' = 'a ');
 * the agreed meaning keeps trailing spaces significant, so the comparisons this dialect writes
 * itself (`compare`, GREATEST/LEAST, NULLIF) compare the UTF-8 bytes (`CAST(… AS BINARY)`: no
 * padding, byte order = code-point order) on both vendors. IN, BETWEEN and the simple CASE are
 * written by core without a hook and stay PAD SPACE (docs/formulas-and-parity.md, "Formula parity").
 */
import { join, raw, sql, type Sql } from '../../core/sql.ts';
import type { CastTarget, CompareOp } from '../../core/formula/ast.ts';
import type { ExactNumberKind } from '../../core/formula/exact-compare.ts';
import type { FormulaDialect, FunctionEmitter } from '../../core/formula/formula-dialect.ts';
import type { FormulaType, ValueType } from '../../core/formula/types.ts';
import type { Field } from '../../core/schema/model.ts';
import { call, castAs, defineFormula, fifteenDigits, type OwnFormula } from '../standard-formula.ts';

/**
 * Exact decimal for a double of 15 significant digits: scale 30 (MySQL's maximum) keeps all 15
 * digits down to 1e-16 and leaves 35 integer digits. Smaller magnitudes lose digits (below 1e-30
 * they are 0): docs/formulas-and-parity.md, "Formula parity".
 */
const DECIMAL = 'DECIMAL(65,30)';

/** CAST targets of the formula types; a boolean is a TINYINT(1), an integer for CAST. */
const mysqlTypes = { text: 'CHAR', number: 'DOUBLE', boolean: 'SIGNED', date: 'DATE', timestamp: 'DATETIME(3)', null: 'CHAR' } as const;

const double = (value: Sql): Sql => sql`(${value} + 0e0)`;
/** A double as the agreed exact decimal (fifteenDigits): CAST to DECIMAL reads its shortest digits. */
const decimal = (value: Sql): Sql => fifteenDigits(value, castAs(value, DECIMAL), castAs(value, DECIMAL));
/** Any string as utf8mb4 text with the dialect's one collation (see the header). */
const text = (value: Sql): Sql => sql`(CONVERT(${value} USING utf8mb4) COLLATE utf8mb4_bin)`;
/** Text as its UTF-8 bytes: compares without padding, in code-point order. */
const bytes = (value: Sql): Sql => castAs(value, 'BINARY');
/** A double as SQL integer, half away from zero (ROUND on DECIMAL rounds so). */
const integer = (value: Sql): Sql => castAs(sql`ROUND(${decimal(value)})`, 'SIGNED');

/** At least two digits (`LPAD` alone would cut the exponent of 1e-155 to `15`). */
const twoDigits = (digits: Sql): Sql => sql`LPAD(${digits}, GREATEST(CHAR_LENGTH(${digits}), 2), '0')`;

/**
 * A double as PostgreSQL's float8 text (the agreed form): MySQL prints the same shortest digits
 * but writes exponents as `1e15` / `1e-5` where the agreed form has `1e+15` / `1e-05`.
 */
function numberText(value: Sql): Sql {
  // String functions, not REGEXP_REPLACE: MySQL (ICU, `$1`) and MariaDB (PCRE, `\\1`) spell
  // back references differently.
  const printed = castAs(value, 'CHAR');
  const exponent = sql`SUBSTRING_INDEX(${printed}, 'e', -1)`;
  const negative = sql`LEFT(${exponent}, 1) = '-'`;
  const digits = sql`(CASE WHEN ${negative} THEN SUBSTRING(${exponent}, 2) ELSE ${exponent} END)`;
  const withExponent = sql`CONCAT(SUBSTRING_INDEX(${printed}, 'e', 1), 'e', (CASE WHEN ${negative} THEN '-' ELSE '+' END), ${twoDigits(digits)})`;
  // MySQL writes 0.00001 in full where the agreed form switches to an exponent below 1e-4.
  const fraction = sql`SUBSTRING(${castAs(sql`ABS(${value})`, 'CHAR')}, 3)`;
  const significant = sql`TRIM(LEADING '0' FROM ${fraction})`;
  const small = sql`CONCAT((CASE WHEN ${value} < 0 THEN '-' ELSE '' END), LEFT(${significant}, 1),
    (CASE WHEN CHAR_LENGTH(${significant}) > 1 THEN CONCAT('.', SUBSTRING(${significant}, 2)) ELSE '' END),
    'e-', ${twoDigits(sql`CHAR_LENGTH(${fraction}) - CHAR_LENGTH(${significant}) + 1`)})`;
  // MySQL prints -0 as `0`; ATAN2(0, x) is π only for x = -0 among the zeros.
  const negativeZero = sql`${value} = 0 AND ATAN2(0e0, ${value}) > 0`;
  return sql`(CASE WHEN LOCATE('e', ${printed}) > 0 THEN ${withExponent} WHEN ${value} <> 0 AND ABS(${value}) < 1e-4 THEN ${small}
    WHEN ${negativeZero} THEN '-0' ELSE ${printed} END)`;
}

function toText(value: Sql, from: FormulaType): Sql {
  switch (from) {
    case 'text':
      return value;
    case 'date':
      return text(sql`DATE_FORMAT(${value}, '%Y-%m-%d')`);
    case 'timestamp':
      return text(sql`CONCAT(DATE_FORMAT(${value}, '%Y-%m-%dT%H:%i:%s.'), LPAD(FLOOR(MICROSECOND(${value}) / 1000), 3, '0'), 'Z')`);
    case 'boolean':
      return text(sql`(CASE WHEN ${value} THEN 'true' WHEN NOT (${value}) THEN 'false' END)`);
    case 'number':
      return text(numberText(value));
    default:
      return text(castAs(value, 'CHAR'));
  }
}

/**
 * Text a CAST to a number accepts, as PostgreSQL's input functions and the evaluator do
 * (values.ts). A class stands for the dot: a backslash is an escape in a MariaDB string literal.
 */
const INTEGER_TEXT = "'^[[:space:]]*[+-]?[0-9]+[[:space:]]*$'";
const DECIMAL_TEXT = "'^[[:space:]]*[+-]?([0-9]+([.][0-9]*)?|[.][0-9]+)([eE][+-]?[0-9]+)?[[:space:]]*$'";

/**
 * MariaDB casts text that is no number to 0 with a warning, where PostgreSQL and the evaluator
 * raise: text that does not match `pattern` raises ER_DATA_OUT_OF_RANGE (1690, mapped like
 * PostgreSQL's invalid input) by an unsigned overflow that depends on the row, so it is evaluated
 * only in the CASE branch that needs it, never folded ahead.
 */
function parsedOrRaise(value: Sql, pattern: string, parsed: Sql): Sql {
  return sql`(CASE WHEN ${value} IS NULL OR ${value} REGEXP ${raw(pattern)} THEN ${parsed} ELSE ~0 + (LENGTH(${value}) + 1) END)`;
}

function toNumber(value: Sql, from: FormulaType, target: 'SIGNED' | string): Sql {
  if (from === 'boolean') return double(value);
  if (from === 'text') return parsedOrRaise(value, target === 'SIGNED' ? INTEGER_TEXT : DECIMAL_TEXT, toNumberFromParsed(value, from, target));
  return toNumberFromParsed(value, from, target);
}

function toNumberFromParsed(value: Sql, from: FormulaType, target: 'SIGNED' | string): Sql {
  if (target === 'SIGNED') return double(integer(value));
  // A double becomes a decimal of 15 significant digits first (core/formula/decimal.ts).
  if (from === 'number') return double(target === DECIMAL ? decimal(value) : castAs(decimal(value), target));
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
      return from === 'date' ? value : castAs(value, mysqlTypes.date);
    case 'TIMESTAMP':
      return from === 'timestamp' ? value : castAs(value, mysqlTypes.timestamp);
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
      return castAs(value, mysqlTypes.date);
    case 'timestamp':
      return castAs(value, mysqlTypes.timestamp);
  }
}

const TEXT_TYPES = /^(varchar|char|tinytext|text|mediumtext|longtext)\b/i;

function fieldValue(column: Sql, field: Field, type: ValueType): Sql {
  switch (type) {
    case 'number':
      return /^double\b/i.test(field.nativeType) ? column : double(column);
    case 'text':
      // enum, uuid, time, json columns compare and concatenate as text; every column, whatever
      // its character set and collation, as utf8mb4_bin.
      return text(TEXT_TYPES.test(field.nativeType) ? column : castAs(column, 'CHAR CHARACTER SET utf8mb4'));
    case 'boolean':
      return sql`(${column} <> 0)`;
    default:
      return column;
  }
}

/**
 * `column op literal` in the column's type (core/formula/exact-compare.ts says when): an integer
 * column against SIGNED; a decimal against DECIMAL(65,30), which CAST fills with the literal's
 * shortest digits (see `decimal`), only when they fit it exactly: no exponent (so not below 1e-6,
 * where a literal under 1e-30 would round to 0) and under 1e15. Otherwise null: as doubles.
 */
function compareInColumnType(op: CompareOp, column: Sql, kind: ExactNumberKind, literal: number): Sql | null {
  if (kind === 'integer') return sql`(${column} ${raw(op)} CAST(${literal} AS SIGNED))`;
  const plain = Math.abs(literal) < 1e15 && !String(literal).includes('e');
  return plain ? sql`(${column} ${raw(op)} ${castAs(sql`${literal}`, DECIMAL)})` : null;
}

/** SUBSTRING with PostgreSQL's substr meaning: positions before 1 count but yield nothing. */
const substring: FunctionEmitter = ([text, start, length]) => {
  if (!text || !start) throw new Error('SUBSTRING needs two arguments');
  const from = integer(start);
  const first = sql`GREATEST(${from}, 1)`;
  if (!length) return sql`SUBSTRING(${text}, ${first})`;
  const len = integer(length);
  // A negative length gives '' — but NULL when the text or the start is NULL, as in PostgreSQL.
  return sql`(CASE WHEN ${len} < 0 THEN SUBSTRING(${text}, ${first}, 0) ELSE SUBSTRING(${text}, ${first}, GREATEST(${from} + ${len} - ${first}, 0)) END)`;
};

/**
 * GREATEST/LEAST ignoring NULLs: each argument falls back to the others, so only all-NULL is NULL.
 * Text compares as bytes (no padding: 'a ' > 'a') and converts back to the dialect's text.
 */
const ignoringNulls = (name: string): FunctionEmitter => (args, argTypes) => {
  // MySQL's GREATEST/LEAST need two arguments; of one, the value is that argument.
  if (args.length === 1 && args[0]) return args[0];
  const filled = args.map((arg, i) => sql`COALESCE(${join([arg, ...args.filter((_, j) => j !== i)])})`);
  // Of equal arguments the first wins (0 before -0), as in PostgreSQL and the evaluator: MariaDB's
  // LEAST keeps the first, its GREATEST the last, so GREATEST gets its arguments reversed.
  const ordered = name === 'GREATEST' ? filled.reverse() : filled;
  if (argTypes.every((t) => t !== 'text')) return sql`${raw(name)}(${join(ordered)})`;
  return text(sql`${raw(name)}(${join(ordered.map(bytes))})`);
};

/** REPLACE is NULL when any argument is (MariaDB's REPLACE(s, '', NULL) gives s). */
const replace: FunctionEmitter = ([s, from, to]) => {
  if (!s || !from || !to) throw new Error('REPLACE needs three arguments');
  return sql`(CASE WHEN ${to} IS NOT NULL THEN REPLACE(${s}, ${from}, ${to}) END)`;
};

/** CONCAT with NULL arguments counted as '' (MySQL's CONCAT returns NULL on any NULL). */
const concatFunction: FunctionEmitter = (args) => sql`CONCAT(${join(args.map((arg) => sql`IFNULL(${arg}, '')`))})`;

/** What MySQL must state: the rest is standard SQL (dialects/standard-formula.ts). */
export const mysqlOwnFormula: OwnFormula = {
  vendor: 'mysql',
  types: mysqlTypes,
  toText,
  utcNow: raw('UTC_TIMESTAMP(3)'),
  // ROUND on a DOUBLE rounds half to even; on a DECIMAL half away from zero.
  exact: decimal,
  integer,
  double,
  textOrder: bytes,
  fieldValue,
  cast,
};

export const mysqlFormula: FormulaDialect = defineFormula({
  ...mysqlOwnFormula,
  compareInColumnType,
  literal: (value, type) => (type === 'number' ? double(sql`${value}`) : text(sql`${value}`)),
  nullLiteral: () => raw('NULL'),
  // `||` is OR in MySQL's default sql_mode; CONCAT already gives NULL when either side is NULL.
  concat: (left, right) => sql`CONCAT(${left}, ${right})`,
  // LIKE matches characters (`_` is one code point), so utf8mb4_bin, not bytes; LIKE does not pad.
  // The SQL text '\\' is one backslash: MySQL strings use backslash escapes.
  like: (operand, pattern, negated) => sql`(${text(operand)}${raw(negated ? ' NOT' : '')} LIKE ${text(pattern)} ESCAPE '\\\\')`,
  coerce,
  functions: {
    CONCAT: concatFunction,
    SUBSTRING: substring,
    REPLACE: replace,
    // CEIL and FLOOR of a DOUBLE are integers in MySQL, which have no negative zero: where the
    // agreed result is a zero, x * 0e0 gives it with x's sign (CEIL of -0.5 is -0, FLOOR of -0 is -0).
    CEIL: ([x = raw('NULL')]) => sql`(CASE WHEN ${x} > -1 AND ${x} <= 0 THEN ${x} * 0e0 ELSE ${double(call('CEIL')([x], [], 'number'))} END)`,
    FLOOR: ([x = raw('NULL')]) => sql`(CASE WHEN ${x} = 0 THEN ${x} * 0e0 ELSE ${double(call('FLOOR')([x], [], 'number'))} END)`,
    GREATEST: ignoringNulls('GREATEST'),
    LEAST: ignoringNulls('LEAST'),
    CURRENT_DATE: () => raw('UTC_DATE()'),
  },
});
