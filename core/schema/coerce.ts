/**
 * Coerces one input value to a column type. JSON bodies must already carry the right JSON
 * type (a string for an integer is refused, DESIGN §4); query strings arrive as text.
 */
import type { ColumnType } from './introspection.ts';
import { textProblem } from '../text.ts';

export type Coerced = { ok: true; value: unknown } | { ok: false; rule: string; message: string };

export interface CoerceOptions {
  /** The value came from a query string: numbers and booleans are accepted as text. */
  fromText?: boolean;
}

const INT32 = 2 ** 31;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}(:?\d{2})?)?$/i;
const TIME = /^\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DECIMAL = /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/;
const INTEGER = /^-?\d+$/;

const ok = (value: unknown): Coerced => ({ ok: true, value });
const fail = (message: string): Coerced => ({ ok: false, rule: 'type', message });

function asNumber(value: unknown, fromText: boolean): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (fromText && typeof value === 'string' && DECIMAL.test(value.trim())) return Number(value.trim());
  return undefined;
}

function coerceInteger(value: unknown, fromText: boolean): Coerced {
  const n = asNumber(value, fromText);
  if (n === undefined || !Number.isInteger(n)) return fail('must be an integer');
  if (n >= INT32 || n < -INT32) return { ok: false, rule: 'range', message: 'is out of range for an integer' };
  return ok(n);
}

function coerceBigint(value: unknown): Coerced {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return ok(value);
  if (typeof value === 'string' && INTEGER.test(value)) {
    const big = BigInt(value);
    if (big >= 2n ** 63n || big < -(2n ** 63n)) return { ok: false, rule: 'range', message: 'is out of range for a bigint' };
    return ok(value);
  }
  return fail('must be an integer (a string of digits beyond 2^53)');
}

function coerceDecimal(value: unknown, fromText: boolean): Coerced {
  // Exact decimals may come as strings so no precision is lost on the way in.
  if (typeof value === 'string' && DECIMAL.test(value)) return ok(value);
  const n = asNumber(value, fromText);
  return n === undefined ? fail('must be a number') : ok(n);
}

function coerceBoolean(value: unknown, fromText: boolean): Coerced {
  if (typeof value === 'boolean') return ok(value);
  if (fromText && (value === 'true' || value === 'false')) return ok(value === 'true');
  return fail('must be true or false');
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Proleptic Gregorian calendar, as every vendor's date type uses (years 0-9999 come in as four digits). */
function validDate(y: number, m: number, d: number): boolean {
  if (!Number.isInteger(y) || !Number.isInteger(m) || !Number.isInteger(d) || m < 1 || m > 12 || d < 1) return false;
  const leap = y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
  return d <= (m === 2 && leap ? 29 : (DAYS_IN_MONTH[m - 1] ?? 0));
}

function coerceDate(value: unknown): Coerced {
  const match = typeof value === 'string' ? DATE.exec(value) : null;
  if (!match || !validDate(Number(match[1]), Number(match[2]), Number(match[3]))) return fail('must be a date YYYY-MM-DD');
  return ok(value);
}

/** Any accepted form, through a Date: the reference every faster path must agree with. */
export function coerceTimestampByDate(value: unknown): Coerced {
  if (typeof value !== 'string' || !TIMESTAMP.test(value)) return fail('must be an ISO 8601 timestamp');
  const text = value.replace(' ', 'T');
  const zoned = /(Z|[+-]\d{2}(:?\d{2})?)$/i.test(text) ? text : `${text}Z`;
  const date = new Date(zoned);
  const [y, m, d] = text.slice(0, 10).split('-').map(Number);
  if (Number.isNaN(date.getTime()) || !validDate(y ?? 0, m ?? 0, d ?? 0)) return fail('must be an ISO 8601 timestamp');
  return ok(date.toISOString());
}

/** The form clients nearly always send (what toISOString prints, with 0–9 fraction digits). */
const CANONICAL_UTC = /^(\d{4})-(\d\d)-(\d\d)T([01]\d|2[0-3]):([0-5]\d):([0-5]\d)(?:\.(\d{1,9}))?Z$/;

/**
 * A canonical UTC timestamp is checked and reprinted by hand (a Date costs ~2 µs a value on every
 * create); any other form goes through a Date. test/schema/coerce-timestamp.test.ts holds both
 * paths to the same answers.
 */
function coerceTimestamp(value: unknown): Coerced {
  if (typeof value !== 'string') return coerceTimestampByDate(value);
  const match = CANONICAL_UTC.exec(value);
  if (!match || !validDate(Number(match[1]), Number(match[2]), Number(match[3]))) return coerceTimestampByDate(value);
  // A Date keeps milliseconds and drops further digits.
  const millis = (match[7] ?? '').slice(0, 3).padEnd(3, '0');
  return ok(`${value.slice(0, 19)}.${millis}Z`);
}

export function hasBadText(text: string): boolean {
  return textProblem(text) !== null;
}

/**
 * The problem of the first string (value or object key, at any depth) of a JSON value that cannot
 * be stored, or null. Iterative: a deeply nested body must not exhaust the stack.
 */
export function jsonTextProblem(value: unknown): string | null {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const item = pending.pop();
    if (typeof item === 'string') {
      const problem = textProblem(item);
      if (problem) return problem;
    } else if (Array.isArray(item)) {
      for (const element of item) pending.push(element);
    } else if (typeof item === 'object' && item !== null) {
      for (const [key, element] of Object.entries(item)) {
        const problem = textProblem(key);
        if (problem) return problem;
        pending.push(element);
      }
    }
  }
  return null;
}

function coerceJson(value: unknown): Coerced {
  const problem = jsonTextProblem(value);
  return problem === null ? ok(value) : fail(`${problem} (in a string or key of the JSON value)`);
}

function coerceText(value: unknown, fromText: boolean): Coerced {
  const problem = typeof value === 'string' ? textProblem(value) : null;
  if (problem) return fail(problem);
  if (typeof value === 'string') return ok(value);
  if (fromText && (typeof value === 'number' || typeof value === 'boolean')) return ok(String(value));
  return fail('must be a string');
}

export function parseScalar(type: ColumnType, value: unknown, options: CoerceOptions = {}): Coerced {
  const fromText = options.fromText === true;
  switch (type) {
    case 'integer':
      return coerceInteger(value, fromText);
    case 'bigint':
      return coerceBigint(value);
    case 'decimal':
    case 'float':
      return coerceDecimal(value, fromText);
    case 'boolean':
      return coerceBoolean(value, fromText);
    case 'date':
      return coerceDate(value);
    case 'timestamp':
      return coerceTimestamp(value);
    case 'time':
      return typeof value === 'string' && TIME.test(value) ? ok(value) : fail('must be a time HH:MM[:SS]');
    case 'uuid':
      return typeof value === 'string' && UUID.test(value) ? ok(value.toLowerCase()) : fail('must be a UUID');
    case 'json':
      return coerceJson(value);
    case 'binary':
      return typeof value === 'string' ? ok(Buffer.from(value, 'base64')) : fail('must be a base64 string');
    default:
      return coerceText(value, fromText);
  }
}
