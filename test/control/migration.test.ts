import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, startWorkspace, type TestWorkspace } from '../support/harness.ts';
import { pgliteTarget } from '../support/vendors.ts';

describe('schema migration flag (spec 503 SCHEMA_MIGRATION_IN_PROGRESS)', () => {
  let ws: TestWorkspace;
  const flag = (entity: string, body: unknown) => ws.call('PUT', ws.admin(`/entities/${entity}/migration`), { body, token: ADMIN_TOKEN });
  const clear = (entity: string) => ws.call('DELETE', ws.admin(`/entities/${entity}/migration`), { token: ADMIN_TOKEN });

  beforeAll(async () => {
    ws = await startWorkspace(pgliteTarget);
  });
  afterAll(async () => ws?.close());

  it('blocked writes answer 503 with Retry-After, retryAfterSeconds and the block flags; reads still work', async () => {
    expect((await flag('orders', { blocksWrites: true, blocksReads: false, retryAfterSeconds: 12 })).status).toBe(200);
    const write = await ws.call('POST', ws.records('/orders'), { body: { customerId: 1, amount: 1, orderedAt: '2026-01-01T00:00:00Z' } });
    expect(write.status).toBe(503);
    expect(write.headers.get('retry-after')).toBe('12');
    expect(write.body).toMatchObject({
      error: { code: 'SCHEMA_MIGRATION_IN_PROGRESS' },
      retryAfterSeconds: 12,
      blocksReads: false,
      blocksWrites: true,
    });
    expect((await ws.call('PUT', ws.records('/orders/1'), { body: { status: 'paid' } })).status).toBe(503);
    expect((await ws.call('DELETE', ws.records('/orders/1'))).status).toBe(503);
    expect((await ws.call('GET', ws.records('/orders/1'))).status).toBe(200);
    expect((await clear('orders')).status).toBe(204);
    expect((await ws.call('PUT', ws.records('/orders/1'), { body: { status: 'paid' } })).status).toBe(200);
  });

  it('blocked reads refuse list, get and expansion into the entity; retryAfterSeconds defaults to 30', async () => {
    await flag('customers', { blocksReads: true, blocksWrites: true });
    const list = await ws.call('GET', ws.records('/customers'));
    expect(list.status).toBe(503);
    expect(list.body.retryAfterSeconds).toBe(30);
    expect((await ws.call('GET', ws.records('/customers/1'))).status).toBe(503);
    expect((await ws.call('GET', ws.records('/orders?expand=customer'))).status).toBe(503);
    expect((await ws.call('GET', ws.records('/orders'))).status).toBe(200);
    await clear('customers');
    expect((await ws.call('GET', ws.records('/orders?expand=customer'))).status).toBe(200);
  });

  it('flag payloads are checked strictly', async () => {
    const res = await flag('orders', { blocksReads: 'yes' });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_FAILED');
  });
});
