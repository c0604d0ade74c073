/**
 * Reading a whole export as a client would, counting bytes and line feeds: the service's
 * (`GET /orders?format=…`, over HTTP) and the database's own (`COPY … TO STDOUT` through
 * pg-copy-streams on one pool connection). Both are read by this process, chunk by chunk.
 */
import { performance } from 'node:perf_hooks';
import type pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';

export interface ExportRead {
  readonly bytes: number;
  /** Data rows: line feeds less the header line when there is one. */
  readonly rows: number;
  readonly seconds: number;
}

/** Why an answer is not the export asked for, or null. */
export type ExportOutcome = { readonly failure: string } | { readonly read: ExportRead };

const LF = 0x0a;

function countLines(chunk: Uint8Array): number {
  let lines = 0;
  for (let at = chunk.indexOf(LF); at !== -1; at = chunk.indexOf(LF, at + 1)) lines += 1;
  return lines;
}

async function drain(chunks: AsyncIterable<Uint8Array>): Promise<{ bytes: number; lines: number }> {
  let bytes = 0;
  let lines = 0;
  for await (const chunk of chunks) {
    bytes += chunk.length;
    lines += countLines(chunk);
  }
  return { bytes, lines };
}

async function failureOf(response: Response, contentType: string): Promise<string | null> {
  const type = response.headers.get('content-type') ?? '';
  if (response.ok && type.startsWith(contentType)) return null;
  const text = await response.text();
  const message = (() => {
    try {
      return (JSON.parse(text) as { error?: { message?: string } }).error?.message ?? text;
    } catch {
      return text;
    }
  })();
  return `failed: HTTP ${response.status} ${type || 'no content-type'}${response.ok ? ` (expected ${contentType})` : ''}: ${message.slice(0, 200)}`;
}

export interface ExportRequest {
  readonly url: string;
  readonly apiKey: string;
  readonly contentType: string;
  readonly header: boolean;
}

export async function readHttpExport(request: ExportRequest): Promise<ExportOutcome> {
  const began = performance.now();
  const response = await fetch(request.url, { headers: { authorization: `Bearer ${request.apiKey}` } });
  const failure = await failureOf(response, request.contentType);
  if (failure) return { failure };
  if (!response.body) return { failure: `failed: HTTP ${response.status} without a body` };
  const { bytes, lines } = await drain(response.body as unknown as AsyncIterable<Uint8Array>);
  return { read: { bytes, rows: lines - (request.header ? 1 : 0), seconds: (performance.now() - began) / 1000 } };
}

/** `COPY (<select>) TO STDOUT (FORMAT csv, HEADER)`: the database formats every row itself. */
export async function readCopy(pool: pg.Pool, select: string): Promise<ExportRead> {
  const client = await pool.connect();
  try {
    const began = performance.now();
    const stream = client.query(copyTo(`COPY (${select}) TO STDOUT (FORMAT csv, HEADER)`));
    const { bytes, lines } = await drain(stream);
    return { bytes, rows: lines - 1, seconds: (performance.now() - began) / 1000 };
  } finally {
    client.release();
  }
}
