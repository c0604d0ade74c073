/**
 * Standard SQL spellings of the formula part: the default of every `FormulaDialect` member a
 * vendor may leave out, spelled with a few facts the vendor states once (its type names, its text
 * forms, its clock, its exact-number steps). Each default means what the evaluator
 * (core/formula/evaluate*.ts) computes on a database that follows SQL:2016 where the default
 * relies on it; test/dialects/standard-formula.test.ts proves them on PostgreSQL.
 */
import { join, raw, sql, type Sql } from '../core/sql.ts';
import type { FormulaDialect, FunctionEmitter } from '../core/formula/formula-dialect.ts';
import type { FormulaType } from '../core/formula/types.ts';

/** What a vendor states once so that the defaults can be spelled for it. */
export interface FormulaFacts {
  /** The SQL type of each formula type, for CAST: `number` is the double-precision type, `null` any type a bare NULL may take. */
  readonly types: Readonly<Record<FormulaType, string>>;
  /** The agreed text form of a value of type `from` (core/formula/values.ts); text stays as it is. */
  toText(value: Sql, from: FormulaType): Sql;
  /** The current time in UTC as a timestamp without zone (standard CURRENT_TIMESTAMP is in the session's zone). */
  readonly utcNow: Sql;
  /**
   * A double as an exact decimal: its shortest digits rounded half away from zero to 15 significant
   * digits (core/formula/decimal.ts), for ROUND and MOD. `fifteenDigits` spells it from the vendor's
   * decimal of the shortest digits.
   */
  exact(value: Sql): Sql;
  /** A double as an SQL integer, rounded half away from zero (the standard leaves the rounding to the vendor). */
  integer(value: Sql): Sql;
  /** Any number as the double-precision type; default `CAST(value AS types.number)`. */
  double?(value: Sql): Sql;
  /**
   * Text in a form whose `=` and `<` are the agreed ones (code-point order, case-sensitive,
   * trailing spaces significant). Leave it out when the vendor's own text comparison is agreed
   * already. A vendor that states it writes GREATEST and LEAST itself: they must return the text,
   * not the form it compares in.
   */
  textOrder?(text: Sql): Sql;
  /**
   * The case of the function names the defaults write: 'upper' (the default) or 'lower'. SQL
   * ignores it; it keeps a vendor's emitted text as its golden tests and query plans know it.
   */
  readonly nameCase?: 'upper' | 'lower';
}

/** The formula members a vendor always writes: no standard spelling gives their meaning. */
export type OwnFormula = FormulaFacts & Pick<FormulaDialect, 'vendor' | 'fieldValue' | 'cast'>;

/** The vendor's own members plus any default it spells differently, functions included. */
export type FormulaDefinition = OwnFormula &
  Partial<Omit<FormulaDialect, 'functions'>> & { readonly functions?: Partial<FormulaDialect['functions']> };

type Hooks = Omit<FormulaDialect, 'vendor' | 'fieldValue' | 'cast' | 'functions'>;
type Functions = FormulaDialect['functions'];

/** `CAST(value AS type)`; `type` is a constant of the dialect, never input. */
export const castAs = (value: Sql, type: string): Sql => sql`CAST(${value} AS ${raw(type)})`;

/**
 * The agreed exact decimal of a double `value`: `shortest`, the vendor's decimal of the double's
 * shortest digits, rounded half away from zero (SQL ROUND on a decimal) to 15 significant digits.
 * The double's LOG10 counts the digits; where it rounds up to a power of ten, 14 and 15 significant
 * digits both give that power. Zero has no logarithm: it is `zero`. `scale` makes ROUND's second
 * argument the type the vendor asks for.
 */
export function fifteenDigits(value: Sql, shortest: Sql, zero: Sql, scale: (digits: Sql) => Sql = (digits) => digits): Sql {
  return sql`(CASE WHEN ${value} = 0 THEN ${zero} ELSE ROUND(${shortest}, ${scale(sql`14 - FLOOR(LOG10(ABS(${value})))`)}) END)`;
}

/** A function call with the arguments as given. */
export const call =
  (name: string): FunctionEmitter =>
  (args) =>
    sql`${raw(name)}(${join(args)})`;

/** The `i`-th argument; the checker guarantees the arity, so a missing one is a bug in core. */
export function arg(args: readonly Sql[], i: number, name: string): Sql {
  const value = args[i];
  if (!value) throw new Error(`${name} needs ${i + 1} argument${i === 0 ? '' : 's'}`);
  return value;
}

/** The facts with their own defaults filled in. */
function spelled(facts: FormulaFacts) {
  const name = (standard: string) => (facts.nameCase === 'lower' ? standard.toLowerCase() : standard);
  return {
    ...facts,
    name,
    call: (standard: string) => call(name(standard)),
    double: facts.double ?? ((value: Sql) => castAs(value, facts.types.number)),
  };
}

type Spelled = ReturnType<typeof spelled>;

function standardHooks(f: Spelled): Hooks {
  return {
    literal: (value, type) => castAs(sql`${value}`, f.types[type]),
    booleanLiteral: (value) => raw(value ? 'TRUE' : 'FALSE'),
    nullLiteral: (type) => raw(`CAST(NULL AS ${f.types[type]})`),
    arithmetic: (op, left, right) => (op === '/' ? sql`(${left} / NULLIF(${right}, 0))` : sql`(${left} ${raw(op)} ${right})`),
    negate: (operand) => sql`(- ${operand})`,
    concat: (left, right) => sql`(${left} || ${right})`,
    compare: (op, left, right, type) =>
      type === 'text' && f.textOrder ? sql`(${f.textOrder(left)} ${raw(op)} ${f.textOrder(right)})` : sql`(${left} ${raw(op)} ${right})`,
    // The standard has no default LIKE escape character: name the backslash.
    like: (operand, pattern, negated) => sql`(${operand}${raw(negated ? ' NOT' : '')} LIKE ${pattern} ESCAPE '\\')`,
    coerce: (value, from, to) => {
      if (to === 'text') return f.toText(value, from);
      if (from === to) return value;
      return to === 'number' ? f.double(value) : castAs(value, f.types[to]);
    },
    predicateToValue: (predicate) => predicate,
    valueToPredicate: (value) => value,
  };
}

/** SUBSTRING FROM … FOR …: positions before 1 count but yield nothing (SQL:2016 6.30); a negative length gives ''. */
function substring(f: Spelled): FunctionEmitter {
  return (args) => {
    const text = arg(args, 0, 'SUBSTRING');
    const start = f.integer(arg(args, 1, 'SUBSTRING'));
    const fn = raw(f.name('SUBSTRING'));
    if (!args[2]) return sql`${fn}(${text} FROM ${start})`;
    const length = f.integer(args[2]);
    return sql`${fn}(${text} FROM ${start} FOR (CASE WHEN ${length} < 0 THEN 0 ELSE ${length} END))`;
  };
}

/**
 * GREATEST/LEAST ignoring NULLs whichever way the vendor's own treat them (MySQL's return NULL):
 * each argument falls back to the others, so only all-NULL is NULL.
 */
function ignoringNulls(f: Spelled, name: 'GREATEST' | 'LEAST'): FunctionEmitter {
  return (args) => {
    if (args.length === 1) return arg(args, 0, name);
    const filled = args.map((a, i) => f.call('COALESCE')([a, ...args.filter((_, j) => j !== i)], [], 'null'));
    return f.call(name)(filled, [], 'null');
  };
}

/** NULLIF; on text through the vendor's agreed comparison when it states one. */
function nullif(f: Spelled): FunctionEmitter {
  return (args, argTypes, resultType) => {
    const a = arg(args, 0, 'NULLIF');
    const b = arg(args, 1, 'NULLIF');
    if (!f.textOrder || argTypes.every((t) => t !== 'text')) return f.call('NULLIF')(args, argTypes, resultType);
    return sql`(CASE WHEN ${f.textOrder(a)} = ${f.textOrder(b)} THEN NULL ELSE ${a} END)`;
  };
}

function standardFunctions(f: Spelled, hooks: Pick<FormulaDialect, 'concat'>): Functions {
  const double = (emit: FunctionEmitter): FunctionEmitter => (args, argTypes, resultType) => f.double(emit(args, argTypes, resultType));
  return {
    // NULL arguments count as '' (CONCAT itself is not standard, and MySQL's is NULL on any NULL).
    CONCAT: (args) =>
      args.map((a) => f.call('COALESCE')([a, raw("''")], [], 'text')).reduce((left, right) => hooks.concat(left, right)),
    UPPER: f.call('UPPER'),
    LOWER: f.call('LOWER'),
    // TRIM(x) is TRIM(BOTH ' ' FROM x): spaces only, as the agreed meaning.
    TRIM: f.call('TRIM'),
    LENGTH: double(f.call('CHAR_LENGTH')),
    SUBSTRING: substring(f),
    REPLACE: f.call('REPLACE'),
    ABS: f.call('ABS'),
    ROUND: (args) => {
      const value = f.exact(arg(args, 0, 'ROUND'));
      return f.double(f.call('ROUND')(args[1] ? [value, f.integer(args[1])] : [value], [], 'number'));
    },
    CEIL: f.call('CEIL'),
    FLOOR: f.call('FLOOR'),
    // On exact decimals: MOD keeps the dividend's sign; 0 as divisor gives NULL, as `/` does.
    MOD: (args) =>
      f.double(sql`${raw(f.name('MOD'))}(${f.exact(arg(args, 0, 'MOD'))}, NULLIF(${f.exact(arg(args, 1, 'MOD'))}, 0))`),
    GREATEST: ignoringNulls(f, 'GREATEST'),
    LEAST: ignoringNulls(f, 'LEAST'),
    COALESCE: f.call('COALESCE'),
    NULLIF: nullif(f),
    NOW: () => f.utcNow,
    CURRENT_TIMESTAMP: () => f.utcNow,
    CURRENT_DATE: () => castAs(f.utcNow, f.types.date),
  };
}

/**
 * A complete `FormulaDialect` from the vendor's own members: every hook and function it leaves
 * out gets the standard spelling, spelled with its facts. The facts themselves stay here.
 */
export function defineFormula(definition: FormulaDefinition): FormulaDialect {
  const f = spelled(definition);
  const { functions: own = {} } = definition;
  if (f.textOrder && (!own.GREATEST || !own.LEAST)) {
    throw new Error(`${definition.vendor}: a dialect that states textOrder writes GREATEST and LEAST itself`);
  }
  const standard = standardHooks(f);
  // Only the hooks: the facts stay out of the dialect.
  const keys = Object.keys(standard) as (keyof Hooks)[];
  const hooks = Object.fromEntries(keys.map((key) => [key, definition[key] ?? standard[key]])) as Hooks;
  return Object.freeze({
    vendor: definition.vendor,
    fieldValue: definition.fieldValue,
    cast: definition.cast,
    ...hooks,
    // No standard spelling: a vendor states it or compares numbers as doubles.
    ...(definition.compareInColumnType ? { compareInColumnType: definition.compareInColumnType } : {}),
    functions: Object.freeze({ ...standardFunctions(f, hooks), ...own }),
  });
}
