/**
 * CSV cells straight from the driver's rows (DESIGN §14: a cell is the §4 wire value as text,
 * a null stays null). The converter of each column is chosen once per export from its type, so a
 * million rows pay no per-cell dispatch and build no nested record: the same text as turning
 * the assembled record's value into a cell, without the record.
 */
import type { ColumnType } from '../schema/introspection.ts';
import { toWireValue } from '../schema/values.ts';
import type { Column } from './assemble.ts';

export type Cell = string | null;
export type RowCells = (row: Record<string, unknown>) => Cell[];
type CellOf = (raw: unknown) => Cell;

/** The §4 wire value as cell text: json (and any object) as JSON text, anything else as its string. */
function genericCell(type: ColumnType, jsonAsText: boolean): CellOf {
  return (raw) => {
    const value = toWireValue(type, raw, jsonAsText);
    if (value === null || value === undefined) return null;
    return type === 'json' || typeof value === 'object' ? JSON.stringify(value) : String(value);
  };
}

const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function validDay(year: number, month: number, day: number): boolean {
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return month >= 1 && month <= 12 && day >= 1 && day <= (month === 2 && leap ? 29 : (DAYS[month - 1] ?? 0));
}

/** A UTC timestamp as a database prints it: space or T, any fraction, no zone or a zero one. */
const UTC_TEXT = /^\d{4}-\d\d-\d\d[T ](?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:\.\d{1,9})?(?:Z|[+-]00(?::?00)?)?$/;

/** The number written by the ASCII digits at [from, to) of a text already matched as digits. */
function digitsAt(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) n = n * 10 + text.charCodeAt(i) - 48;
  return n;
}

const DOT = 46;

/** The first three fraction digits (`.f…` at index 19), padded with zeros: cut, as a Date cuts them. */
function millisOf(text: string): string {
  if (text.charCodeAt(19) !== DOT) return '000';
  let end = 20;
  while (end < 23 && end < text.length && text.charCodeAt(end) >= 48 && text.charCodeAt(end) <= 57) end++;
  return text.slice(20, end).padEnd(3, '0');
}

/**
 * The wire form (`…T10:00:00.123Z`, cut at milliseconds as a Date cuts them) of a timestamp read
 * as text, or null when the text is not a plain UTC one (the caller then parses it as a Date).
 * No Date is built: for a million rows of three timestamps, parsing and printing Dates costs
 * more than everything else the export does. One regex test without captures, the numbers read
 * from fixed positions: this runs three times per exported row.
 */
export function wireTimestampOfText(text: string): string | null {
  if (!UTC_TEXT.test(text) || !validDay(digitsAt(text, 0, 4), digitsAt(text, 5, 7), digitsAt(text, 8, 10))) return null;
  return `${text.slice(0, 10)}T${text.slice(11, 19)}.${millisOf(text)}Z`;
}

/** toNumber's rule (values.ts) as text: the number's shortest form, or the database's text when it is not finite. */
function numberText(text: string): string {
  const n = Number(text);
  return Number.isFinite(n) ? String(n) : text;
}

/** Sign, whole digits without leading zeros, fraction digits without trailing zeros. */
const DECIMAL_TEXT = /^([+-]?)0*(\d*?)(?:\.(\d*?)0*)?$/;

const isDigit = (code: number): boolean => code >= 48 && code <= 57;

/**
 * True when the text is already written plainly: an optional `-`, a first digit 1–9, digits with
 * at most one `.`, and then a last digit 1–9 (`123.45`, `-7`, `100`). Most amounts are; they skip
 * the regex, which is a tenth of the export's cell work.
 */
function isPlainDecimal(text: string): boolean {
  const start = text.charCodeAt(0) === 45 ? 1 : 0;
  const first = text.charCodeAt(start);
  if (!(first >= 49 && first <= 57)) return false;
  let dot = false;
  for (let i = start + 1; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === DOT && !dot) dot = true;
    else if (!isDigit(code)) return false;
  }
  const last = text.charCodeAt(text.length - 1);
  return !dot || (last >= 49 && last <= 57);
}

/**
 * A DECIMAL cell: the database's digits, written plainly ("0012.50" → "12.5"). For every value a
 * double holds exactly this is the JSON number's text too; beyond (19 significant digits, say) it
 * keeps the digits the JSON number loses, so an exported file imports back to the same value.
 */
function decimalText(text: string): string {
  if (isPlainDecimal(text)) return text;
  const match = DECIMAL_TEXT.exec(text);
  if (!match) return numberText(text);
  const [, sign, whole, fraction] = match;
  const digits = `${whole || '0'}${fraction ? `.${fraction}` : ''}`;
  return digits === '0' || sign !== '-' ? digits : `-${digits}`;
}

/** The wire value of a driver value, for a statement that read timestamps as text (see `cellOfType`). */
export function wireValueOfExport(type: ColumnType, raw: unknown, jsonAsText: boolean): unknown {
  if (type === 'timestamp' && typeof raw === 'string') return wireTimestampOfText(raw) ?? toWireValue(type, raw, jsonAsText);
  return toWireValue(type, raw, jsonAsText);
}

function cellOfType(type: ColumnType, jsonAsText: boolean): CellOf {
  const generic = genericCell(type, jsonAsText);
  switch (type) {
    case 'decimal':
      return (raw) => (typeof raw === 'number' ? String(raw) : typeof raw === 'string' ? decimalText(raw) : generic(raw));
    case 'integer':
    case 'float':
      return (raw) => (typeof raw === 'number' ? String(raw) : typeof raw === 'string' ? numberText(raw) : generic(raw));
    case 'text':
    case 'uuid':
    case 'time':
      return (raw) => (typeof raw === 'string' ? raw : generic(raw));
    case 'timestamp':
      // Read as text (the dialect's exactText, see compileUnpaged): no Date unless the text is unusual.
      return (raw) => (typeof raw === 'string' ? (wireTimestampOfText(raw) ?? generic(raw)) : generic(raw));
    default:
      return generic;
  }
}

/** The aliases of the hidden keys of every expanded node above a column: a null one means the related row is missing or hidden. */
export function guardsOf(columns: readonly Column[], column: Column): string[] {
  const keys = new Map(columns.filter((c) => c.key === null).map((c) => [c.path.join('.'), c.alias]));
  return column.path.map((_, i) => keys.get(column.path.slice(0, i + 1).join('.'))).filter((alias): alias is string => alias !== undefined);
}

interface CellColumn {
  readonly alias: string;
  readonly guards: readonly string[];
  readonly cell: CellOf;
}

function cellsOf(row: Record<string, unknown>, columns: readonly CellColumn[]): Cell[] {
  const cells = new Array<Cell>(columns.length);
  for (let i = 0; i < columns.length; i++) {
    const column = columns[i] as CellColumn;
    const raw = row[column.alias];
    let hidden = raw === null || raw === undefined;
    for (let g = 0; !hidden && g < column.guards.length; g++) {
      const key = row[column.guards[g] as string];
      hidden = key === null || key === undefined;
    }
    cells[i] = hidden ? null : column.cell(raw);
  }
  return cells;
}

/** `columns`: the statement's select list; the output columns (key not null) become cells, in order. */
export function rowCells(columns: readonly Column[], jsonAsText: boolean): RowCells {
  const cellColumns = columns
    .filter((c) => c.key !== null)
    .map((c) => ({ alias: c.alias, guards: guardsOf(columns, c), cell: cellOfType(c.type, jsonAsText) }));
  return (row) => cellsOf(row, cellColumns);
}
