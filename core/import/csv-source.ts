/**
 * The import body as CSV records, streamed: bytes are counted against the limit, the delimiter
 * is detected from the first line when not given, and csv-parse turns chunks into records
 * (BOM stripped, quoted newlines kept). Only the records in flight are held, never the file.
 */
import { parse, type Parser } from 'csv-parse';
import { ApiError } from '../errors.ts';
import { decodeRecord, isBlank, lineBreaks, markEmptyQuoted, recordSize, type CsvRecord, type RawField } from './csv-fields.ts';
import { leanCast } from './csv-parse-patch.ts';

// The record type and the cast shortcut are part of the source's surface (tests check the shortcut).
export type { CsvRecord };

/** 100 MiB (DESIGN §12 "Import"). */
export const IMPORT_LIMIT_BYTES = 100 * 1024 * 1024;

export const DELIMITERS = [',', ';', '\t', '|'] as const;

/** How far the first line is looked at for the delimiter. */
const SNIFF_BYTES = 64 * 1024;

/** csv-parse refuses a single record larger than this instead of growing without bound. */
const MAX_RECORD_BYTES = 4 * 1024 * 1024;

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

export interface CsvSource {
  readonly delimiter: string;
  /**
   * Records in file order, in the groups the parser has ready (up to 100): one await per group
   * rather than per record. Blank lines and records whose fields are all blank are left out.
   */
  readonly groups: AsyncGenerator<CsvRecord[], void, undefined>;
  /** The same records one at a time; read either this or `groups`, not both. */
  readonly records: AsyncGenerator<CsvRecord, void, undefined>;
}

export interface CsvSourceOptions {
  /** Explicit delimiter; detected from the first line when absent. */
  readonly delimiter?: string;
  readonly limitBytes?: number;
}

/** The most frequent candidate outside quotes on the first line; ties go to the earlier candidate; none → ','. */
export function detectDelimiter(head: string): string {
  const counts = new Map<string, number>(DELIMITERS.map((d) => [d, 0]));
  let quoted = false;
  for (const char of head) {
    if (char === '"') quoted = !quoted;
    else if (!quoted && (char === '\n' || char === '\r')) break;
    else if (!quoted && counts.has(char)) counts.set(char, (counts.get(char) ?? 0) + 1);
  }
  let best: string = ',';
  let bestCount = 0;
  for (const [delimiter, count] of counts) {
    if (count > bestCount) {
      best = delimiter;
      bestCount = count;
    }
  }
  return best;
}

function tooLarge(limit: number): ApiError {
  return new ApiError('PAYLOAD_TOO_LARGE', `the file is larger than the import limit of ${limit} bytes; batches committed before the limit stay imported`);
}

function malformed(error: unknown): ApiError {
  const e = error as { code?: string; message?: string; lines?: number };
  if (e.code === 'CSV_MAX_RECORD_SIZE') return new ApiError('BAD_REQUEST', `a record near line ${e.lines ?? '?'} is larger than ${MAX_RECORD_BYTES} bytes`);
  const reason = (e.message ?? 'malformed CSV').replace(/^Invalid [^:]*: /, '');
  return new ApiError('BAD_REQUEST', `the file is not valid CSV near line ${e.lines ?? '?'}: ${reason}`);
}

/** Reads chunks until the first line is complete (or SNIFF_BYTES), so the delimiter can be chosen. */
async function sniff(iterator: AsyncIterator<Buffer>, limit: number): Promise<{ head: Buffer[]; size: number; ended: boolean }> {
  const head: Buffer[] = [];
  let size = 0;
  for (;;) {
    const next = await iterator.next();
    if (next.done) return { head, size, ended: true };
    const chunk = Buffer.isBuffer(next.value) ? next.value : Buffer.from(next.value as Uint8Array);
    head.push(chunk);
    size += chunk.length;
    if (size > limit) throw tooLarge(limit);
    if (chunk.includes(10) || size >= SNIFF_BYTES) return { head, size, ended: false };
  }
}

/** The head chunks without a leading UTF-8 byte order mark. */
function withoutBom(head: Buffer[]): Buffer[] {
  const joined = Buffer.concat(head);
  return joined.subarray(0, 3).equals(BOM) ? [joined.subarray(3)] : [joined];
}

/** Writes the rest of the body into the parser with backpressure, enforcing the byte limit. */
async function feed(parser: Parser, iterator: AsyncIterator<Buffer>, head: Buffer[], size: number, ended: boolean, limit: number): Promise<void> {
  try {
    for (const chunk of head) if (!parser.write(chunk)) await waitDrain(parser);
    let total = size;
    while (!ended) {
      const next = await iterator.next();
      if (next.done) break;
      const chunk = next.value as Buffer;
      total += chunk.length;
      if (total > limit) throw tooLarge(limit);
      if (parser.destroyed) return;
      if (!parser.write(chunk)) await waitDrain(parser);
    }
    parser.end();
  } catch (error) {
    parser.destroy(error instanceof Error ? error : new Error(String(error)));
  }
}

function waitDrain(parser: Parser): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      parser.off('drain', done);
      parser.off('close', done);
      resolve();
    };
    parser.once('drain', done);
    parser.once('close', done);
  });
}


/** Records read in one go before the reader yields them. */
const GROUP_SIZE = 100;

/** Resolves at the parser's next event that may change what `read()` gives: data, end, close or error. */
function parserWaker(parser: Parser): () => Promise<void> {
  let wake: (() => void) | null = null;
  const signal = (): void => {
    const resolve = wake;
    wake = null;
    resolve?.();
  };
  for (const event of ['readable', 'end', 'close', 'error']) parser.on(event, signal);
  // Events come on a later tick than the read() that found nothing, so the waker is always set in time.
  return () => new Promise((resolve) => (wake = resolve));
}

/** csv-parse's own errors (code CSV_…) become 400s that name the line; anything else passes. */
function asCsvError(error: unknown): unknown {
  if (error instanceof ApiError) return error;
  if (typeof (error as { code?: unknown }).code === 'string' && String((error as { code: string }).code).startsWith('CSV_')) return malformed(error);
  return error;
}

/**
 * Reads the parser synchronously while it has records (`read()`), instead of through its async
 * iterator, which costs a promise and a result object per record on top of this generator's own.
 */
async function* recordGroups(parser: Parser): AsyncGenerator<CsvRecord[], void, undefined> {
  // Lines are counted here rather than with csv-parse's `info` option, whose per-record snapshot
  // halves the parser's throughput: a record takes one line plus the line breaks inside its quotes.
  let line = 1;
  const ready = parserWaker(parser);
  try {
    for (;;) {
      const group: CsvRecord[] = [];
      let raw: RawField[] | null = null;
      while (group.length < GROUP_SIZE && (raw = parser.read() as RawField[] | null) !== null) {
        // csv-parse bounds a record of text fields itself, but each byte field alone.
        if (recordSize(raw) > MAX_RECORD_BYTES) throw malformed({ code: 'CSV_MAX_RECORD_SIZE', lines: line });
        const decoded = decodeRecord(raw, line);
        line += 1 + lineBreaks(decoded.fields);
        if (!isBlank(decoded.fields) || decoded.emptyQuoted) group.push(decoded);
      }
      if (group.length > 0) yield group;
      else if (raw === null) {
        if (parser.errored) throw parser.errored;
        if (parser.readableEnded || parser.destroyed) return;
        await ready();
      }
    }
  } catch (error) {
    throw asCsvError(error);
  } finally {
    if (!parser.destroyed) parser.destroy();
  }
}

async function* oneByOne(groups: AsyncGenerator<CsvRecord[], void, undefined>): AsyncGenerator<CsvRecord, void, undefined> {
  for await (const group of groups) yield* group;
}

/**
 * Opens the body as CSV. Wrong column counts are not relaxed away: every record keeps exactly
 * the fields it has, and the caller refuses a record whose width differs from the header's
 * (a failing row, reported and skipped, rather than the end of the whole import).
 */
export async function openCsv(body: AsyncIterable<Buffer>, options: CsvSourceOptions = {}): Promise<CsvSource> {
  const limit = options.limitBytes ?? IMPORT_LIMIT_BYTES;
  const iterator = body[Symbol.asyncIterator]();
  const sniffed = await sniff(iterator, limit);
  const head = withoutBom(sniffed.head);
  const delimiter = options.delimiter ?? detectDelimiter(Buffer.concat(head).toString('utf8'));
  const parser = parse({
    // The BOM is stripped here: csv-parse's own `bom` switches to text output when it sees one.
    bom: false,
    encoding: null,
    delimiter,
    relax_column_count: true,
    relax_quotes: false,
    // Empty lines come through as one empty field and are dropped with the other blank records,
    // so that line numbers can be counted from the records alone.
    skip_empty_lines: false,
    max_record_size: MAX_RECORD_BYTES,
    cast: markEmptyQuoted,
  });
  leanCast(parser);
  parser.on('error', () => undefined);
  void feed(parser, iterator, head, sniffed.size, sniffed.ended, limit);
  const groups = recordGroups(parser);
  return { delimiter, groups, records: oneByOne(groups) };
}
