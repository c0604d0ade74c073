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

/**
 * One hash update per row, not one per part: the bytes hashed, and so the digests that jobs
 * already recorded, are the same (decoded fields hold no lone surrogate to pair across parts).
 */
function fingerprintOf(rows: readonly SourceRow[]): string {
  const hash = createHash('sha1');
  for (const row of rows) hash.update(`${row.fields.join('\u001f')}${row.problem ?? ''}${row.emptyQuoted?.join(',') ?? ''}\u001e`);
  return hash.digest('base64');
}

function makeBatch(batch: number, rows: SourceRow[]): Batch {
  return { batch, fromRow: rows[0]?.row ?? 0, toRow: rows[rows.length - 1]?.row ?? 0, rows, fingerprint: fingerprintOf(rows) };
}

/** Groups data records into batches; the row count restarts at 1 after the header. */
export async function* batchesOf(records: AsyncIterable<CsvRecord>, size = BATCH_SIZE): AsyncGenerator<Batch, void, undefined> {
  let rows: SourceRow[] = [];
  let number = 0;
  let row = 0;
  for await (const record of records) {
    ++row;
    rows.push({ ...record, row });
    if (rows.length === size) {
      yield makeBatch(++number, rows);
      rows = [];
    }
  }
  if (rows.length > 0) yield makeBatch(++number, rows);
}

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const TRUE = new Set(['true', 't', 'yes', 'y', '1']);
const FALSE = new Set(['false', 'f', 'no', 'n', '0']);

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

/**
 * A CSV cell as the value a JSON body would carry. Numbers and booleans are read from text;
 * anything unreadable is passed on as text so validation reports it with its usual message.
 * `quoted`: the cell was written `""`, an empty string rather than an empty cell.
 */
export function cellValue(field: Field, text: string, method: ImportMethod, quoted = false): unknown {
  if (text === '') return quoted ? '' : emptyCell(field, method);
  switch (field.type) {
    case 'integer':
    case 'float': {
      const t = text.trim();
      return NUMBER.test(t) ? Number(t) : text;
    }
    case 'bigint':
    case 'decimal':
      return text.trim().replace(/^\+/, '');
    case 'boolean': {
      const t = text.trim().toLowerCase();
      return TRUE.has(t) ? true : FALSE.has(t) ? false : text;
    }
    case 'json':
      try {
        return JSON.parse(text) as unknown;
      } catch {
        return text;
      }
    case 'date':
    case 'timestamp':
    case 'time':
    case 'uuid':
      return text.trim();
    default:
      return text;
  }
}

/** The row as a body keyed by API field names. */
export function rowBody(row: SourceRow, mapping: ImportMapping, method: ImportMethod): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const column of mapping.columns) {
    const value = cellValue(column.field, row.fields[column.index] ?? '', method, row.emptyQuoted?.includes(column.index) ?? false);
    if (value !== undefined) body[column.field.name] = value;
  }
  return body;
}
