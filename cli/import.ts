/**
 * `wdapi import`: streams a file to POST /api/data/import/{view} (or a job's /resume), draws a
 * progress bar on stderr from the NDJSON events, prints the summary, and saves the rejections
 * next to the file when some rows were not imported.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ProgressBar } from './progress.ts';
import { failure, request } from './http-failure.ts';

export interface ImportArgs {
  readonly file: string;
  readonly view: string;
  readonly token: string;
  readonly url: string;
  readonly method?: string;
  readonly mapping?: string;
  readonly header?: string;
  readonly delimiter?: string;
  readonly onConflict?: string;
  readonly conflictColumns?: string;
  readonly resume?: string;
}

type Event = Record<string, any>;

const TYPES: Record<string, string> = { '.tsv': 'text/tab-separated-values', '.txt': 'text/plain' };

async function api(args: ImportArgs, path: string, init: RequestInit = {}): Promise<Response> {
  return request(`${args.url}${path}`, { ...init, headers: { authorization: `Bearer ${args.token}`, ...(init.headers ?? {}) } });
}

/** A saved mapping is named on the command line; the API takes its id. */
async function mappingId(args: ImportArgs): Promise<string | undefined> {
  if (!args.mapping) return undefined;
  const response = await api(args, `/api/views/${args.view}/import-mappings`);
  if (!response.ok) throw await failure(response);
  const list = ((await response.json()) as { data: { id: string; name: string; visibility: string }[] }).data;
  const found = list.find((m) => m.id === args.mapping) ?? list.find((m) => m.name === args.mapping && m.visibility === 'PRIVATE') ?? list.find((m) => m.name === args.mapping);
  if (!found) throw new Error(`no saved mapping '${args.mapping}' on view ${args.view}; saved: ${list.map((m) => m.name).join(', ') || 'none'}`);
  return found.id;
}

function query(args: ImportArgs, mapping: string | undefined): string {
  if (args.resume) return '';
  const params = new URLSearchParams();
  if (args.method) params.set('method', args.method);
  if (mapping) params.set('mapping', mapping);
  if (args.header) params.set('header', args.header);
  if (args.delimiter) params.set('delimiter', args.delimiter);
  if (args.onConflict) params.set('onConflict', args.onConflict);
  if (args.conflictColumns) params.set('conflictColumns', args.conflictColumns);
  const text = params.toString();
  return text ? `?${text}` : '';
}

async function* lines(body: ReadableStream<Uint8Array>): AsyncGenerator<Event> {
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of Readable.fromWeb(body as import('node:stream/web').ReadableStream<Uint8Array>)) {
    buffer += decoder.decode(chunk as Uint8Array, { stream: true });
    let newline = buffer.indexOf('\n');
    while (newline >= 0) {
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + 1);
      if (line.trim() !== '') yield JSON.parse(line) as Event;
      newline = buffer.indexOf('\n');
    }
  }
}

async function saveRejections(args: ImportArgs, jobId: string, file: string): Promise<string> {
  const target = join(dirname(file), `${basename(file, extname(file))}.rejections${extname(file) || '.csv'}`);
  const response = await api(args, `/api/imports/${jobId}/rejections.csv`);
  if (!response.ok || !response.body) throw await failure(response);
  await pipeline(Readable.fromWeb(response.body as import('node:stream/web').ReadableStream<Uint8Array>), createWriteStream(target));
  return target;
}

function summary(done: Event): string {
  const failed = (done.failedBatches as Event[]).map((b) => `\n  batch ${b.batch} (rows ${b.fromRow}-${b.toRow}) ${b.code}: ${b.message}`).join('');
  return `imported ${done.successCount} of ${done.totalCount} rows; ${done.failureCount} failed, ${done.skippedCount} skipped${failed}\n`;
}

/** Data rows estimated from line breaks (a quoted cell spanning lines makes it an overestimate). */
async function estimateRows(file: string, header: boolean): Promise<number> {
  let breaks = 0;
  let last = 0x0a;
  for await (const chunk of createReadStream(file) as AsyncIterable<Buffer>) {
    for (let at = chunk.indexOf(0x0a); at >= 0; at = chunk.indexOf(0x0a, at + 1)) breaks++;
    if (chunk.length > 0) last = chunk[chunk.length - 1] ?? last;
  }
  const lines = breaks + (last === 0x0a ? 0 : 1);
  return Math.max(0, lines - (header ? 1 : 0));
}

export async function runImport(args: ImportArgs): Promise<number> {
  const file = resolve(process.env.WDAPI_CWD ?? process.cwd(), args.file);
  const mapping = await mappingId(args);
  const bar = new ProgressBar(await estimateRows(file, args.header !== 'false'));
  const body = Readable.toWeb(createReadStream(file)) as unknown as ReadableStream<Uint8Array>;
  const path = args.resume ? `/api/imports/${args.resume}/resume` : `/api/data/import/${args.view}${query(args, mapping)}`;
  const response = await api(args, path, {
    method: 'POST',
    headers: { 'content-type': TYPES[extname(file).toLowerCase()] ?? 'text/csv' },
    body,
    duplex: 'half',
  } as RequestInit);
  if (!response.ok || !response.body) throw await failure(response);
  let jobId = '';
  let done: Event | undefined;
  for await (const event of lines(response.body)) {
    if (event.event === 'started') {
      jobId = String(event.jobId);
      bar.note(`job ${jobId}; mapping ${JSON.stringify(event.mapping)}${(event.skippedColumns as string[]).length ? `; skipped columns ${(event.skippedColumns as string[]).join(', ')}` : ''}`);
    } else if (event.event === 'progress') {
      bar.progress({ batchesDone: Number(event.batchesDone), rowsRead: Number(event.rowsRead), errorCount: Number(event.errorCount) });
    } else if (event.event === 'done') done = event;
    else if (event.event === 'error') {
      bar.finish(false);
      process.stderr.write(`import stopped: ${event.code}: ${event.message}\nresume with: wdapi import ${args.file} --view ${args.view} --resume ${jobId}\n`);
      return 1;
    }
  }
  bar.finish(done !== undefined);
  if (!done) {
    process.stderr.write(`the connection ended before the import finished; see ${args.url}/api/imports/${jobId}\n`);
    return 1;
  }
  process.stdout.write(summary(done));
  if (done.failureCount > 0) {
    const saved = await saveRejections(args, jobId, file);
    process.stdout.write(`rejected rows: ${saved}\n  (also ${args.url}/api/imports/${jobId}/rejections.csv; reasons: ${args.url}/api/imports/${jobId}/report)\n`);
    return 3;
  }
  return 0;
}
