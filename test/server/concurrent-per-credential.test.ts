/**
 * DESIGN §11: a credential runs at most CONCURRENT_PER_CREDENTIAL data requests at a time on an
 * instance; one more is 429 RATE_LIMITED with Retry-After: 1 while other credentials are answered.
 * The requests are held in flight by a table locked from outside the service (PostgreSQL).
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, type ApiResponse, type TestWorkspace, startWorkspace } from '../support/harness.ts';
import { pollUntil } from '../support/poll.ts';
import { lockTable, type TableLock } from '../support/table-lock.ts';
import { vendorsToRun } from '../support/vendors.ts';

const vendors = (await vendorsToRun()).filter((v) => v.name === 'postgres');
const LIMIT = 4;
const EXPORT_ROWS = 40_000;

/** Opens a CSV export and stops reading after its first chunk; the returned function drops it. */
function openExport(url: string, token: string): Promise<() => void> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const req = request({ host: target.hostname, port: target.port, path: `${target.pathname}${target.search}`, headers: { authorization: `Bearer ${token}` } }, (res) => {
      res.once('data', () => {
        res.pause();
        resolve(() => req.destroy());
      });
      res.on('error', () => undefined);
    });
    req.on('error', reject);
    req.end();
  });
}

describe.each(vendors)('concurrent requests per credential on $name', (target) => {
  let ws: TestWorkspace;
  let otherKey: string;
  let lock: TableLock | undefined;

  beforeAll(async () => {
    ws = await startWorkspace(target, { concurrentPerCredential: LIMIT });
    otherKey = (await ws.call('POST', ws.admin('/api-keys'), { token: ADMIN_TOKEN, body: { name: 'other' } })).body.data.key;
  });
  afterAll(async () => {
    await lock?.release();
    await ws?.close();
  });

  const url = () => String(ws.db.database.url);
  /** LIMIT reads of the locked table, in flight until the lock goes. */
  async function holdSlots(token: string, signal?: AbortSignal): Promise<Promise<ApiResponse | Error>[]> {
    lock = await lockTable(url(), 'public.orders');
    const held = Array.from({ length: LIMIT }, () => ws.call('GET', ws.records('/orders/1'), { token, ...(signal ? { signal } : {}) }).catch((error: Error) => error));
    expect(await pollUntil(async () => (await lock!.waiting()) === LIMIT, 10_000)).toBe(true);
    return held;
  }

  it('one request more than the limit is 429 RATE_LIMITED with Retry-After: 1; another key is answered', async () => {
    const held = await holdSlots(ws.apiKey);
    const refused = await ws.call('GET', ws.records('/customers?size=1'));
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('RATE_LIMITED');
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(refused.body.retryAfterSeconds).toBe(1);
    expect(refused.body.error.message).toContain(String(LIMIT));
    expect((await ws.call('GET', ws.records('/customers?size=1'), { token: otherKey })).status).toBe(200);
    // Probes are never limited.
    expect((await fetch(`${ws.url}/healthz`)).status).toBe(200);
    await lock!.release();
    for (const res of await Promise.all(held)) expect((res as ApiResponse).status).toBe(200);
    expect((await ws.call('GET', ws.records('/customers?size=1'))).status).toBe(200);
  });

  it('a streamed export keeps its place until its stream ends', async () => {
    await ws.db.query(`CREATE TABLE public.bigexport (id integer PRIMARY KEY, pad varchar(400) NOT NULL)`);
    await ws.db.query(`INSERT INTO public.bigexport (id, pad) SELECT g, repeat('x', 300) FROM generate_series(1, ${EXPORT_ROWS}) g`);
    expect((await ws.call('POST', ws.admin('/sync'), { token: ADMIN_TOKEN })).status).toBe(200);
    const drops = await Promise.all(Array.from({ length: LIMIT }, () => openExport(`${ws.url}${ws.records('/bigexport?format=csv&sort=id')}`, ws.apiKey)));
    expect((await ws.call('GET', ws.records('/customers?size=1'))).status).toBe(429);
    for (const drop of drops) drop();
    expect(await pollUntil(async () => (await ws.call('GET', ws.records('/customers?size=1'))).status === 200, 5000)).toBe(true);
  });

  it('a client that goes away gives its place back', async () => {
    const abort = new AbortController();
    const held = await holdSlots(ws.apiKey, abort.signal);
    expect((await ws.call('GET', ws.records('/customers?size=1'))).status).toBe(429);
    abort.abort();
    await Promise.all(held);
    expect(await pollUntil(async () => (await ws.call('GET', ws.records('/customers?size=1'))).status === 200, 5000)).toBe(true);
    await lock!.release();
  });
});
