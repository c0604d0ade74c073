/**
 * Text parsers shared by the pg and PGlite drivers, keyed by type OID. Numbers that may not
 * fit a double stay strings (core decides per column, DESIGN §4), dates stay 'YYYY-MM-DD', and
 * `timestamp without time zone` is read as UTC rather than the process's local time.
 * Timestamps of years 1–9999 in UTC become their wire text directly (`…T10:00:00.123Z`, what a
 * Date's toISOString gives): a list page holds dozens, and building a Date for each and printing
 * it again was the largest per-row cost. Anything else still goes through a Date.
 */
const INT8 = 20;
const NUMERIC = 1700;
const DATE = 1082;
const TIME = 1083;
const TIMESTAMP = 1114;
const TIMESTAMPTZ = 1184;

const keepText = (text: string): string => text;

/** `YYYY-MM-DD HH:MM:SS[.ffffff]` as the ISO DateStyle prints a UTC time of years 1–9999 (no era, no infinity). */
const PLAIN_UTC = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:\.(\d{1,6}))?$/;

/** The wire text of a plain UTC timestamp, milliseconds cut as a Date cuts them; null for any other text. */
function plainUtcWire(text: string): string | null {
  const match = PLAIN_UTC.exec(text);
  if (!match) return null;
  const millis = (match[1] ?? '').padEnd(3, '0').slice(0, 3);
  return `${text.slice(0, 10)}T${text.slice(11, 19)}.${millis}Z`;
}

function timestampAsUtc(text: string): Date | string {
  const wire = plainUtcWire(text);
  if (wire !== null) return wire;
  const iso = `${text.replace(' ', 'T')}Z`;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? text : date;
}

function timestampWithZone(text: string): Date | string {
  // Sessions run with TimeZone=UTC, so the text ends in +00 (or +00:MM for odd zones).
  const wire = text.endsWith('+00') ? plainUtcWire(text.slice(0, -3)) : null;
  if (wire !== null) return wire;
  const normalised = text.replace(' ', 'T').replace(/([+-]\d\d)$/, '$1:00');
  const date = new Date(normalised);
  return Number.isNaN(date.getTime()) ? text : date;
}

export const postgresTextParsers: Record<number, (text: string) => unknown> = {
  [INT8]: keepText,
  [NUMERIC]: keepText,
  [DATE]: keepText,
  [TIME]: keepText,
  [TIMESTAMP]: timestampAsUtc,
  [TIMESTAMPTZ]: timestampWithZone,
};
