/**
 * Slow and oversized clients against a service started with short
 * timeouts: trickled headers, a body that stops, an idle keep-alive socket, a steady and a stalled
 * import upload, big bearer tokens. HTTP framing does not depend on the vendor: PGlite only.
 */
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../../server/start.ts';
import { ADMIN_TOKEN, fetchJson } from '../support/harness.ts';
import { openRaw, parseResponse, sleep } from './raw-http.ts';

const LIMITS = { headersTimeoutMs: 1000, requestTimeoutMs: 1500, bodyIdleTimeoutMs: 1000, keepAliveTimeoutMs: 800 };

describe('slow clients and big headers', () => {
  let service: RunningService;
  let key: string;
  let host: string;

  beforeAll(async () => {
    service = await startService({ adminToken: ADMIN_TOKEN, logger: pino({ level: 'silent' }), demo: true, http: LIMITS });
    key = service.demo?.apiKey ?? '';
    host = new URL(service.url).host;
  });
  afterAll(async () => service?.close());

  it('trickled headers: 408 REQUEST_TIMEOUT in the envelope, socket closed within a few seconds', async () => {
    const raw = await openRaw(service.url);
    raw.write(`GET /healthz HTTP/1.1\r\nHost: ${host}\r\n`);
    const trickle = setInterval(() => raw.write('X'), 200);
    const ms = await raw.closed();
    clearInterval(trickle);
    expect(ms).toBeLessThan(4000);
    const res = parseResponse(raw.received());
    expect(res.status).toBe(408);
    expect(JSON.parse(res.body)).toEqual({ error: { code: 'REQUEST_TIMEOUT', message: expect.stringMatching(/headers/) } });
  });

  it('a JSON body that stops halfway: 408 in the envelope, nothing written', async () => {
    const raw = await openRaw(service.url);
    const body = JSON.stringify({ name: 'Stalled region' });
    raw.write(`POST /api/v1/demo/demo/regions HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 8)}`);
    const ms = await raw.closed();
    expect(ms).toBeLessThan(4000);
    const res = parseResponse(raw.received());
    expect(res.status).toBe(408);
    expect(JSON.parse(res.body).error.code).toBe('REQUEST_TIMEOUT');
    const list = await fetchJson(`${service.url}/api/v1/demo/demo/regions?filter[name.eq]=Stalled%20region`, 'GET', {}, key);
    expect(list.body.meta.totalElements).toBe(0);
  });

  it('a body trickled byte by byte is cut by the request timeout', async () => {
    const raw = await openRaw(service.url);
    raw.write(`POST /api/v1/demo/demo/regions HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n`);
    const trickle = setInterval(() => raw.write(' '), 200);
    const ms = await raw.closed();
    clearInterval(trickle);
    expect(ms).toBeLessThan(4500);
    expect(parseResponse(raw.received()).status).toBe(408);
  });

  it('an idle keep-alive connection is closed after the keep-alive timeout', async () => {
    const raw = await openRaw(service.url);
    raw.write(`GET /healthz HTTP/1.1\r\nHost: ${host}\r\n\r\n`);
    const ms = await raw.closed();
    expect(parseResponse(raw.received()).status).toBe(200);
    expect(ms).toBeGreaterThanOrEqual(LIMITS.keepAliveTimeoutMs - 100);
    expect(ms).toBeLessThan(3000);
  });

  it('an import upload that keeps sending is not cut by the request timeout; a stalled one is', async () => {
    const views = await fetchJson(`${service.url}/api/admin/v1/orgs/demo/workspaces/demo/views`, 'GET', {}, ADMIN_TOKEN);
    const regions = (views.body.data as { uuid: string; entity: string; isDefault: boolean }[]).find((v) => v.entity === 'regions' && v.isDefault);
    const path = `/api/data/import/${regions?.uuid}?method=INSERT`;
    const steady = await openRaw(service.url);
    steady.write(`POST ${path} HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${key}\r\nContent-Type: text/csv\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n`);
    const chunk = (text: string) => steady.write(`${Buffer.byteLength(text).toString(16)}\r\n${text}\r\n`);
    chunk('name\n');
    for (let i = 0; i < 8; i++) {
      await sleep(300); // 2.4 s in all: longer than the request timeout, never idle for long
      chunk(`Steady ${i}\n`);
    }
    steady.write('0\r\n\r\n');
    await steady.closed();
    const events = parseResponse(steady.received()).body;
    expect(events).toMatch(/"event":"done"/);
    expect(events).toMatch(/"successCount":8/);

    const stalled = await openRaw(service.url);
    stalled.write(`POST ${path} HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${key}\r\nContent-Type: text/csv\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nname\n\r\n`);
    const ms = await stalled.closed();
    expect(ms).toBeLessThan(4000);
    // 408 while the service still waits for the header line; once the event stream has begun,
    // closing the connection is the only answer left.
    expect([200, 408]).toContain(parseResponse(stalled.received()).status);
  });

  it('a 40 KB bearer reaches the auth layer (401 with the envelope, not 431)', async () => {
    const res = await fetchJson(`${service.url}/api/v1/demo/demo/orders`, 'GET', { token: `wdk_x_${'a'.repeat(40 * 1024)}` });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('UNAUTHORIZED');
  });

  it('a 100 KB header is 431 HEADERS_TOO_LARGE in the envelope', async () => {
    const raw = await openRaw(service.url);
    raw.write(`GET /api/v1/demo/demo/orders HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${'a'.repeat(100 * 1024)}\r\n\r\n`);
    await raw.closed();
    const res = parseResponse(raw.received());
    expect(res.status).toBe(431);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(JSON.parse(res.body).error.code).toBe('HEADERS_TOO_LARGE');
  });
});
