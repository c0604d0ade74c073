/**
 * CSV fields as csv-parse hands them over, turned into records: text checked on its bytes (not
 * UTF-8, NUL), `""` told apart from an empty cell. csv-source.ts reads the parser with these; the
 * shortcut through csv-parse's cast step is csv-parse-patch.ts.
 */
import { isUtf8 } from 'node:buffer';

/** What a rejected record's stored text shows in place of a NUL or of bytes that are not UTF-8. */
export const REPLACEMENT = '\uFFFD';

/** What csv-parse's `cast` hands over for a quoted empty field (a raw field is a Buffer). */
export const EMPTY_QUOTED = Symbol('empty quoted field');

/** A field whose bytes are not UTF-8, as the lean cast step hands it over: its text shows U+FFFD. */
export class NotUtf8 {
  constructor(readonly text: string) {}
}

/** Bytes (the documented path) or text checked on its bytes (the lean path). */
export type RawField = Uint8Array | string | NotUtf8 | typeof EMPTY_QUOTED;

/** Tells `""` from an empty unquoted field, which csv-parse otherwise gives as the same empty bytes. */
export function markEmptyQuoted(value: unknown, context: { quoting: boolean }): unknown {
  return context.quoting && (value as Uint8Array).length === 0 ? EMPTY_QUOTED : value;
}

export interface CsvRecord {
  /** The record's text; with a `problem`, made storable (invalid bytes and NUL as U+FFFD). */
  readonly fields: string[];
  /** 1-based line of the file where the record starts. */
  readonly line: number;
  /** Why the record cannot be imported as it is (bad bytes); the caller rejects it with this reason. */
  readonly problem?: string;
  /** Indexes of the fields written as a quoted `""`: an empty string, where an empty unquoted cell is null. */
  readonly emptyQuoted?: readonly number[];
}


const notUtf8 = (index: number): string => `field ${index + 1} is not valid UTF-8; the invalid bytes are shown as U+FFFD in rejections.csv`;

/** A field's text from its bytes (the documented cast path), checked as the lean path checks it. */
function textOf(bytes: Uint8Array): string | NotUtf8 {
  const buffer = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  const text = buffer.toString('utf8');
  return text.includes(REPLACEMENT) && !isUtf8(buffer) ? new NotUtf8(text) : text;
}

/**
 * The record's fields as text, checked on the bytes: csv-parse keeps raw field bytes until a
 * field ends, so a multi-byte sequence split across chunks is whole, and a byte that is not
 * UTF-8 is caught instead of silently becoming U+FFFD. NUL is refused too: the job store
 * (PostgreSQL text/jsonb) and most columns cannot hold it. The parser's array becomes the
 * record's `fields` (it is new per record): a record costs one object beside the parser's array.
 */
export function decodeRecord(raw: RawField[], line: number): CsvRecord {
  const fields = raw as unknown[] as string[];
  let emptyQuoted: number[] | undefined;
  let problem: string | undefined;
  for (let index = 0; index < raw.length; index++) {
    let value = raw[index] as RawField;
    if (value === EMPTY_QUOTED) {
      (emptyQuoted ??= []).push(index);
      fields[index] = '';
      continue;
    }
    if (typeof value !== 'string' && !(value instanceof NotUtf8)) value = textOf(value);
    if (value instanceof NotUtf8) {
      problem ??= notUtf8(index);
      value = value.text;
    }
    if (value.includes('\0')) {
      problem ??= `field ${index + 1} contains a NUL character; it is shown as U+FFFD in rejections.csv`;
      value = value.replaceAll('\0', REPLACEMENT);
    }
    fields[index] = value;
  }
  // The usual record is built in one step, without spreading optional parts.
  if (problem === undefined && emptyQuoted === undefined) return { fields, line };
  return { fields, line, ...(problem === undefined ? {} : { problem }), ...(emptyQuoted === undefined ? {} : { emptyQuoted }) };
}

/** Bytes for byte fields, UTF-16 units for text: csv-parse bounds the text ones itself, but not a record of byte fields. */
export function recordSize(raw: readonly RawField[]): number {
  let total = 0;
  for (const field of raw) total += field === EMPTY_QUOTED ? 0 : field instanceof NotUtf8 ? field.text.length : field.length;
  return total;
}

export function isBlank(fields: readonly string[]): boolean {
  return fields.every((f) => f.trim() === '');
}

export function lineBreaks(fields: readonly string[]): number {
  let count = 0;
  for (const field of fields) {
    for (let at = field.indexOf('\n'); at >= 0; at = field.indexOf('\n', at + 1)) count++;
  }
  return count;
}
