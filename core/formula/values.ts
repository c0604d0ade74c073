/**
 * Conversions between formula values, with the agreed text forms (DESIGN §7):
 * numbers print as PostgreSQL prints double precision (shortest round-trip digits, exponent
 * form below 1e-4 and from 1e15: `1e-05`, `1e+15`, and `-0`); booleans as `true`/`false`;
 * dates `YYYY-MM-DD`; timestamps ISO 8601 UTC with milliseconds. Text read as a timestamp
 * ignores a zone offset (SQL `timestamp` input), and text is read as a date or timestamp only
 * in ISO form (`2026-01-31`, `2026-01-31 10:00[:00[.000]]`).
 */
import { decimalFromDouble, decimalToBigInt, decimalToNumber, fitsPrecision, parseDecimal, roundDecimal } from './decimal.ts';
import type { CastTarget } from './ast.ts';
import type { FormulaValue, ValueType } from './types.ts';

/** A value a database would refuse at run time (bad input text, out of range). */
export class FormulaEvaluationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FormulaEvaluationError';
  }
}

export function formatNumber(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (!Number.isFinite(value)) return value > 0 ? 'Infinity' : '-Infinity';
  if (Object.is(value, -0)) return '-0';
  const [mantissa = '0', exponentText = '0'] = value.toExponential().split('e');
  const exponent = Number(exponentText);
  if (exponent >= -4 && exponent < 15) return String(value);
  const sign = exponent < 0 ? '-' : '+';
  return `${mantissa}e${sign}${String(Math.abs(exponent)).padStart(2, '0')}`;
}

export function textOf(value: string | number | boolean): string {
  if (typeof value === 'number') return formatNumber(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  return value;
}

const DATE_TIME =
  /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?)?(?:\s*(?:Z|[+-]\d{1,2}(?::?\d{2})?))?$/i;

function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0');
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** Canonical ISO parts of date/time text, or null. */
function readDateTime(text: string): { date: string; time: string } | null {
  const m = DATE_TIME.exec(text.trim());
  if (!m) return null;
  const [year, month, day, hour, minute, second] = [m[1], m[2], m[3], m[4], m[5], m[6]].map((p) => Number(p ?? '0')) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  if (hour > 23 || minute > 59 || second > 59) return null;
  const millis = (m[7] ?? '').padEnd(3, '0').slice(0, 3);
  return { date: `${pad(year, 4)}-${pad(month)}-${pad(day)}`, time: `${pad(hour)}:${pad(minute)}:${pad(second)}.${millis}` };
}

export function parseDate(text: string): string | null {
  return readDateTime(text)?.date ?? null;
}

export function parseTimestamp(text: string): string | null {
  const parts = readDateTime(text);
  return parts ? `${parts.date}T${parts.time}Z` : null;
}

/** PostgreSQL's boolean input: trimmed, case-insensitive, unique prefixes of true/false/yes/no, on/off, 1/0. */
export function parseBoolean(text: string): boolean | null {
  const word = text.trim().toLowerCase();
  if (word === '') return null;
  if (word === '1') return true;
  if (word === '0') return false;
  if ('true'.startsWith(word) || 'yes'.startsWith(word)) return true;
  if ('false'.startsWith(word) || 'no'.startsWith(word)) return false;
  if (word === 'on') return true;
  if (word.length >= 2 && 'off'.startsWith(word)) return false;
  return null;
}

const INT32: readonly [bigint, bigint] = [-(2n ** 31n), 2n ** 31n - 1n];
const INT64: readonly [bigint, bigint] = [-(2n ** 63n), 2n ** 63n - 1n];

function toInteger(value: string | number | boolean, range: readonly [bigint, bigint], name: string): number {
  let n: bigint;
  if (typeof value === 'boolean') n = value ? 1n : 0n;
  else if (typeof value === 'number') n = decimalToBigInt(decimalFromDouble(value));
  else {
    const trimmed = value.trim();
    if (!/^[+-]?\d+$/.test(trimmed)) throw new FormulaEvaluationError(`invalid input for type ${name}: '${value}'`);
    n = BigInt(trimmed);
  }
  if (n < range[0] || n > range[1]) throw new FormulaEvaluationError(`${name} out of range`);
  return Number(n);
}

function toDecimal(value: string | number | boolean, precision: number | null, scale: number | null): number {
  if (typeof value === 'boolean') return toDecimal(value ? 1 : 0, precision, scale);
  const decimal = typeof value === 'number' ? decimalFromDouble(value) : parseDecimal(value.trim());
  if (!decimal) throw new FormulaEvaluationError(`invalid input for type decimal: '${String(value)}'`);
  if (precision === null) return typeof value === 'number' ? decimalToNumber(decimal) : Number(value.trim());
  const s = scale ?? 0;
  if (!fitsPrecision(decimal, precision, s)) throw new FormulaEvaluationError(`decimal field overflow for DECIMAL(${precision},${s})`);
  return decimalToNumber(roundDecimal(decimal, s));
}

function toBoolean(value: string | number | boolean): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value !== 0;
  const parsed = parseBoolean(value);
  if (parsed === null) throw new FormulaEvaluationError(`invalid input for type boolean: '${value}'`);
  return parsed;
}

function toTemporal(value: string | number | boolean, from: ValueType, to: 'date' | 'timestamp'): string {
  if (typeof value !== 'string') throw new FormulaEvaluationError(`cannot convert ${from} to ${to}`);
  if (from === to) return value;
  if (from === 'date') return `${value}T00:00:00.000Z`;
  if (from === 'timestamp') return value.slice(0, 10);
  const parsed = to === 'date' ? parseDate(value) : parseTimestamp(value);
  if (parsed === null) throw new FormulaEvaluationError(`invalid input for type ${to}: '${value}'`);
  return parsed;
}

/** Code points of `text` (LENGTH, SUBSTRING and VARCHAR(n) count characters, not UTF-16 units). */
export function codePoints(text: string): string[] {
  return Array.from(text);
}

/** CAST(value AS target) for a value of type `from` (DESIGN §7 semantics). */
export function castValue(value: FormulaValue, from: ValueType, target: CastTarget): FormulaValue {
  if (value === null) return null;
  switch (target.name) {
    case 'TEXT':
      return textOf(value);
    case 'VARCHAR': {
      const text = textOf(value);
      return target.length === null ? text : codePoints(text).slice(0, target.length).join('');
    }
    case 'INTEGER':
      return toInteger(value, INT32, 'integer');
    case 'BIGINT':
      return toInteger(value, INT64, 'bigint');
    case 'DECIMAL':
      return toDecimal(value, target.precision, target.scale);
    case 'BOOLEAN':
      return toBoolean(value);
    case 'DATE':
      return toTemporal(value, from, 'date');
    case 'TIMESTAMP':
      return toTemporal(value, from, 'timestamp');
  }
}

/** The CAST target that an implicit conversion to `type` means. */
export function targetOf(type: ValueType): CastTarget {
  switch (type) {
    case 'text':
      return { name: 'TEXT' };
    case 'number':
      return { name: 'DECIMAL', precision: null, scale: null };
    case 'boolean':
      return { name: 'BOOLEAN' };
    case 'date':
      return { name: 'DATE' };
    case 'timestamp':
      return { name: 'TIMESTAMP' };
  }
}

/** The type a CAST produces. */
export function typeOfTarget(target: CastTarget): ValueType {
  switch (target.name) {
    case 'TEXT':
    case 'VARCHAR':
      return 'text';
    case 'INTEGER':
    case 'BIGINT':
    case 'DECIMAL':
      return 'number';
    case 'BOOLEAN':
      return 'boolean';
    case 'DATE':
      return 'date';
    case 'TIMESTAMP':
      return 'timestamp';
  }
}

/** Which source types a CAST to `target` accepts (null always). */
export function castAccepts(from: ValueType, target: CastTarget): boolean {
  switch (typeOfTarget(target)) {
    case 'text':
      return true;
    case 'number':
    case 'boolean':
      return from === 'number' || from === 'text' || from === 'boolean';
    case 'date':
    case 'timestamp':
      return from === 'text' || from === 'date' || from === 'timestamp';
  }
}
