/**
 * Text parsers shared by the pg and PGlite drivers, keyed by type OID. Numbers that may not
 * fit a double stay strings (core decides per column, DESIGN §4), dates stay 'YYYY-MM-DD', and
 * `timestamp without time zone` is read as UTC rather than the process's local time.
 */
const INT8 = 20;
const NUMERIC = 1700;
const DATE = 1082;
const TIME = 1083;
const TIMESTAMP = 1114;
const TIMESTAMPTZ = 1184;

const keepText = (text: string): string => text;

function timestampAsUtc(text: string): Date | string {
  const iso = `${text.replace(' ', 'T')}Z`;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? text : date;
}

function timestampWithZone(text: string): Date | string {
  // Sessions run with TimeZone=UTC, so the text ends in +00 (or +00:MM for odd zones).
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
