/**
 * Wire values (DESIGN §4): the same row reads back as the same JSON on every vendor.
 * Drivers hand over what they parsed; this is the one place that turns it into JSON.
 */
import type { ColumnType } from './introspection.ts';

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

function toBigintWire(raw: unknown): number | string {
  const text = typeof raw === 'bigint' ? raw.toString() : String(raw);
  const big = BigInt(text);
  return big <= MAX_SAFE && big >= -MAX_SAFE ? Number(big) : big.toString();
}

function toNumber(raw: unknown): number | string {
  const n = typeof raw === 'number' ? raw : Number(raw);
  // NaN and ±Infinity have no JSON number: keep the database's text.
  return Number.isFinite(n) ? n : String(raw);
}

function toBoolean(raw: unknown): boolean {
  if (typeof raw === 'boolean') return raw;
  if (Buffer.isBuffer(raw)) return raw.some((b) => b !== 0);
  if (typeof raw === 'string') return raw === '1' || raw === 't' || raw === 'true';
  return Number(raw) !== 0;
}

function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0');
}

function toDate(raw: unknown): string {
  if (raw instanceof Date) return `${raw.getUTCFullYear()}-${pad(raw.getUTCMonth() + 1)}-${pad(raw.getUTCDate())}`;
  return String(raw).slice(0, 10);
}

/**
 * UTC text as MySQL/MariaDB hand DATETIME over (whole seconds or milliseconds, no zone), with a
 * year from 1000, a month 01–12, a day 01–28 and a time inside the day: a real instant whatever
 * the month. The rest (zero dates, days a month may lack) goes through Date as before.
 */
const PLAIN_UTC_TEXT = /^[1-9]\d{3}-(0[1-9]|1[0-2])-(0[1-9]|1\d|2[0-8]) ([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d{3})?$/;

/**
 * Already the wire form (`YYYY-MM-DDTHH:MM:SS.mmmZ`), as the PostgreSQL drivers hand most
 * timestamps over: told by its shape alone, since this runs for every timestamp of every page
 * (a driver hands over valid times only).
 */
function isWireTimestamp(raw: string): boolean {
  return raw.length === 24 && raw.charCodeAt(10) === 84 && raw.charCodeAt(19) === 46 && raw.charCodeAt(23) === 90;
}

function toTimestamp(raw: unknown): string {
  if (raw instanceof Date) return raw.toISOString();
  if (typeof raw === 'string' && isWireTimestamp(raw)) return raw;
  // The MySQL/MariaDB form is rewritten as text too, without building a Date, when the driver's
  // text is certainly a real instant.
  if (typeof raw === 'string' && PLAIN_UTC_TEXT.test(raw)) {
    return raw.length === 19 ? `${raw.slice(0, 10)}T${raw.slice(11)}.000Z` : `${raw.slice(0, 10)}T${raw.slice(11)}Z`;
  }
  const text = String(raw).replace(' ', 'T');
  const zoned = /(Z|[+-]\d\d(:?\d\d)?)$/.test(text) ? text : `${text}Z`;
  const date = new Date(zoned);
  return Number.isNaN(date.getTime()) ? String(raw) : date.toISOString();
}

const TIMESTAMP_TEXT = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

/**
 * A timestamp as ISO UTC text that keeps every fractional digit (at least three, trailing zeros
 * beyond them dropped), or null when `raw` is not one. The wire form stops at milliseconds; a
 * cursor must not (a key of `.123456` sought as `> .123` comes again). Zone-less text is UTC, as
 * the drivers hand it over. A zone shifts whole minutes, so the fraction is kept as written.
 */
export function exactTimestamp(raw: unknown): string | null {
  if (raw instanceof Date) return Number.isNaN(raw.getTime()) ? null : raw.toISOString();
  const match = typeof raw === 'string' ? TIMESTAMP_TEXT.exec(raw.trim()) : null;
  if (!match) return null;
  const [, day, time, fraction = '', zone = 'Z'] = match;
  const whole = new Date(`${day}T${time}${zone.length === 3 ? `${zone}:00` : zone}`);
  if (Number.isNaN(whole.getTime())) return null;
  const digits = fraction.padEnd(3, '0').replace(/(?<=\d{3})0+$/, '');
  return `${whole.toISOString().slice(0, 19)}.${digits}Z`;
}

/** JSON text from the driver → its value; text that is not JSON is kept as it is. */
function parseJsonText(raw: unknown): unknown {
  if (typeof raw !== 'string') return raw;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
}

/**
 * toWireValue for one column type, chosen once: a page converts the same few columns row after row
 * (core/query/assemble.ts).
 */
export function wireConverter(type: ColumnType, jsonAsText: boolean): (raw: unknown) => unknown {
  switch (type) {
    case 'integer':
    case 'decimal':
    case 'float':
      return (raw) => (raw === null || raw === undefined ? null : toNumber(raw));
    case 'timestamp':
      return (raw) => (raw === null || raw === undefined ? null : toTimestamp(raw));
    case 'text':
      return (raw) => (raw === null || raw === undefined ? null : typeof raw === 'string' ? raw : toWireValue(type, raw, jsonAsText));
    default:
      return (raw) => toWireValue(type, raw, jsonAsText);
  }
}

/** `jsonAsText`: the driver hands json columns over as text (Dialect.jsonArrivesAsText). */
export function toWireValue(type: ColumnType, raw: unknown, jsonAsText: boolean): unknown {
  if (raw === null || raw === undefined) return null;
  switch (type) {
    case 'integer':
    case 'decimal':
    case 'float':
      return toNumber(raw);
    case 'bigint':
      return toBigintWire(raw);
    case 'boolean':
      return toBoolean(raw);
    case 'date':
      return toDate(raw);
    case 'timestamp':
      return toTimestamp(raw);
    case 'json':
      return jsonAsText ? parseJsonText(raw) : raw;
    case 'binary':
      // pg gives a Buffer, PGlite a plain Uint8Array.
      return raw instanceof Uint8Array ? Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString('base64') : String(raw);
    default:
      return raw instanceof Date ? raw.toISOString() : typeof raw === 'string' ? raw : String(raw);
  }
}
