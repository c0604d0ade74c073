/**
 * Export responses (DESIGN §14 "Export"): which format a list request asks for, and the CSV or
 * NDJSON body streamed from the export's batches. The body is a Readable built from a generator,
 * so a batch is read from the database only when the socket has taken the one before
 * (backpressure), and a client that goes away ends the generator, which stops the statement.
 * The database's own CSV (`WrittenInTurn`) is written chunk by chunk, each after the socket took
 * the one before, since its chunks share memory the COPY reader fills again.
 */
import type { ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import type { Context } from 'koa';
import { stringify, type Options } from 'csv-stringify/sync';
import { ApiError, badRequest } from '../../core/errors.ts';
import type { JsonRecord } from '../../core/query/assemble.ts';
import { exportCells, exportRecords, type CopiedExport, type RecordExport } from '../../core/query/export.ts';
import type { Cell } from '../../core/query/export-cells.ts';
import { apiHeader, displayHeader } from '../../core/query/export-header.ts';
import { LIST_QUERY, parseExportRequest, parseReadRequestOnce, type QueryParams } from '../../core/query/parse-request.ts';
import { listRecords, type ReadOptions } from '../../core/query/read.ts';
import type { ReadScope } from '../../core/query/plan.ts';
import type { WorkspaceRuntime } from '../../core/workspace/runtime.ts';
import { clientGone } from '../shared/client-gone.ts';

export type ExportFormat = 'csv' | 'ndjson';

const MEDIA: Record<ExportFormat, string> = { csv: 'text/csv; charset=utf-8', ndjson: 'application/x-ndjson; charset=utf-8' };

/** `format` per query string: clients repeat a few, and parsing one costs more than the rest of the choice. */
const formats = new Map<string, unknown>();
const FORMATS_LIMIT = 500;

function formatParameter(ctx: Context): unknown {
  const queryString = ctx.querystring;
  if (formats.has(queryString)) return formats.get(queryString);
  const format = ctx.query.format;
  if (formats.size >= FORMATS_LIMIT) formats.clear();
  formats.set(queryString, format);
  return format;
}

/** `format=csv|ndjson|json`, else the Accept header; null: the paged JSON list. */
export function exportFormat(ctx: Context): ExportFormat | null {
  const format = formatParameter(ctx);
  if (format !== undefined) {
    if (format === 'csv' || format === 'ndjson') return format;
    if (format === 'json') return null;
    throw badRequest(`'format' must be one of csv, ndjson, json, got '${String(format)}'`);
  }
  // No Accept (or anything) takes the first type, JSON, without building a negotiator.
  const accept = ctx.get('accept');
  if (accept === '' || accept === '*/*') return null;
  const accepted = ctx.accepts('application/json', 'text/csv', 'application/x-ndjson');
  return accepted === 'text/csv' ? 'csv' : accepted === 'application/x-ndjson' ? 'ndjson' : null;
}

/**
 * The export operation (`GET …/export`): an export whatever else the client accepts; `format` csv
 * (the default) or ndjson, else `Accept: application/x-ndjson`.
 */
export function exportRouteFormat(ctx: Context): ExportFormat {
  const format = ctx.query.format;
  if (format === 'csv' || format === 'ndjson') return format;
  if (format !== undefined) throw badRequest(`'format' must be csv or ndjson, got '${String(format)}'`);
  return ctx.accepts('text/csv', 'application/x-ndjson') === 'application/x-ndjson' ? 'ndjson' : 'csv';
}

/** The query without `format` and `header`, which only the export reads. */
export function listQuery(ctx: Context): Record<string, unknown> {
  const { format: _format, ...rest } = ctx.query;
  return rest;
}

/** `header=api` (default) or `header=display` (CSV only). */
function headerStyle(ctx: Context, format: ExportFormat): 'api' | 'display' {
  const header = ctx.query.header;
  if (header === undefined || header === 'api') return 'api';
  if (header === 'display' && format === 'csv') return 'display';
  throw badRequest(format === 'csv' ? `'header' must be api or display, got '${String(header)}'` : `'header' applies to format=csv only`);
}

/**
 * RFC 4180 with CRLF; an empty string quoted (`""`), a null left empty; line breaks always quoted.
 * One pattern, not two: csv-stringify searches every cell for each pattern of `quoted_match`.
 */
const CSV_OPTIONS: Options = { record_delimiter: 'windows', quoted_match: /^$|[\r\n]/ };

/**
 * Text handed to the socket at once. A socket write costs tens of µs here whatever its size, and
 * a batch of 250 rows is ~27 KB of CSV: a few batches per write.
 */
const CHUNK_CHARS = 64 * 1024;

/** The texts joined into chunks of at least CHUNK_CHARS (the last one shorter). */
async function* chunked(texts: AsyncIterable<string>): AsyncGenerator<string> {
  let parts: string[] = [];
  let length = 0;
  for await (const text of texts) {
    parts.push(text);
    length += text.length;
    if (length < CHUNK_CHARS) continue;
    yield parts.join('');
    parts = [];
    length = 0;
  }
  if (parts.length > 0) yield parts.join('');
}

/**
 * The header and the first batch at once, so the status and the first bytes leave without
 * waiting for a chunk to fill (a later error then resets a connection the client saw open);
 * every later batch through `chunked`.
 */
async function* csvLines(exported: RecordExport<Cell[]>, header: readonly string[], first: Cell[][]): AsyncGenerator<string> {
  yield `${stringify([header], CSV_OPTIONS)}${first.length > 0 ? stringify(first, CSV_OPTIONS) : ''}`;
  yield* chunked(batchTexts(exported.batches));
}

/** The database's CSV (Driver.csvCopy): its chunks as they come, the header before the first. */
async function* copiedLines(exported: CopiedExport, header: readonly string[], first: Uint8Array | null): AsyncGenerator<Uint8Array> {
  const head = Buffer.from(stringify([header], CSV_OPTIONS));
  yield first ? Buffer.concat([head, first]) : head;
  yield* exported.chunks;
}

async function* batchTexts(batches: AsyncIterable<Cell[][]>): AsyncGenerator<string> {
  for await (const batch of batches) yield stringify(batch, CSV_OPTIONS);
}

function errorEvent(error: unknown): string {
  const known = error instanceof ApiError ? error : new ApiError('INTERNAL_ERROR', 'the export stopped on an unexpected error');
  const details = known.details !== undefined ? { details: known.details } : {};
  return `${JSON.stringify({ event: 'error', code: known.code, message: known.message, ...details })}\n`;
}

async function* ndjsonLines(exported: RecordExport<JsonRecord>, first: JsonRecord[]): AsyncGenerator<string> {
  const lines = (records: JsonRecord[]): string => records.map((r) => `${JSON.stringify(r)}\n`).join('');
  if (first.length > 0) yield lines(first);
  try {
    for await (const batch of exported.batches) yield lines(batch);
  } catch (error) {
    // The status is long sent: the error becomes the last line, so the file is never taken as whole.
    yield errorEvent(error);
  }
}

/**
 * CSV has no error line: the connection is reset, so a client never mistakes a partial file for a
 * whole one. (Koa reports the error to the app's error listener, which logs it.)
 */
function resetOnError(ctx: Context, body: Readable): Readable {
  body.on('error', () => {
    ctx.res.destroy();
    ctx.req.socket.destroy();
  });
  return body;
}

/** An export and how to write it: CSV cells under a header row (one name per column), or NDJSON records. */
export type ExportResponse =
  | { readonly format: 'csv'; readonly exported: RecordExport<Cell[]> | CopiedExport; readonly header: readonly string[] }
  | { readonly format: 'ndjson'; readonly exported: RecordExport<JsonRecord> };

async function firstBatch<T>(exported: RecordExport<T>): Promise<T[]> {
  const next = await exported.batches.next();
  return next.done ? [] : next.value;
}

async function firstChunk(exported: CopiedExport): Promise<Uint8Array | null> {
  const next = await exported.chunks.next();
  return next.done ? null : next.value;
}

/** Settles when the socket has taken `chunk` (res.write's callback), or fails when the response closes first. */
function written(res: ServerResponse, chunk: Uint8Array): Promise<void> {
  return new Promise((resolve, reject) => {
    const closed = (): void => reject(new Error('the response closed before the export was written'));
    res.once('close', closed);
    res.write(chunk, (error) => {
      res.off('close', closed);
      if (error) reject(error);
      else resolve();
    });
  });
}

/**
 * The database's CSV as the body. The COPY reader reads into a chunk's buffer again once the next
 * chunk is asked for (Driver.csvCopy), and Koa's pipeline writes a body's chunks without waiting
 * for the socket to take them (it reads ahead). So this body pushes nothing: when the pipeline
 * first reads it (after every middleware, as for any body) it writes each chunk to the response
 * itself and asks for the next one when res.write's callback says the socket took it; then it
 * ends and the pipeline ends the response. Errors and a client gone go through the pipeline as for
 * the other bodies; destroying it ends the generator, which ends the COPY.
 */
class WrittenInTurn extends Readable {
  private started = false;

  constructor(
    private readonly res: ServerResponse,
    private readonly chunks: AsyncGenerator<Uint8Array>,
  ) {
    super();
  }

  override _read(): void {
    if (this.started) return;
    this.started = true;
    this.writeAll().then(
      () => this.push(null),
      (error: unknown) => this.destroy(error as Error),
    );
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.chunks.return(undefined).then(
      () => callback(error),
      () => callback(error),
    );
  }

  private async writeAll(): Promise<void> {
    for (let next = await this.chunks.next(); !next.done && !this.destroyed; next = await this.chunks.next()) await written(this.res, next.value);
  }
}

async function bodyStream(ctx: Context, response: ExportResponse): Promise<Readable> {
  // One batch's text waits ahead of the socket, not Readable.from's default of 16.
  const ahead = { highWaterMark: 1 };
  if (response.format === 'csv') {
    const { exported, header } = response;
    if ('chunks' in exported) return new WrittenInTurn(ctx.res, copiedLines(exported, header, await firstChunk(exported)));
    return Readable.from(csvLines(exported, header, await firstBatch(exported)), ahead);
  }
  return Readable.from(ndjsonLines(response.exported, await firstBatch(response.exported)), ahead);
}

/** How an export runs: `gone` is aborted when the client goes away (its statement is then cancelled); `idleMs` cuts a socket that takes nothing. */
export interface ExportRun {
  readonly gone?: AbortController;
  readonly idleMs?: number;
}

/** A list request's options at the server edge: the read's, and how long a streamed answer may go untaken. */
export interface ListOptions extends ReadOptions {
  /** RESPONSE_IDLE_TIMEOUT_MS: an export whose socket takes no byte for this long is cut. */
  readonly responseIdleTimeoutMs: number;
}

/**
 * Cuts the response when its socket has taken no byte for `idleMs` (a client that keeps the
 * connection and reads nothing): the socket is destroyed, the response closes, and the export
 * ends with it (the 'close' in sendExport, and the signal its statement runs with). One timer per
 * export, looking at the bytes the socket wrote; gone with the response.
 */
function cutWhenIdle(ctx: Context, idleMs: number): NodeJS.Timeout {
  const socket = ctx.req.socket;
  let written = socket.bytesWritten;
  const timer = setInterval(() => {
    if (socket.bytesWritten !== written) written = socket.bytesWritten;
    else socket.destroy();
  }, idleMs);
  return timer.unref();
}

/**
 * Reads the first batch before answering, so an error there is a plain JSON error response;
 * then 200 with the streamed body. The export is tied to the response before that first read: a
 * client gone while the export still waits for a connection ends it as well.
 */
export async function sendExport(ctx: Context, response: ExportResponse, run: ExportRun = {}): Promise<void> {
  const { exported } = response;
  const source = 'chunks' in exported ? exported.chunks : exported.batches;
  let body: Readable | undefined;
  let idle: NodeJS.Timeout | undefined;
  // One listener does it all: the response already carries Koa's and the pipeline's.
  ctx.res.once('close', () => {
    if (!ctx.res.writableFinished) run.gone?.abort();
    clearInterval(idle);
    body?.destroy();
    source.return(undefined).catch(() => undefined);
  });
  body = await bodyStream(ctx, response);
  if (ctx.res.destroyed) {
    body.destroy();
    return;
  }
  if (run.idleMs !== undefined) idle = cutWhenIdle(ctx, run.idleMs);
  ctx.status = 200;
  ctx.type = MEDIA[response.format];
  // Entity names come from table names: anything outside a plain file name is replaced.
  ctx.set('Content-Disposition', `attachment; filename="${exported.entity.replace(/[^\w.-]/g, '_')}.${response.format}"`);
  ctx.set('Cache-Control', 'no-store');
  // The export ends with the response (the 'close' above), whether or not its body was read:
  // Koa ends a HEAD response (answered by the GET route) without reading the body, and an export
  // left open holds its pooled connection and statement for good. The source is returned as well
  // as the body destroyed: the body's generator has not started when nothing read it, and
  // returning a generator that has not started does not reach the source it would have read.
  ctx.body = resetOnError(ctx, body);
}

/** Answers a list request that asked for `format`: plans (400s before any byte), then streams. */
export async function respondWithExport(ctx: Context, runtime: WorkspaceRuntime, scope: ReadScope, format: ExportFormat, idleMs?: number): Promise<void> {
  const style = headerStyle(ctx, format);
  const request = parseExportRequest(listQuery(ctx) as QueryParams);
  const gone = new AbortController();
  const options = { signal: gone.signal };
  const run = idleMs === undefined ? { gone } : { gone, idleMs };
  if (format === 'ndjson') return sendExport(ctx, { format, exported: exportRecords(runtime.database, scope, request, options) }, run);
  const exported = exportCells(runtime.database, scope, request, options);
  const header = style === 'display' ? displayHeader(runtime, scope.viewUuid, exported.columns) : apiHeader(exported.columns);
  await sendExport(ctx, { format, exported, header }, run);
}

/** A list request (record list or view data): the paged JSON list, or the export its `format` or `Accept` asks for. */
export async function answerList(ctx: Context, runtime: WorkspaceRuntime, scope: ReadScope, options: ListOptions): Promise<void> {
  const format = exportFormat(ctx);
  if (format) return respondWithExport(ctx, runtime, scope, format, options.responseIdleTimeoutMs);
  const request = parseReadRequestOnce(ctx.querystring, () => listQuery(ctx) as QueryParams, LIST_QUERY);
  ctx.body = await listRecords(runtime.database, scope, request, options, clientGone(ctx));
}
