/** Rate limits with counters in process memory (no REDIS_URL), DESIGN §16. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiResponse } from '../../support/harness.ts';
import { expectError } from '../../support/http-expect.ts';
import { addWorkspace, startLimited, type LimitedService, type LimitedWorkspace } from './service.ts';

const LIMIT = 5;
let limited: LimitedService;
let ws: LimitedWorkspace;
let nextAddress = 1;
/** A fresh client address (X-Forwarded-For is trusted): its own budget. */
const newAddress = (): Record<string, string> => ({ 'x-forwarded-for': `10.0.0.${nextAddress++}` });

beforeAll(async () => {
  limited = await startLimited({ perMinute: LIMIT });
  ws = await addWorkspace(limited);
});
afterAll(async () => {
  await ws?.db.drop();
  await limited?.close();
});

function remaining(res: ApiResponse): number {
  return Number(res.headers.get('ratelimit-remaining'));
}

function expectRefused(res: ApiResponse): void {
  expectError(res, 429, 'RATE_LIMITED');
  expect(res.headers.get('ratelimit-limit')).toBe(String(LIMIT));
  expect(res.headers.get('ratelimit-remaining')).toBe('0');
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
  expect(res.headers.get('ratelimit-reset')).toBe(String(retryAfter));
}

describe('per API key', () => {
  it('allows N requests a minute with a falling RateLimit-Remaining, refuses the N+1st with 429 RATE_LIMITED', async () => {
    const seen: number[] = [];
    for (let i = 0; i < LIMIT; i++) {
      const res = await limited.call('GET', `${ws.records}/1`, { token: ws.keys[0], headers: newAddress() });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.headers.get('ratelimit-limit')).toBe(String(LIMIT));
      const reset = Number(res.headers.get('ratelimit-reset'));
      expect(reset).toBeGreaterThanOrEqual(1);
      expect(reset).toBeLessThanOrEqual(60);
      seen.push(remaining(res));
    }
    expect(seen).toEqual([4, 3, 2, 1, 0]);
    // Another address does not help: the budget is the key's.
    expectRefused(await limited.call('GET', `${ws.records}/1`, { token: ws.keys[0], headers: newAddress() }));
  });

  it('another key of the same workspace keeps its own budget', async () => {
    const res = await limited.call('GET', `${ws.records}/1`, { token: ws.keys[1], headers: newAddress() });
    expect(res.status).toBe(200);
    expect(remaining(res)).toBe(LIMIT - 1);
  });
});

describe('per internal OAuth token', () => {
  it('a token issued for a key spends that key\'s budget', async () => {
    const grant = await limited.call('POST', '/oauth/token', { body: { grant_type: 'client_credentials', client_id: ws.keyIds[2], client_secret: ws.keys[2] }, headers: newAddress() });
    expect(grant.status, JSON.stringify(grant.body)).toBe(200);
    const token = String(grant.body.access_token);
    const seen: number[] = [];
    for (const credential of [ws.keys[2], ws.keys[2], token, token, ws.keys[2]]) {
      const res = await limited.call('GET', `${ws.records}/1`, { token: credential, headers: newAddress() });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      seen.push(remaining(res));
    }
    expect(seen).toEqual([4, 3, 2, 1, 0]);
    expectRefused(await limited.call('GET', `${ws.records}/1`, { token, headers: newAddress() }));
  });
});

describe('per client address', () => {
  it('requests without a credential are counted per address and refused before they run', async () => {
    const address = newAddress();
    for (let i = 0; i < LIMIT; i++) {
      const res = await limited.call('GET', ws.records, { headers: address });
      expectError(res, 401, 'UNAUTHORIZED');
      expect(remaining(res)).toBe(LIMIT - 1 - i);
    }
    expectRefused(await limited.call('GET', ws.records, { headers: address }));
    // Another address is not affected.
    expectError(await limited.call('GET', ws.records, { headers: newAddress() }), 401, 'UNAUTHORIZED');
  });

  it('a credential that does not verify spends the address budget, so guessing is limited too', async () => {
    const address = newAddress();
    for (let i = 0; i < LIMIT; i++) expectError(await limited.call('GET', ws.records, { token: `wdk_guess${i}`, headers: address }), 401, 'UNAUTHORIZED');
    expectRefused(await limited.call('GET', ws.records, { token: 'wdk_guess-again', headers: address }));
  });

  // A proxy appends the address it saw: entries to its left are whatever the client sent.
  it('the address is the one the nearest proxy appended: a client cannot pick its budget by prepending to X-Forwarded-For', async () => {
    const real = newAddress()['x-forwarded-for'];
    for (let i = 0; i < LIMIT; i++) {
      const res = await limited.call('GET', ws.records, { headers: { 'x-forwarded-for': `192.0.2.${i + 1}, ${real}` } });
      expect(remaining(res)).toBe(LIMIT - 1 - i);
    }
    expectRefused(await limited.call('GET', ws.records, { headers: { 'x-forwarded-for': `198.51.100.7, ${real}` } }));
  });

  it('a request with a credential that failed before it was checked (unknown route) spends the address budget', async () => {
    const address = newAddress();
    for (let i = 0; i < LIMIT; i++) expectError(await limited.call('GET', '/no/such/route', { token: ws.keys[1], headers: address }), 404, 'NOT_FOUND');
    expectRefused(await limited.call('GET', '/no/such/route', { token: ws.keys[1], headers: address }));
  });
});

describe('never limited', () => {
  it('health, readiness and /metrics answer from an address over its limit, without RateLimit headers', async () => {
    const address = newAddress();
    for (let i = 0; i <= LIMIT; i++) await limited.call('GET', ws.records, { headers: address });
    expectRefused(await limited.call('GET', ws.records, { headers: address }));
    for (const path of ['/healthz', '/readyz', '/metrics']) {
      for (let i = 0; i <= LIMIT; i++) {
        const res = await limited.call('GET', path, { headers: address });
        expect(res.status, path).toBe(200);
        expect(res.headers.get('ratelimit-limit'), path).toBeNull();
      }
    }
  });
});

describe('refusals are counted', () => {
  it('wdapi_rate_limit_refusals_total moves with each 429', async () => {
    const before = (await limited.service.metrics.rateLimitRefusals.get()).values[0]?.value ?? 0;
    const address = newAddress();
    for (let i = 0; i < LIMIT + 2; i++) await limited.call('GET', ws.records, { headers: address });
    const after = (await limited.service.metrics.rateLimitRefusals.get()).values[0]?.value ?? 0;
    expect(after - before).toBe(2);
  });
});
