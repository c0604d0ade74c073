/** HTTP helpers of the import suites: send a file, read the NDJSON events, look at the job. */
import { request } from 'node:http';
import { expect } from 'vitest';
import { ADMIN_TOKEN, type ApiResponse, type TestWorkspace } from '../support/harness.ts';

export interface ImportResponse {
  status: number;
  contentType: string;
  /** Parsed NDJSON events (200), or the error body otherwise. */
  events: any[];
  body: any;
}

export interface ImportCall {
  query?: Record<string, string>;
  contentType?: string;
  headers?: Record<string, string>;
  token?: string | null;
}

function queryString(query: Record<string, string> | undefined): string {
  const entries = Object.entries(query ?? {});
  return entries.length === 0 ? '' : `?${new URLSearchParams(entries).toString()}`;
}

async function readResponse(response: Response): Promise<ImportResponse> {
  const text = await response.text();
  const contentType = response.headers.get('content-type') ?? '';
  if (contentType.startsWith('application/x-ndjson')) {
    const events = text.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l));
    return { status: response.status, contentType, events, body: undefined };
  }
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: kept as text
  }
  return { status: response.status, contentType, events: [], body };
}

function headersOf(ws: TestWorkspace, call: ImportCall): Record<string, string> {
  const token = call.token === undefined ? ws.apiKey : call.token;
  return {
    'content-type': call.contentType ?? 'text/csv',
    ...(token ? { authorization: `Bearer ${token}` } : {}),
    ...(call.headers ?? {}),
  };
}

/** POST /api/data/import/{viewUuid} (or a resume path) with `body` as the raw file. */
export async function importFile(ws: TestWorkspace, viewUuid: string, body: string | Buffer | ReadableStream<Uint8Array>, call: ImportCall = {}, path?: string): Promise<ImportResponse> {
  const url = `${ws.url}${path ?? `/api/data/import/${viewUuid}`}${queryString(call.query)}`;
  const init: RequestInit & { duplex?: 'half' } = { method: 'POST', headers: headersOf(ws, call), body: body as RequestInit['body'] };
  if (body instanceof ReadableStream) init.duplex = 'half';
  return readResponse(await fetch(url, init));
}

export function resumeFile(ws: TestWorkspace, jobId: string, body: string | Buffer, call: ImportCall = {}): Promise<ImportResponse> {
  return importFile(ws, '', body, call, `/api/imports/${jobId}/resume`);
}

export function eventsOf(res: ImportResponse, kind: string): any[] {
  return res.events.filter((e) => e.event === kind);
}

export function doneOf(res: ImportResponse): any {
  expect(res.status, JSON.stringify(res.body ?? res.events)).toBe(200);
  const done = eventsOf(res, 'done');
  expect(done, JSON.stringify(res.events.slice(-3))).toHaveLength(1);
  return done[0];
}

export async function jobOf(ws: TestWorkspace, jobId: string): Promise<any> {
  const res = await ws.call('GET', `/api/imports/${jobId}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

export async function reportOf(ws: TestWorkspace, jobId: string): Promise<any> {
  const res = await ws.call('GET', `/api/imports/${jobId}/report`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

export async function rejectionsOf(ws: TestWorkspace, jobId: string): Promise<{ status: number; type: string; text: string }> {
  const response = await fetch(`${ws.url}/api/imports/${jobId}/rejections.csv`, { headers: { authorization: `Bearer ${ws.apiKey}` } });
  return { status: response.status, type: response.headers.get('content-type') ?? '', text: await response.text() };
}

export async function viewUuidOf(ws: TestWorkspace, entity: string): Promise<string> {
  const res = await ws.call('GET', ws.admin('/views'), { token: ADMIN_TOKEN });
  const view = res.body.data.find((v: { entity: string; isDefault: boolean }) => v.entity === entity && v.isDefault);
  return view.uuid;
}

export async function count(ws: TestWorkspace, table: string, where = 'TRUE'): Promise<number> {
  const rows = await ws.db.query(`SELECT COUNT(*) AS n FROM ${ws.db.table(table)} WHERE ${where}`);
  return Number(rows[0]?.n);
}

export async function sync(ws: TestWorkspace): Promise<void> {
  const res: ApiResponse = await ws.call('POST', ws.admin('/sync'), { token: ADMIN_TOKEN });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

/** A raw request whose Content-Length header says `declared` bytes; only the headers are sent. */
export function declareLength(ws: TestWorkspace, viewUuid: string, declared: number): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const url = new URL(`${ws.url}/api/data/import/${viewUuid}`);
    const req = request({
      host: url.hostname,
      port: url.port,
      path: url.pathname,
      method: 'POST',
      headers: { 'content-type': 'text/csv', 'content-length': String(declared), authorization: `Bearer ${ws.apiKey}` },
    }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => {
        req.destroy();
        resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) });
      });
    });
    req.on('error', reject);
    req.flushHeaders();
  });
}

/** A body that yields `parts` one at a time, then waits for `release` before ending (or forever). */
export function gatedStream(parts: readonly string[], release?: Promise<readonly string[]>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let index = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const part = parts[index++];
      if (part !== undefined) {
        controller.enqueue(encoder.encode(part));
        return;
      }
      if (!release) return new Promise<void>(() => undefined);
      for (const rest of await release) controller.enqueue(encoder.encode(rest));
      controller.close();
    },
  });
}

/** Reads NDJSON events as they arrive, resolving waiters when an event matches. */
export class EventReader {
  readonly events: any[] = [];
  private waiters: { test: (e: any) => boolean; resolve: (e: any) => void }[] = [];
  readonly finished: Promise<void>;

  constructor(response: Response) {
    this.finished = this.read(response);
  }

  private async read(response: Response): Promise<void> {
    const reader = response.body?.getReader();
    if (!reader) return;
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        let newline = buffer.indexOf('\n');
        while (newline >= 0) {
          const event = JSON.parse(buffer.slice(0, newline));
          buffer = buffer.slice(newline + 1);
          this.events.push(event);
          this.waiters = this.waiters.filter((w) => (w.test(event) ? (w.resolve(event), false) : true));
          newline = buffer.indexOf('\n');
        }
      }
    } catch {
      // aborted by the test
    }
  }

  waitFor(test: (e: any) => boolean): Promise<any> {
    const found = this.events.find(test);
    if (found) return Promise.resolve(found);
    return new Promise((resolve) => this.waiters.push({ test, resolve }));
  }
}
