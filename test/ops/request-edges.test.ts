/**
 * The edges of a request: a client that leaves before its answer is logged as aborted (499), never
 * as the 404 Koa starts every response with; a request with thousands of headers gets its 4xx in
 * the error envelope, not an empty body. HTTP framing does not depend on the vendor: PGlite only.
 */
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../../server/start.ts';
import { ADMIN_TOKEN, fetchJson } from '../support/harness.ts';
import { pollUntil } from '../support/poll.ts';
import { openRaw, parseResponse, sleep } from './raw-http.ts';
import { sinkInto, type LogLine } from '../support/log-lines.ts';

type Line = LogLine;

describe('aborted requests and header floods', () => {
  const lines: Line[] = [];
  let service: RunningService;
  let key: string;
  let host: string;

  beforeAll(async () => {
    service = await startService({ adminToken: ADMIN_TOKEN, logger: pino({ level: 'info' }, sinkInto(lines)), demo: true });
    key = service.demo?.apiKey ?? '';
    host = new URL(service.url).host;
  });
  afterAll(async () => service?.close());

  it('a client that leaves before the answer is logged as 499 with aborted: true', async () => {
    const views = await fetchJson(`${service.url}/api/admin/v1/orgs/demo/workspaces/demo/views`, 'GET', {}, ADMIN_TOKEN);
    const regions = (views.body.data as { uuid: string; entity: string; isDefault: boolean }[]).find((v) => v.entity === 'regions' && v.isDefault);
    const path = `/api/data/import/${regions?.uuid}`;
    // An upload announced as 1000 bytes that sends 5 and leaves: the route waits for the rest.
    const raw = await openRaw(service.url);
    raw.write(`POST ${path} HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${key}\r\nContent-Type: text/csv\r\nContent-Length: 1000\r\n\r\nname\n`);
    await sleep(300);
    raw.socket.destroy();
    const found = await pollUntil(async () => lines.some((l) => l.path === path), 5000);
    expect(found).toBe(true);
    expect(lines.find((l) => l.path === path)).toMatchObject({ status: 499, aborted: true });
  });

  it('3,000 request headers are answered in the error envelope', async () => {
    const raw = await openRaw(service.url);
    const many = Array.from({ length: 3000 }, (_, i) => `X-H${i}: ${i}\r\n`).join('');
    raw.write(`GET /api/v1/demo/demo/orders HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${key}\r\n${many}\r\n`);
    await raw.closed();
    const res = parseResponse(raw.received());
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    const body = JSON.parse(res.body) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('HEADERS_TOO_LARGE');
    expect(body.error.message).toMatch(/header/);
  });
});
