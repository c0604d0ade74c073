/** Response headers: nosniff and no-store everywhere; CORS only for listed origins. */
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../../server/start.ts';
import { ADMIN_TOKEN } from '../support/harness.ts';

const ALLOWED = 'https://app.example.com';

async function headersOf(url: string, init: RequestInit = {}): Promise<{ status: number; headers: Headers }> {
  const res = await fetch(url, init);
  await res.arrayBuffer();
  return { status: res.status, headers: res.headers };
}

describe('security headers and CORS', () => {
  let plain: RunningService;
  let withCors: RunningService;
  let key: string;

  beforeAll(async () => {
    plain = await startService({ adminToken: ADMIN_TOKEN, logger: pino({ level: 'silent' }), demo: true });
    withCors = await startService({ adminToken: ADMIN_TOKEN, logger: pino({ level: 'silent' }), corsOrigins: [ALLOWED, 'http://localhost:5173'] });
    key = plain.demo?.apiKey ?? '';
  });
  afterAll(async () => {
    await plain?.close();
    await withCors?.close();
  });

  it('every answer carries nosniff and no-store: data, admin, errors, unknown routes', async () => {
    const auth = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });
    const cases = [
      await headersOf(`${plain.url}/api/v1/demo/demo/orders?size=1`, auth(key)),
      await headersOf(`${plain.url}/api/admin/v1/orgs/demo/workspaces/demo/views`, auth(ADMIN_TOKEN)),
      await headersOf(`${plain.url}/api/v1/demo/demo/orders`),
      await headersOf(`${plain.url}/api/v1/demo/demo/orders?size=abc`, auth(key)),
      await headersOf(`${plain.url}/no/such/route`),
      await headersOf(`${plain.url}/api/v1/demo/demo/orders`, { method: 'PUT' }),
      await headersOf(`${plain.url}/healthz`),
    ];
    expect(cases.map((c) => c.status)).toEqual([200, 200, 401, 400, 404, 405, 200]);
    for (const { headers } of cases) {
      expect(headers.get('x-content-type-options')).toBe('nosniff');
      expect(headers.get('cache-control')).toBe('no-store');
    }
  });

  it('no CORS headers unless CORS_ORIGINS is configured', async () => {
    const simple = await headersOf(`${plain.url}/healthz`, { headers: { origin: ALLOWED } });
    expect(simple.headers.get('access-control-allow-origin')).toBeNull();
    const preflight = await headersOf(`${plain.url}/api/v1/demo/demo/orders`, {
      method: 'OPTIONS',
      headers: { origin: ALLOWED, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    expect(preflight.headers.get('access-control-allow-methods')).toBeNull();
  });

  it('a listed origin gets its preflight and simple responses; any other origin gets nothing', async () => {
    const preflight = await headersOf(`${withCors.url}/api/v1/acme/shop/orders`, {
      method: 'OPTIONS',
      headers: { origin: ALLOWED, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(ALLOWED);
    expect(preflight.headers.get('access-control-allow-methods')).toContain('POST');
    expect(preflight.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('authorization');
    const simple = await headersOf(`${withCors.url}/healthz`, { headers: { origin: ALLOWED } });
    expect(simple.headers.get('access-control-allow-origin')).toBe(ALLOWED);
    expect(simple.headers.get('access-control-expose-headers')).toContain('X-Request-Id');

    const other = await headersOf(`${withCors.url}/api/v1/acme/shop/orders`, {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example.net', 'access-control-request-method': 'POST' },
    });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    expect(other.headers.get('access-control-allow-methods')).toBeNull();
    const otherSimple = await headersOf(`${withCors.url}/healthz`, { headers: { origin: 'https://app.example.com.evil.net' } });
    expect(otherSimple.headers.get('access-control-allow-origin')).toBeNull();
  });
});
