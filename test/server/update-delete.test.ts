/** Spec "Record endpoints" (update rule 2, get/delete rule 1), DESIGN §5, §8 and §12. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorkspace, type TestWorkspace } from '../support/harness.ts';
import { expectError, expectValidation, rowCount, tableDigest } from '../support/http-expect.ts';
import { vendorsToRun } from '../support/vendors.ts';

const vendors = await vendorsToRun();
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(vendors)('update and delete on $name', (target) => {
  let ws: TestWorkspace;
  beforeAll(async () => {
    ws = await startWorkspace(target);
  });
  afterAll(async () => ws?.close());

  const get = async (path: string) => (await ws.call('GET', ws.records(path))).body.data;
  const put = (path: string, body: unknown) => ws.call('PUT', ws.records(path), { body });

  describe('update (PUT is partial)', () => {
    it('omitted fields keep their values; the response is the full updated record', async () => {
      const before = await get('/orders/10');
      const res = await put('/orders/10', { note: 'changed', quantity: 4 });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(Object.keys(res.body)).toEqual(['data']);
      const { updatedAt: _a, ...rest } = res.body.data;
      const { updatedAt: _b, ...old } = before;
      expect(rest).toEqual({ ...old, note: 'changed', quantity: 4 });
      expect(await get('/orders/10')).toEqual(res.body.data);
      const rows = await ws.db.query(`SELECT note, quantity, status FROM ${ws.db.table('orders')} WHERE id = 10`);
      expect(rows[0]).toMatchObject({ note: 'changed', quantity: 4, status: before.status });
    });

    it('updatedAt changes on every update and createdAt does not', async () => {
      const before = await get('/orders/11');
      await pause(5);
      const first = (await put('/orders/11', { status: 'shipped' })).body.data;
      expect(new Date(first.updatedAt).getTime()).toBeGreaterThan(new Date(before.updatedAt).getTime());
      expect(first.createdAt).toBe(before.createdAt);
      await pause(5);
      const second = (await put('/orders/11', { status: 'paid' })).body.data;
      expect(new Date(second.updatedAt).getTime()).toBeGreaterThan(new Date(first.updatedAt).getTime());
      expect(second.updatedAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    });

    it('a nullable field can be set to null, and a foreign key changed', async () => {
      const res = await put('/orders/12', { note: null, productId: 2, customerId: 3 });
      expect(res.body.data).toMatchObject({ id: 12, note: null, productId: 2, customerId: 3 });
    });

    it('an id in the body equal to the path id is accepted', async () => {
      const res = await put('/orders/13', { id: 13, note: 'echo' });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ id: 13, note: 'echo' });
    });

    it('expand and fields shape the updated record', async () => {
      const res = await ws.call('PUT', ws.records('/orders/14?expand=customer&fields=id,note,customer.name'), { body: { note: 'shaped' } });
      expect(res.body.data).toEqual({ id: 14, note: 'shaped', customer: { name: 'Grace' } });
    });

    it('update of a missing record is 404 NOT_FOUND', async () => {
      expectError(await put('/orders/9999', { note: 'x' }), 404, 'NOT_FOUND');
      expectError(await put('/orders/9999', {}), 404, 'NOT_FOUND');
      expectError(await put('/orders/abc', { note: 'x' }), 404, 'NOT_FOUND');
    });

    it.each([
      ['a string for an integer', { quantity: 'x' }, 'quantity', 'type'],
      ['null for a required field', { amount: null }, 'amount', 'required'],
      ['an unknown field', { colour: 'red' }, 'colour', 'unknown'],
      ['writing updatedAt', { updatedAt: '2020-01-01T00:00:00Z' }, 'updatedAt', 'readOnly'],
      ['writing createdAt', { createdAt: '2020-01-01T00:00:00Z' }, 'createdAt', 'readOnly'],
      ['changing the id', { id: 2 }, 'id', 'readOnly'],
      ['a bad timestamp', { orderedAt: '2026-13-01T00:00:00Z' }, 'orderedAt', 'type'],
    ] as const)('%s is 400 VALIDATION_FAILED and the row is unchanged', async (_label, body, field, rule) => {
      const before = await tableDigest(ws, 'orders');
      expectValidation(await put('/orders/1', body), field, rule);
      expect(await tableDigest(ws, 'orders')).toEqual(before);
    });

    it('a too long varchar on update is 400 VALIDATION_FAILED', async () => {
      const before = await tableDigest(ws, 'customers');
      expectValidation(await put('/customers/3', { name: 'y'.repeat(101) }), 'name', 'maxLength');
      expect(await tableDigest(ws, 'customers')).toEqual(before);
    });

    it('a unique collision on update is 409 CONFLICT and the row is unchanged', async () => {
      const before = await tableDigest(ws, 'customers');
      expectError(await put('/customers/2', { email: 'user1@example.com' }), 409, 'CONFLICT', 'email');
      expect(await tableDigest(ws, 'customers')).toEqual(before);
    });

    it('a dangling foreign key on update is 422 REFERENCE_NOT_FOUND and the row is unchanged', async () => {
      const before = await tableDigest(ws, 'orders');
      expectError(await put('/orders/1', { customerId: 9999 }), 422, 'REFERENCE_NOT_FOUND');
      expect(await tableDigest(ws, 'orders')).toEqual(before);
    });

    it('malformed JSON is 400 BAD_REQUEST and a non-JSON body is 415', async () => {
      expectError(await ws.call('PUT', ws.records('/orders/1'), { rawBody: '{"note":' }), 400, 'BAD_REQUEST');
      expectError(await ws.call('PUT', ws.records('/orders/1'), { rawBody: 'note=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } }), 415, 'UNSUPPORTED_MEDIA_TYPE');
    });
  });

  describe('delete', () => {
    it('delete answers 204 with no body; afterwards get and delete are 404', async () => {
      const created = await ws.call('POST', ws.records('/orders'), { body: { customerId: 1, amount: 1, orderedAt: '2026-01-01T00:00:00Z' } });
      const id = created.body.data.id;
      const before = await rowCount(ws, 'orders');
      const res = await ws.call('DELETE', ws.records(`/orders/${id}`));
      expect(res.status).toBe(204);
      expect(res.body).toBeUndefined();
      expect(await rowCount(ws, 'orders')).toBe(before - 1);
      expectError(await ws.call('GET', ws.records(`/orders/${id}`)), 404, 'NOT_FOUND');
      expectError(await ws.call('DELETE', ws.records(`/orders/${id}`)), 404, 'NOT_FOUND');
    });

    it('delete of a missing record is 404, also for an id that cannot exist', async () => {
      const before = await rowCount(ws, 'orders');
      expectError(await ws.call('DELETE', ws.records('/orders/9999')), 404, 'NOT_FOUND');
      expectError(await ws.call('DELETE', ws.records('/orders/abc')), 404, 'NOT_FOUND');
      expect(await rowCount(ws, 'orders')).toBe(before);
    });

    it.each([
      ['customers', 1],
      ['regions', 1],
      ['products', 1],
    ])('deleting a referenced record (%s/%s) is 409 CONFLICT, not 500, and the row stays', async (entity, id) => {
      const before = await tableDigest(ws, entity);
      expectError(await ws.call('DELETE', ws.records(`/${entity}/${id}`)), 409, 'CONFLICT');
      expect(await tableDigest(ws, entity)).toEqual(before);
      expect((await ws.call('GET', ws.records(`/${entity}/${id}`))).status).toBe(200);
    });

    it('a record can be deleted once nothing references it', async () => {
      const c = (await ws.call('POST', ws.records('/customers'), { body: { name: 'Temp', email: 'temp@example.com' } })).body.data;
      const o = (await ws.call('POST', ws.records('/orders'), { body: { customerId: c.id, amount: 2, orderedAt: '2026-01-01T00:00:00Z' } })).body.data;
      expectError(await ws.call('DELETE', ws.records(`/customers/${c.id}`)), 409, 'CONFLICT');
      expect((await ws.call('DELETE', ws.records(`/orders/${o.id}`))).status).toBe(204);
      expect((await ws.call('DELETE', ws.records(`/customers/${c.id}`))).status).toBe(204);
    });
  });
});
