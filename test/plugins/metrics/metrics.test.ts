/** GET /metrics (DESIGN §16): Prometheus text, request counts by route template, cache, import. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../../../server/start.ts';
import { UNMATCHED_ROUTE } from '../../../plugins/metrics/request-observer.ts';
import { ADMIN_TOKEN, fetchJson, startWorkspace, type TestWorkspace } from '../../support/harness.ts';
import { expectError } from '../../support/http-expect.ts';
import { pgliteTarget } from '../../support/vendors.ts';
import { doneOf, importFile, viewUuidOf } from '../../support/import-calls.ts';
import pino from 'pino';
import { scrape } from './scrape.ts';

const RECORD_ROUTE = '/api/v1/:org/:ws/:entity/:id';

/** http_request_duration_seconds_count of GET RECORD_ROUTE with `status`. */
async function durationCount(ws: TestWorkspace, status: string): Promise<number> {
  const { values } = await ws.service.metrics.httpDuration.get();
  const sample = values.find((v) => v.metricName === 'http_request_duration_seconds_count' && v.labels.route === RECORD_ROUTE && v.labels.method === 'GET' && v.labels.status === status);
  return sample?.value ?? 0;
}

describe('GET /metrics on an open service', () => {
  let ws: TestWorkspace;
  beforeAll(async () => {
    ws = await startWorkspace(pgliteTarget);
  });
  afterAll(async () => ws?.close());

  it('is Prometheus text with the request, cache, import, refusal and process metrics', async () => {
    const names = (await scrape(ws.url)).families.map((f) => f.name);
    for (const name of ['http_requests_total', 'http_request_duration_seconds', 'wdapi_workspace_cache_lookups_total', 'wdapi_import_rows_total', 'wdapi_import_batches_total', 'wdapi_rate_limit_refusals_total', 'wdapi_change_notifications_received_total', 'process_cpu_seconds_total', 'nodejs_heap_size_used_bytes']) {
      expect(names, name).toContain(name);
    }
  });

  it('http_requests_total for a route template adds up to the requests sent, by status; the histogram counts them too', async () => {
    const before = await scrape(ws.url);
    const durationCountBefore = await durationCount(ws, '200');
    const ok = 7;
    const missing = 3;
    for (let i = 0; i < ok; i++) expect((await ws.call('GET', ws.records(`/orders/${i + 1}`))).status).toBe(200);
    for (let i = 0; i < missing; i++) expect((await ws.call('GET', ws.records(`/orders/${9000 + i}`))).status).toBe(404);
    const after = await scrape(ws.url);
    const delta = (name: string, labels: Record<string, string>) => after.total(name, labels) - before.total(name, labels);
    expect(delta('http_requests_total', { method: 'GET', route: RECORD_ROUTE, status: '200' })).toBe(ok);
    expect(delta('http_requests_total', { method: 'GET', route: RECORD_ROUTE, status: '404' })).toBe(missing);
    // The text parser flattens labelled histograms into one (it loses their labels), so the
    // histogram's count is read from prom-client itself.
    expect((await durationCount(ws, '200')) - durationCountBefore).toBe(ok);
  });

  it('the route label is always a template: never a raw path, an unmatched path gets one fixed label', async () => {
    for (const path of ['/no/such/thing', '/another/unknown/path?x=1']) expectError(await ws.call('GET', path), 404, 'NOT_FOUND');
    const metrics = await scrape(ws.url);
    const routes = new Set(metrics.samples('http_requests_total').map((s) => s.labels?.route));
    expect(routes).toContain(UNMATCHED_ROUTE);
    expect(metrics.total('http_requests_total', { route: UNMATCHED_ROUTE, status: '404' })).toBeGreaterThanOrEqual(2);
    for (const route of routes) {
      expect(route === UNMATCHED_ROUTE || route?.startsWith('/'), String(route)).toBe(true);
      expect(route, 'a raw path in a label').not.toMatch(/acme|shop|orders|unknown|\/\d/);
    }
  });

  it('cache hits move while the runtime is cached; a dropped runtime is a miss', async () => {
    const lookups = async () => {
      const m = await scrape(ws.url);
      return { hit: m.total('wdapi_workspace_cache_lookups_total', { result: 'hit' }), miss: m.total('wdapi_workspace_cache_lookups_total', { result: 'miss' }) };
    };
    await ws.call('GET', ws.records('/orders/1'));
    const start = await lookups();
    await ws.call('GET', ws.records('/orders/1'));
    await ws.call('GET', ws.records('/orders/2'));
    const cached = await lookups();
    expect(cached.hit - start.hit).toBeGreaterThanOrEqual(2);
    expect(cached.miss).toBe(start.miss);
    ws.service.services.workspaces.invalidateAll();
    await ws.call('GET', ws.records('/orders/1'));
    expect((await lookups()).miss).toBeGreaterThan(cached.miss);
  });

  it('import rows and batches are counted', async () => {
    const customers = await viewUuidOf(ws, 'customers');
    const before = await scrape(ws.url);
    doneOf(await importFile(ws, customers, 'name,email\nMetric One,m1@example.com\nMetric Two,m2@example.com\nBad,\n'));
    const after = await scrape(ws.url);
    expect(after.total('wdapi_import_batches_total') - before.total('wdapi_import_batches_total')).toBe(1);
    const rows = (outcome: string) => after.total('wdapi_import_rows_total', { outcome }) - before.total('wdapi_import_rows_total', { outcome });
    expect(rows('success') + rows('failure') + rows('skipped')).toBe(3);
    expect(rows('success')).toBeGreaterThanOrEqual(2);
  });
});

describe('GET /metrics with METRICS_TOKEN', () => {
  const TOKEN = 'metrics-token-0123456789abcdef';
  let service: RunningService;
  beforeAll(async () => {
    service = await startService({ adminToken: ADMIN_TOKEN, logger: pino({ level: 'silent' }), metricsToken: TOKEN });
  });
  afterAll(async () => service?.close());

  it('is 401 UNAUTHORIZED in the error envelope without the token or with another one', async () => {
    for (const token of [null, 'wrong-token-0123456789abcdef', ADMIN_TOKEN, `${TOKEN}x`]) {
      expectError(await fetchJson(`${service.url}/metrics`, 'GET', { token }), 401, 'UNAUTHORIZED');
    }
  });

  it('answers 200 with the token', async () => {
    const metrics = await scrape(service.url, TOKEN);
    expect(metrics.total('http_requests_total', { route: '/metrics', status: '401' })).toBe(4);
  });
});
