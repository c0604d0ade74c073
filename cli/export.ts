/**
 * `wdapi export`: streams GET {entity list or view data}?format=csv|ndjson into a file, with a
 * progress line (rows, rows/s) on stderr. The file is written as `<out>.part` and renamed only
 * when the export ended whole: a reset CSV connection or an NDJSON error line leaves no file that
 * could be taken for a complete one.
 */
import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { resolve } from 'node:path';
import { Readable, Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { failure, request } from './http-failure.ts';

export interface ExportArgs {
  /** An entity name (with org and ws) or a view slug (without). */
  readonly target: string;
  readonly org?: string;
  readonly ws?: string;
  readonly format: 'csv' | 'ndjson';
  readonly out: string;
  /** Extra query text: filters, where, sort, fields, expand, header. */
  readonly query?: string;
  readonly token: string;
  readonly url: string;
}

/** The progress text; pure, so it is testable without a terminal. */
export function exportProgressLine(rows: number, seconds: number, done: boolean): string {
  const rate = Math.round(rows / Math.max(0.001, seconds));
  return `${done ? 'exported' : 'exporting'} rows ${rows}  ${rate} rows/s`;
}

/**
 * Counts records as the bytes pass: NDJSON lines, or CSV line ends outside quotes (a quote
 * toggles the state, so the doubled quote of RFC 4180 toggles twice and changes nothing).
 */
class RecordCounter extends Transform {
  records = 0;
  lastLine = '';
  private quoted = false;

  constructor(private readonly csv: boolean) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    for (const byte of chunk) {
      if (this.csv && byte === 0x22) this.quoted = !this.quoted;
      else if (byte === 0x0a && !this.quoted) this.records++;
    }
    if (!this.csv) this.lastLine = (this.lastLine + chunk.toString('utf8')).split('\n').slice(-2).join('\n');
    done(null, chunk);
  }
}

function exportPath(args: ExportArgs): string {
  const query = new URLSearchParams(args.query ?? '');
  query.set('format', args.format);
  const base = args.org && args.ws ? `/api/v1/${encodeURIComponent(args.org)}/${encodeURIComponent(args.ws)}/${encodeURIComponent(args.target)}` : `/api/data/${encodeURIComponent(args.target)}`;
  return `${base}?${query.toString()}`;
}

/** An NDJSON export that failed after its first bytes ends with `{"event":"error",…}`. */
function errorLine(counter: RecordCounter): string | null {
  const last = counter.lastLine.split('\n').filter((l) => l !== '').pop() ?? '';
  if (!last.startsWith('{"event":"error"')) return null;
  const event = JSON.parse(last) as { code?: string; message?: string };
  return `${event.code}: ${event.message}`;
}

function progress(counter: RecordCounter, header: number, started: number): () => void {
  const tty = process.stderr.isTTY === true;
  const draw = (done: boolean): void => {
    const line = exportProgressLine(Math.max(0, counter.records - header), (Date.now() - started) / 1000, done);
    process.stderr.write(tty ? `\r${line}\u001b[K${done ? '\n' : ''}` : `${line}\n`);
  };
  const timer = setInterval(() => draw(false), tty ? 100 : 1000);
  return () => {
    clearInterval(timer);
    draw(true);
  };
}

export async function runExport(args: ExportArgs): Promise<number> {
  const out = resolve(process.env.WDAPI_CWD ?? process.cwd(), args.out);
  const part = `${out}.part`;
  const response = await request(`${args.url}${exportPath(args)}`, { headers: { authorization: `Bearer ${args.token}` } });
  if (!response.ok || !response.body) throw await failure(response);
  const counter = new RecordCounter(args.format === 'csv');
  const stop = progress(counter, args.format === 'csv' ? 1 : 0, Date.now());
  const abandon = async (reason: string): Promise<never> => {
    stop();
    await rm(part, { force: true });
    throw new Error(`${reason}; no file written`);
  };
  try {
    await pipeline(Readable.fromWeb(response.body as import('node:stream/web').ReadableStream<Uint8Array>), counter, createWriteStream(part));
  } catch (error) {
    await abandon(`the export was cut off (${error instanceof Error ? error.message : String(error)})`);
  }
  const error = errorLine(counter);
  if (error) await abandon(`the export stopped: ${error}`);
  stop();
  await rename(part, out);
  process.stdout.write(`${out}\n`);
  return 0;
}
