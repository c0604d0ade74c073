/**
 * Reading the migration flag: `GET …/entities/{entity}/migration` answers the
 * flag as set, with its retry-after, and 404 when the entity is not marked; owner credentials only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, startWorkspace, type TestWorkspace } from '../support/harness.ts';
import { vendorsToRun } from '../support/vendors.ts';

const vendors = await vendorsToRun();

describe.each(vendors)('reading the migration flag on $name', (target) => {
  let ws: TestWorkspace;
  const path = (entity: string) => ws.admin(`/entities/${entity}/migration`);

  beforeAll(async () => {
    ws = await startWorkspace(target);
  });
  afterAll(async () => ws?.close());

  it('is 404 NOT_FOUND before the flag is set and after it is cleared', async () => {
    const res = await ws.call('GET', path('orders'), { token: ADMIN_TOKEN });
    expect(res.status).toBe(404);
    expect(res.body.error).toMatchObject({ code: 'NOT_FOUND', message: "'orders' is not marked as migrating" });
  });

  it('answers the flag as set, defaults included, with the API key of the workspace too', async () => {
    expect((await ws.call('PUT', path('orders'), { body: { blocksReads: true, retryAfterSeconds: 45 }, token: ADMIN_TOKEN })).status).toBe(200);
    const res = await ws.call('GET', path('orders'));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { entity: 'orders', blocksReads: true, blocksWrites: true, retryAfterSeconds: 45 } });
    expect((await ws.call('GET', path('customers'))).status).toBe(404);
    expect((await ws.call('DELETE', path('orders'), { token: ADMIN_TOKEN })).status).toBe(204);
    expect((await ws.call('GET', path('orders'))).status).toBe(404);
  });

  it('an unknown entity is 404 naming it; no credential is 401', async () => {
    const unknown = await ws.call('GET', path('nowhere'), { token: ADMIN_TOKEN });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toContain('nowhere');
    expect((await ws.call('GET', path('orders'), { token: null })).status).toBe(401);
  });
});
