/**
 * Records → numbered data rows → batches of 500 (spec "CSV import" rule 5), and CSV text →
 * the JSON-typed values the shared validation expects (a CSV cell is always text).
 */
import { createHash } from 'node:crypto';
import type { Field } from '../schema/model.ts';
import type { CsvRecord } from './csv-source.ts';
import type { ImportMapping, ImportMethod } from './mapping.ts';

export const BATCH_SIZE = 500;

export interface SourceRow {
  /** 1-based data row (the header is not counted). */
  readonly row: number;
  /** 1-based file line where the record starts. */
  readonly line: number;
  readonly fields: string[];
  /** Bad bytes in the record (not UTF-8, NUL): the row is rejected with this reason, never written. */
  readonly problem?: string;
  /** Indexes of the fields written as `""` (empty strings; an empty unquoted field is null). */
  readonly emptyQuoted?: readonly number[];
}

export interface Batch {
  /** 1-based. */
  readonly batch: number;
  readonly fromRow: number;
  readonly toRow: number;
  readonly rows: readonly SourceRow[];
  /** Digest of the rows' fields: a resumed import checks that the re-sent file is the same. */
  readonly fingerprint: string;
}

const UNIT_SEPARATOR = 0x1f;
const RECORD_SEPARATOR = 0x1e;

/**
 * Writes the rows' text as UTF-8 into one buffer that the next batch reuses, and hashes it in one
 * update: the bytes, and so the digests that jobs already recorded (one update per part: fields
 * joined by U+001F, problem, empty-quoted indexes, U+001E), are the same, without a string per row.
 */
class Fingerprinter {
  private buffer = Buffer.allocUnsafe(64 * 1024);
  private used = 0;

  digest(rows: readonly SourceRow[]): string {
    this.used = 0;
    for (const row of rows) {
      const fields = row.fields;
      for (let i = 0; i < fields.length; i++) {
        if (i > 0) this.byte(UNIT_SEPARATOR);
        this.text(fields[i] as string);
      }
      if (row.problem !== undefined) this.text(row.problem);
      if (row.emptyQuoted !== undefined) this.text(row.emptyQuoted.join(','));
      this.byte(RECORD_SEPARATOR);
    }
    return createHash('sha1').update(this.buffer.subarray(0, this.used)).digest('base64');
  }

  private byte(value: number): void {
    this.room(1);
    this.buffer[this.used++] = value;
  }

  private text(value: string): void {
    // A UTF-16 unit takes at most 3 bytes of UTF-8 (a surrogate pair takes 4 for its two units).
    this.room(value.length * 3);
    this.used += this.buffer.write(value, this.used, 'utf8');
  }

  private room(bytes: number): void {
    if (this.used + bytes <= this.buffer.length) return;
    const larger = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.used + bytes));
    this.buffer.copy(larger, 0, 0, this.used);
    this.buffer = larger;
  }
}

function makeBatch(batch: number, rows: SourceRow[], fingerprints: Fingerprinter): Batch {
  return { batch, fromRow: rows[0]?.row ?? 0, toRow: rows[rows.length - 1]?.row ?? 0, rows, fingerprint: fingerprints.digest(rows) };
}

/** The record numbered, built field by field (a spread copy takes V8's slow path). */
function sourceRow(record: CsvRecord, row: number): SourceRow {
  if (record.problem === undefined && record.emptyQuoted === undefined) return { row, line: record.line, fields: record.fields };
  return {
    row, line: record.line, fields: record.fields,
    ...(record.problem === undefined ? {} : { problem: record.problem }),
    ...(record.emptyQuoted === undefined ? {} : { emptyQuoted: record.emptyQuoted }),
  };
}

/** Rows parsed between two turns of the event loop. */
const ROWS_PER_TURN = 100;

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * Groups data records into batches; the row count restarts at 1 after the header. The records
 * come in groups (csv-source.ts `groups`). Between groups, once ROWS_PER_TURN rows are read, the
 * event loop gets a turn: the parser feeds the reader through promise callbacks, which run before
 * any I/O callback, so without it the next batch would be parsed whole before the database's
 * answer to the current batch is even read, and the database would wait for the parser instead
 * of working beside it.
 */
export async function* batchesOfGroups(groups: AsyncIterable<readonly CsvRecord[]>, size = BATCH_SIZE): AsyncGenerator<Batch, void, undefined> {
  let rows: SourceRow[] = [];
  let number = 0;
  let row = 0;
  let sinceTurn = 0;
  const fingerprints = new Fingerprinter();
  for await (const group of groups) {
    for (const record of group) {
      rows.push(sourceRow(record, ++row));
      if (rows.length === size) {
        yield makeBatch(++number, rows, fingerprints);
        rows = [];
      }
    }
    sinceTurn += group.length;
    if (sinceTurn >= ROWS_PER_TURN) {
      sinceTurn = 0;
      await nextTurn();
    }
  }
  if (rows.length > 0) yield makeBatch(++number, rows, fingerprints);
}


const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const TRUE = new Set(['true', 't', 'yes', 'y', '1']);
const FALSE = new Set(['false', 'f', 'no', 'n', '0']);

/** A non-empty CSV cell as the value a JSON body would carry; anything unreadable stays text. */
type CellConverter = (text: string) => unknown;

const asNumber: CellConverter = (text) => {
  const t = text.trim();
  return NUMBER.test(t) ? Number(t) : text;
};

/** Bigint and decimal stay text (no float rounding); a leading `+` goes. */
const asNumericText: CellConverter = (text) => {
  const t = text.trim();
  return t.charCodeAt(0) === 43 ? t.slice(1) : t;
};

const asBoolean: CellConverter = (text) => {
  const t = text.trim().toLowerCase();
  return TRUE.has(t) ? true : FALSE.has(t) ? false : text;
};

const asJson: CellConverter = (text) => {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
};

const trimmed: CellConverter = (text) => text.trim();
const asText: CellConverter = (text) => text;

/** One converter per column type, chosen once per import rather than per cell. */
const CONVERTERS: Record<Field['type'], CellConverter> = {
  integer: asNumber, float: asNumber, bigint: asNumericText, decimal: asNumericText, boolean: asBoolean, json: asJson,
  date: trimmed, timestamp: trimmed, time: trimmed, uuid: trimmed, text: asText, binary: asText, unknown: asText,
};

/**
 * An empty unquoted cell is null, as the CSV export writes a null (DESIGN §14 "Round trip"). On
 * INSERT it is left out unless the column is nullable with a default: leaving a value out gives
 * null in a nullable column without a default anyway, and elsewhere lets the column's default,
 * generated key or the row policy's claim value apply (or validation report a missing value).
 * Only a nullable column with a default would turn a left-out null into something else.
 */
function emptyCell(field: Field, method: ImportMethod): unknown {
  if (method === 'UPDATE') return null;
  return field.nullable && field.hasDefault && !field.autoIncrement ? null : undefined;
}

interface CompiledColumn {
  readonly index: number;
  readonly name: string;
  readonly convert: CellConverter;
  /** What an empty unquoted cell gives; undefined leaves the field out. */
  readonly empty: unknown;
}

/** Turns a row into a body keyed by API field names; the mapping is compiled once per import. */
export type RowBody = (row: SourceRow) => Record<string, unknown>;

/** The row-to-body function of a mapping: each column's converter and empty value settled once. */
export function compileRowBody(mapping: ImportMapping, method: ImportMethod): RowBody {
  const columns: CompiledColumn[] = mapping.columns.map((c) => ({ index: c.index, name: c.field.name, convert: CONVERTERS[c.field.type], empty: emptyCell(c.field, method) }));
  return (row) => {
    const body: Record<string, unknown> = {};
    for (const column of columns) {
      const text = row.fields[column.index] ?? '';
      const value = text !== '' ? column.convert(text) : row.emptyQuoted?.includes(column.index) ? '' : column.empty;
      if (value !== undefined) body[column.name] = value;
    }
    return body;
  };
}

