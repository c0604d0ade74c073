/**
 * Export responses (DESIGN §14 "Export"): which format a list request asks for, and the CSV or
 * NDJSON body streamed from the export's batches. The body is a Readable built from a generator,
 * so a batch is read from the database only when the socket has taken the one before
 * (backpressure), and a client that goes away ends the generator, which stops the statement.
 */
import { Readable } from 'node:stream';
import type { Context } from 'koa';
import { stringify, type Options } from 'csv-stringify/sync';
import { ApiError, badRequest } from '../../core/errors.ts';
import type { JsonRecord } from '../../core/query/assemble.ts';
import { exportRecords, type ExportColumn, type RecordExport } from '../../core/query/export.ts';
import { apiHeader, displayHeader } from '../../core/query/export-header.ts';
import { LIST_QUERY, parseExportRequest, parseReadRequestOnce, type QueryParams } from '../../core/query/parse-request.ts';
import { listRecords, type ReadOptions } from '../../core/query/read.ts';
import type { ReadScope } from '../../core/query/plan.ts';
import type { WorkspaceRuntime } from '../../core/workspace/runtime.ts';

export type ExportFormat = 'csv' | 'ndjson';

const MEDIA: Record<ExportFormat, string> = { csv: 'text/csv; charset=utf-8', ndjson: 'application/x-ndjson; charset=utf-8' };

/** `format=csv|ndjson|json`, else the Accept header; null: the paged JSON list. */
export function exportFormat(ctx: Context): ExportFormat | null {
  const format = ctx.query.format;
  if (format !== undefined) {
    if (format === 'csv' || format === 'ndjson') return format;
    if (format === 'json') return null;
    throw badRequest(`'format' must be one of csv, ndjson, json, got '${String(format)}'`);
  }
  const accepted = ctx.accepts('application/json', 'text/csv', 'application/x-ndjson');
  return accepted === 'text/csv' ? 'csv' : accepted === 'application/x-ndjson' ? 'ndjson' : null;
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

/** The §4 JSON value as cell text; null stays null (an empty unquoted cell), json columns are JSON text. */
function cellOf(column: ExportColumn, record: JsonRecord): unknown {
  let node: unknown = record;
  for (const name of column.path) node = node && typeof node === 'object' ? (node as JsonRecord)[name] : null;
  const value = node && typeof node === 'object' ? (node as JsonRecord)[column.key] : null;
  if (value === null || value === undefined) return null;
  if (column.type === 'json' || typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** RFC 4180 with CRLF; an empty string quoted (`""`), a null left empty; line breaks always quoted. */
const CSV_OPTIONS: Options = { record_delimiter: 'windows', quoted_match: [/^$/, /[\r\n]/] };

async function* csvLines(exported: RecordExport, header: readonly string[], first: JsonRecord[]): AsyncGenerator<string> {
  yield stringify([header], CSV_OPTIONS);
  const rows = (records: JsonRecord[]): string => stringify(records.map((r) => exported.columns.map((c) => cellOf(c, r))), CSV_OPTIONS);
  if (first.length > 0) yield rows(first);
  for await (const batch of exported.batches) yield rows(batch);
}

function errorEvent(error: unknown): string {
  const known = error instanceof ApiError ? error : new ApiError('INTERNAL_ERROR', 'the export stopped on an unexpected error');
  return `${JSON.stringify({ event: 'error', code: known.code, message: known.message })}\n`;
}

async function* ndjsonLines(exported: RecordExport, first: JsonRecord[]): AsyncGenerator<string> {
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

export interface ExportResponse {
  readonly format: ExportFormat;
  /** The CSV header row's names, one per export column. */
  readonly header: readonly string[];
}

/**
 * Reads the first batch before answering, so an error there is a plain JSON error response;
 * then 200 with the streamed body.
 */
export async function sendExport(ctx: Context, exported: RecordExport, response: ExportResponse): Promise<void> {
  const next = await exported.batches.next();
  const first = next.done ? [] : next.value;
  const lines = response.format === 'csv' ? csvLines(exported, response.header, first) : ndjsonLines(exported, first);
  ctx.status = 200;
  ctx.type = MEDIA[response.format];
  // Entity names come from table names: anything outside a plain file name is replaced.
  ctx.set('Content-Disposition', `attachment; filename="${exported.entity.replace(/[^\w.-]/g, '_')}.${response.format}"`);
  ctx.set('Cache-Control', 'no-store');
  ctx.body = resetOnError(ctx, Readable.from(lines));
}

/** Answers a list request that asked for `format`: plans (400s before any byte), then streams. */
export async function respondWithExport(ctx: Context, runtime: WorkspaceRuntime, scope: ReadScope, format: ExportFormat): Promise<void> {
  const style = headerStyle(ctx, format);
  const request = parseExportRequest(listQuery(ctx) as QueryParams);
  const exported = exportRecords(runtime.database, scope, request, { flat: format === 'csv' });
  const header = style === 'display' ? displayHeader(runtime, scope.viewUuid, exported.columns) : apiHeader(exported.columns);
  await sendExport(ctx, exported, { format, header });
}

/** A list request (record list or view data): the paged JSON list, or the export its `format` or `Accept` asks for. */
export async function answerList(ctx: Context, runtime: WorkspaceRuntime, scope: ReadScope, options: ReadOptions): Promise<void> {
  const format = exportFormat(ctx);
  if (format) return respondWithExport(ctx, runtime, scope, format);
  ctx.body = await listRecords(runtime.database, scope, parseReadRequestOnce(ctx.querystring, () => listQuery(ctx) as QueryParams, LIST_QUERY), options);
}
