import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../../server/start.ts';
import { ADMIN_TOKEN, fetchJson, startWorkspace, type TestWorkspace } from '../support/harness.ts';
import { postgresTarget, vendorsToRun } from '../support/vendors.ts';

describe('request logs, health and shutdown', () => {
  const lines: Record<string, unknown>[] = [];
  let service: RunningService;
  let key: string;

  beforeAll(async () => {
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
        done();
      },
    });
    service = await startService({ adminToken: ADMIN_TOKEN, logger: pino({ level: 'info' }, sink), demo: true });
    key = service.demo?.apiKey ?? '';
  });
  afterAll(async () => service?.close());

  it('logs one line per request with id, method, path, status and duration, and never the credential', async () => {
    const res = await fetchJson(`${service.url}/api/v1/demo/demo/orders?size=1`, 'GET', {}, key);
    expect(res.status).toBe(200);
    const requestId = res.headers.get('x-request-id');
    // The line is written when the response has finished on the server's side.
    for (let i = 0; i < 50 && !lines.some((l) => l.requestId === requestId); i++) await new Promise((r) => setTimeout(r, 20));
    const line = lines.find((l) => l.requestId === requestId);
    expect(line).toMatchObject({ method: 'GET', path: '/api/v1/demo/demo/orders', status: 200 });
    expect(typeof line?.durationMs).toBe('number');
    const all = JSON.stringify(lines);
    expect(all).not.toContain(key);
    expect(all).not.toContain(ADMIN_TOKEN);
  });

  it('healthz and readyz answer without a credential', async () => {
    const res = await fetchJson(`${service.url}/healthz`, 'GET');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
    const ready = await fetchJson(`${service.url}/readyz`, 'GET');
    expect(ready.status).toBe(200);
  });

  it('bodies above the JSON limit are 413 in the error envelope', async () => {
    const big = JSON.stringify({ name: 'x'.repeat(11 * 1024 * 1024) });
    const res = await fetchJson(`${service.url}/api/v1/demo/demo/regions`, 'POST', { rawBody: big }, key);
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('close() lets an in-flight request finish before the pools close', async () => {
    const encoder = new TextEncoder();
    let push: (text: string | null) => void = () => undefined;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        push = (text) => (text === null ? controller.close() : controller.enqueue(encoder.encode(text)));
      },
    });
    const pending = fetch(`${service.url}/api/v1/demo/demo/regions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body,
      duplex: 'half',
    } as RequestInit);
    push('{"name":');
    await new Promise((r) => setTimeout(r, 300));
    const closing = service.close();
    push('"In flight"}');
    push(null);
    const response = await pending;
    expect(response.status).toBe(201);
    await closing;
    await expect(fetch(`${service.url}/healthz`)).rejects.toThrow();
  });
});

const servers = (await vendorsToRun([postgresTarget])).filter((t) => t.name === 'postgres');

describe.each(servers)('workspace database outage on $name', (target) => {
  let ws: TestWorkspace;
  beforeAll(async () => {
    ws = await startWorkspace(target);
  });
  afterAll(async () => ws?.close());

  it('requests during the outage get 503 with a clear message, then work again without a restart', async () => {
    expect((await ws.call('GET', ws.records('/orders?size=1'))).status).toBe(200);
    const dbName = new URL(String(ws.db.database.url)).pathname.slice(1);
    await ws.db.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`, [dbName]);
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await ws.call('GET', ws.records('/orders?size=1'));
      statuses.push(res.status);
      if (res.status === 503) expect(res.body.error.message).toMatch(/unavailable/);
      expect(JSON.stringify(res.body)).not.toMatch(/terminat|administrator/i);
    }
    expect(statuses.every((s) => s === 200 || s === 503)).toBe(true);
    expect(statuses[statuses.length - 1]).toBe(200);
  });
});

