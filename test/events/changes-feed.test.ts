/**
 * Change events, `api` capture (docs/change-events.md): the entity option, one event per written
 * row in the write's transaction, none for a refused write, and the changes page over it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, startWorkspace, type TestWorkspace } from '../support/harness.ts';
import { vendorsToRun } from '../support/vendors.ts';
import { viewUuidOf } from '../support/import-calls.ts';
import { configureIdp } from '../support/auth.ts';
import { nowSeconds, TestIdp } from '../support/test-idp.ts';

const vendors = await vendorsToRun();

const ORDER = { customerId: 2, amount: 12.5, quantity: 3, orderedAt: '2026-03-01T12:00:00Z' };

describe.each(vendors)('change events captured by the service on $name', (target) => {
  let ws: TestWorkspace;
  const options = (body: unknown) => ws.call('PATCH', ws.admin('/entities/orders'), { body, token: ADMIN_TOKEN });
  const changes = (query = '') => ws.call('GET', ws.records(`/orders/changes${query}`), { token: ADMIN_TOKEN });

  beforeAll(async () => {
    ws = await startWorkspace(target);
  });
  afterAll(async () => ws?.close());

  it('events are off by default: the changes page is 409 EVENTS_OFF', async () => {
    const res = await changes();
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('EVENTS_OFF');
  });

  it("'database' capture and unknown values are refused with 400 naming events", async () => {
    for (const events of ['database', 'always', 1]) {
      const res = await options({ events });
      expect(res.status).toBe(400);
      expect(JSON.stringify(res.body.error)).toContain('events');
    }
  });

  it('create, update and delete each append one event, in order, with the full record under API names', async () => {
    const on = await options({ events: 'api' });
    expect(on.status, JSON.stringify(on.body)).toBe(200);
    expect(on.body.data.events).toBe('api');
    const created = await ws.call('POST', ws.records('/orders?fields=id'), { body: ORDER });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.data.id;
    expect((await ws.call('PUT', ws.records(`/orders/${id}`), { body: { amount: 20 } })).status).toBe(200);
    const full = (await ws.call('GET', ws.records(`/orders/${id}`))).body.data;
    expect((await ws.call('DELETE', ws.records(`/orders/${id}`))).status).toBe(204);

    const page = await changes();
    expect(page.status, JSON.stringify(page.body)).toBe(200);
    const events = page.body.data;
    expect(events.map((e: { op: string }) => e.op)).toEqual(['insert', 'update', 'delete']);
    for (const e of events) {
      expect(e.entity).toBe('orders');
      expect(e.id).toEqual(id);
      expect(e.eventId).toBe(`${e.eventId.split('.')[0]}.${e.position}`);
      expect(e.at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    }
    expect(events[1].record).toEqual(full);
    expect(events[2].record).toEqual(full);
    const positions = events.map((e: { position: string }) => BigInt(e.position));
    expect([...positions].sort((a, b) => (a < b ? -1 : 1))).toEqual(positions);
    expect(page.body.meta).toEqual({ size: 100, nextSince: events[2].position });

    // Resuming after each position seen gives exactly the rest.
    for (const [i, e] of events.entries()) {
      const rest = await changes(`?since=${e.position}`);
      expect(rest.body.data.map((r: { position: string }) => r.position)).toEqual(events.slice(i + 1).map((r: { position: string }) => r.position));
    }
    const ahead = await changes('?since=999999999');
    expect(ahead.body).toEqual({ data: [], meta: { size: 100, nextSince: '999999999' } });
    const one = await changes('?size=1');
    expect(one.body.data).toHaveLength(1);
    expect(one.body.meta.nextSince).toBe(events[0].position);
  });

  it('a write the database refuses leaves no event', async () => {
    const before = (await changes()).body.data.length;
    const refused = await ws.call('POST', ws.records('/orders'), { body: { ...ORDER, customerId: 999999 } });
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect((await ws.call('PUT', ws.records('/orders/999999'), { body: { amount: 1 } })).status).toBe(404);
    expect((await ws.call('DELETE', ws.records('/orders/999999'))).status).toBe(404);
    expect((await changes()).body.data).toHaveLength(before);
  });

  it('the workspace feed holds every entity; bad since and size are 400', async () => {
    const all = await ws.call('GET', ws.records('/changes'), { token: ADMIN_TOKEN });
    expect(all.status, JSON.stringify(all.body)).toBe(200);
    expect(all.body.data.length).toBeGreaterThan(0);
    for (const query of ['?since=-1', '?since=abc', '?since=1.5', '?size=0', '?size=1001', '?size=x']) {
      const res = await changes(query);
      expect(res.status, query).toBe(400);
      expect(res.body.error.code).toBe('BAD_REQUEST');
    }
  });

  it('an external user is refused both pages with 403 until the feed applies RLS', async () => {
    const idp = await TestIdp.start();
    try {
      const issuer = idp.registerIssuer('/changes-feed');
      await configureIdp(ws, { issuerUrl: issuer, defaultPermissions: 'READ_WRITE', enabled: true });
      const token = await idp.sign({ iss: issuer, sub: 'alice', exp: nowSeconds() + 3600, iat: nowSeconds() });
      expect((await ws.call('GET', ws.records('/orders?size=1'), { token })).status, 'the token reads records').toBe(200);
      for (const path of ['/changes', '/orders/changes']) {
        const res = await ws.call('GET', ws.records(path), { token });
        expect(res.status, path).toBe(403);
        expect(res.body.error.code).toBe('FORBIDDEN');
      }
    } finally {
      await idp.close();
    }
  });

  it('a bulk write of an entity with events on is refused with 409 and writes nothing (bulk is not captured yet)', async () => {
    const view = await viewUuidOf(ws, 'orders');
    const count = async (): Promise<number> => (await ws.call('GET', ws.records('/orders?count=exact&size=1'))).body.meta.totalElements;
    const before = await count();
    const res = await ws.call('POST', `/api/data/bulk/${view}/insert`, { body: { rows: [ORDER, ORDER] } });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('CONFLICT');
    expect(res.body.error.message).toContain('change events');
    expect(typeof before).toBe('number');
    expect(await count()).toBe(before);
  });

  it('turning events off stops capture and the page answers 409 again', async () => {
    expect((await options({ events: 'off' })).status).toBe(200);
    expect((await ws.call('POST', ws.records('/orders'), { body: ORDER })).status).toBe(201);
    expect((await changes()).status).toBe(409);
    expect((await options({ events: 'api' })).status).toBe(200);
    const page = await changes();
    expect(page.body.data.filter((e: { op: string }) => e.op === 'insert')).toHaveLength(1);
  });
});
