/**
 * The records of the CSV export through COPY, as the row path writes them, from the records
 * PostgreSQL sends (postgres-copy-out.ts hands over each CopyData payload):
 * - each record ends `,\n` (the query's empty last cell, postgres-copy-sql.ts) and is written
 *   with CRLF instead;
 * - a timestamp cell comes as the type's own text and is written in the wire form
 *   (`2026-11-22T10:00:00.123Z`, postgres-types.ts's plainUtcWire). PostgreSQL's `to_char` made
 *   the same text but cost 0.4 s of the backend's time per column per million rows, most of what
 *   kept the export under half of a bare COPY's speed (docs/export.md, "Timestamps written by the COPY reader").
 *
 * Records are written into the pool's buffers, whole, and a buffer goes out when the next record
 * does not fit or the caller asks (`flush`): the wire form may be longer than the text (5 bytes
 * at most), so a record cannot stay in the buffer it was read into.
 */
import type { BufferPool } from './copy-buffer-pool.ts';

const COMMA = 0x2c;
const QUOTE = 0x22;
const LF = 0x0a;
const CR = 0x0d;
const DIGIT_0 = 0x30;
const DIGIT_9 = 0x39;
const MINUS = 0x2d;
const COLON = 0x3a;
const SPACE = 0x20;
const DOT = 0x2e;
const PLUS = 0x2b;
const T = 0x54;
const Z = 0x5a;

/** The wire text's length, and how much longer it can be than the shortest text it is made from (`YYYY-MM-DD HH:MM:SS`). */
const WIRE_LENGTH = 24;
const MOST_GROWTH = WIRE_LENGTH - 19;
/** Segments shorter than this are copied byte by byte: Buffer#copy's own cost is larger. */
const SHORT_COPY = 48;

const isDigit = (byte: number | undefined): boolean => byte !== undefined && byte >= DIGIT_0 && byte <= DIGIT_9;

/**
 * Whether src[from, end) is `YYYY-MM-DD HH:MM:SS[.f{1,6}]`: a UTC time of years 1–9999 as the ISO
 * DateStyle prints it (a timestamptz's `+00` already cut). Anything else (an era, a fifth year
 * digit, infinity, an empty cell) is kept as it is, as the row path keeps its text.
 */
function isPlainUtc(src: Uint8Array, from: number, end: number): boolean {
  const length = end - from;
  if (length < 19 || length === 20 || length > 26) return false;
  for (let i = 0; i < 19; i++) {
    const byte = src[from + i];
    const expected = i === 4 || i === 7 ? MINUS : i === 10 ? SPACE : i === 13 || i === 16 ? COLON : -1;
    if (expected < 0 ? !isDigit(byte) : byte !== expected) return false;
  }
  if (length === 19) return true;
  if (src[from + 19] !== DOT) return false;
  for (let i = from + 20; i < end; i++) if (!isDigit(src[i])) return false;
  return true;
}

/**
 * Writes the wire form of the timestamp text src[from, to) at out[at] and returns its length, or
 * 0 (nothing written) when the text is not a plain UTC time. Milliseconds are cut, not rounded,
 * as a Date and plainUtcWire cut them.
 */
export function writeWireTimestamp(src: Uint8Array, from: number, to: number, out: Uint8Array, at: number): number {
  const zoned = to - from >= 22 && src[to - 3] === PLUS && src[to - 2] === DIGIT_0 && src[to - 1] === DIGIT_0;
  const end = zoned ? to - 3 : to;
  if (!isPlainUtc(src, from, end)) return 0;
  for (let i = 0; i < 19; i++) out[at + i] = src[from + i] as number;
  out[at + 10] = T;
  out[at + 19] = DOT;
  for (let i = 20; i < 23; i++) out[at + i] = from + i < end ? (src[from + i] as number) : DIGIT_0;
  out[at + 23] = Z;
  return WIRE_LENGTH;
}

/** The index of the comma that ends the cell starting at `pos` (a quoted cell's doubled quotes are part of it), or -1 past `to`. */
function cellEnd(src: Uint8Array, pos: number, to: number): number {
  let i = pos;
  if (src[i] === QUOTE) {
    for (i++; i < to; i++) {
      if (src[i] !== QUOTE) continue;
      if (src[i + 1] !== QUOTE) return i + 1 < to && src[i + 1] === COMMA ? i + 1 : -1;
      i++;
    }
    return -1;
  }
  while (i < to && src[i] !== COMMA) i++;
  return i < to ? i : -1;
}

function copyBytes(src: Buffer, from: number, to: number, out: Buffer, at: number): void {
  if (to - from < SHORT_COPY) {
    for (let i = from; i < to; i++) out[at++] = src[i] as number;
  } else src.copy(out, at, from, to);
}

export class CsvRecords {
  private out: Buffer | null = null;
  private used = 0;

  /**
   * @param timestampCells the indexes of the timestamp cells in each record, ascending
   * @param emit takes each buffer of whole records; it belongs to the consumer until given back to `pool`
   */
  constructor(
    private readonly pool: BufferPool,
    private readonly timestampCells: readonly number[],
    private readonly emit: (records: Buffer) => void,
  ) {}

  /** One record: src[from, to), a CopyData payload. */
  write(src: Buffer, from: number, to: number): void {
    if (to - from < 2 || src[to - 1] !== LF || src[to - 2] !== COMMA) throw new Error('COPY: a row does not end with its empty last cell');
    const out = this.room(to - from + MOST_GROWTH * this.timestampCells.length);
    let at = this.used;
    let copied = from;
    let pos = from;
    let cell = 0;
    for (const index of this.timestampCells) {
      for (; cell < index; cell++) pos = this.next(src, pos, to) + 1;
      const end = this.next(src, pos, to);
      const written = writeWireTimestamp(src, pos, end, out, at + pos - copied);
      if (written > 0) {
        copyBytes(src, copied, pos, out, at);
        at += pos - copied + written;
        copied = end;
      }
      pos = end + 1;
      cell++;
    }
    copyBytes(src, copied, to - 2, out, at);
    at += to - 2 - copied;
    out[at] = CR;
    out[at + 1] = LF;
    this.used = at + 2;
  }

  /** The records written so far go out. */
  flush(): void {
    const out = this.out;
    if (out === null || this.used === 0) return;
    this.out = null;
    this.emit(out.subarray(0, this.used));
    this.used = 0;
  }

  private next(src: Uint8Array, pos: number, to: number): number {
    const end = cellEnd(src, pos, to);
    if (end < 0) throw new Error('COPY: a record has fewer cells than its columns');
    return end;
  }

  /** The buffer the next record goes into, with `length` bytes free after `used`. */
  private room(length: number): Buffer {
    if (this.out !== null && this.out.length - this.used >= length) return this.out;
    this.flush();
    const fresh = this.pool.take();
    // A record larger than the pool's buffers gets one of its own, left to the GC once written.
    this.out = fresh.length >= length ? fresh : Buffer.allocUnsafe(length);
    if (this.out !== fresh) this.pool.give(fresh);
    return this.out;
  }
}
