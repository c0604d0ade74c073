/** Spec "Record endpoints" (create) and "Entity record", DESIGN §4, §5, §8 and §12 "Bad input". */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorkspace, type TestWorkspace } from '../support/harness.ts';
import { expectError, expectValidation, rowCount } from '../support/http-expect.ts';
import { vendorsToRun } from '../support/vendors.ts';

const vendors = await vendorsToRun();
const ISO_UTC_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

const ORDER = { customerId: 2, amount: 12.5, orderedAt: '2026-03-01T12:00:00+02:00' };
let emailCounter = 0;
const customer = (extra: Record<string, unknown> = {}) => ({ name: 'New Person', email: `new${++emailCounter}@example.com`, ...extra });

type Invalid = readonly [label: string, entity: string, body: Record<string, unknown>, field: string, rule: string | undefined];

const INVALID: Invalid[] = [
  ['an unknown field', 'orders', { ...ORDER, colour: 'red' }, 'colour', 'unknown'],
  ['a string for an integer', 'orders', { ...ORDER, quantity: '3' }, 'quantity', 'type'],
  ['a fraction for an integer', 'orders', { ...ORDER, quantity: 2.5 }, 'quantity', 'type'],
  ['an integer out of range', 'orders', { ...ORDER, quantity: 2 ** 31 }, 'quantity', undefined],
  ['a number for text', 'orders', { ...ORDER, status: 5 }, 'status', 'type'],
  ['a string for a decimal that is not a number', 'orders', { ...ORDER, amount: 'twelve' }, 'amount', 'type'],
  ['a decimal with too many integer digits', 'orders', { ...ORDER, amount: 123456789012 }, 'amount', undefined],
  ['a decimal in exponent notation beyond the column (number)', 'orders', { ...ORDER, amount: 1e21 }, 'amount', 'range'],
  ['a decimal in exponent notation beyond the column (string)', 'orders', { ...ORDER, amount: '1e50' }, 'amount', 'range'],
  ['a malformed timestamp', 'orders', { ...ORDER, orderedAt: 'tomorrow' }, 'orderedAt', 'type'],
  ['an impossible timestamp', 'orders', { ...ORDER, orderedAt: '2026-02-30T10:00:00Z' }, 'orderedAt', 'type'],
  ['a missing required field', 'orders', { customerId: 1, orderedAt: '2026-01-01T00:00:00Z' }, 'amount', 'required'],
  ['null for a required field', 'orders', { ...ORDER, amount: null }, 'amount', 'required'],
  ['writing the auto timestamp createdAt', 'orders', { ...ORDER, createdAt: '2026-01-01T00:00:00Z' }, 'createdAt', 'readOnly'],
  ['writing the auto timestamp updatedAt', 'orders', { ...ORDER, updatedAt: '2026-01-01T00:00:00Z' }, 'updatedAt', 'readOnly'],
  ['writing the generated id', 'orders', { ...ORDER, id: 500 }, 'id', 'readOnly'],
  ['writing a relationship instead of its key', 'orders', { ...ORDER, customer: { id: 1 } }, 'customer', 'readOnly'],
  ['a text value with a NUL character', 'orders', { ...ORDER, note: 'a\u0000b' }, 'note', undefined],
  ['a bad date', 'customers', customer({ birthDate: '1990-02-30' }), 'birthDate', 'type'],
  ['a date in another format', 'customers', customer({ birthDate: '03/04/1990' }), 'birthDate', 'type'],
  ['a string for a boolean', 'customers', customer({ vip: 'true' }), 'vip', 'type'],
  ['a varchar value that is too long', 'customers', customer({ name: 'x'.repeat(101) }), 'name', 'maxLength'],
  ['a missing required varchar', 'customers', { email: 'nobody@example.com' }, 'name', 'required'],
];

describe.each(vendors)('create on $name', (target) => {
  let ws: TestWorkspace;
  beforeAll(async () => {
    ws = await startWorkspace(target);
  });
  afterAll(async () => ws?.close());

  const create = (entity: string, body: unknown, params = '') => ws.call('POST', ws.records(`/${entity}${params}`), { body });

  it('create answers 201 {data} including the generated id, and the row exists', async () => {
    const before = await rowCount(ws, 'orders');
    const res = await create('orders', ORDER);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(Object.keys(res.body)).toEqual(['data']);
    expect(typeof res.body.data.id).toBe('number');
    expect(res.body.data.id).toBeGreaterThan(45);
    expect(await rowCount(ws, 'orders')).toBe(before + 1);
    const rows = await ws.db.query(`SELECT customer_id, amount FROM ${ws.db.table('orders')} WHERE id = ${Number(res.body.data.id)}`);
    expect(rows).toHaveLength(1);
    expect(Number(rows[0]?.customer_id)).toBe(2);
    expect((await ws.call('GET', ws.records(`/orders/${res.body.data.id}`))).body.data).toEqual(res.body.data);
  });

  it('create answers with every field of the record', async () => {
    const res = await create('orders', ORDER);
    expect(Object.keys(res.body.data).sort()).toEqual(['amount', 'createdAt', 'customerId', 'id', 'note', 'orderedAt', 'productId', 'quantity', 'status', 'updatedAt']);
  });

  it('omitted nullable fields are null', async () => {
    const res = await create('orders', ORDER);
    expect(res.body.data).toMatchObject({ productId: null, note: null });
    const c = await create('customers', customer());
    expect(c.body.data).toMatchObject({ regionId: null, birthDate: null });
  });

  it('column defaults apply to omitted fields', async () => {
    const res = await create('orders', ORDER);
    expect(res.body.data).toMatchObject({ quantity: 1, status: 'new' });
    expect((await create('customers', customer())).body.data.vip).toBe(false);
  });

  it('timestamps are ISO 8601 UTC with milliseconds and Z; auto timestamps are set', async () => {
    const started = Date.now();
    const res = await create('orders', ORDER);
    const data = res.body.data;
    expect(data.orderedAt).toBe('2026-03-01T10:00:00.000Z');
    for (const key of ['createdAt', 'updatedAt']) {
      expect(data[key]).toMatch(ISO_UTC_MS);
      expect(Math.abs(new Date(data[key]).getTime() - started)).toBeLessThan(60_000);
    }
    const naive = await create('orders', { ...ORDER, orderedAt: '2026-03-01T12:00:00' });
    expect(naive.body.data.orderedAt).toBe('2026-03-01T12:00:00.000Z');
  });

  it('decimals are numbers, booleans are booleans, dates are YYYY-MM-DD', async () => {
    const c = await create('customers', customer({ vip: true, birthDate: '1990-04-03', regionId: 3 }));
    expect(c.status, JSON.stringify(c.body)).toBe(201);
    expect(c.body.data).toMatchObject({ vip: true, birthDate: '1990-04-03', regionId: 3 });
    const p = await create('products', { sku: 'PX-1', name: 'Pen', price: 10.05 });
    expect(p.body.data.price).toBe(10.05);
    const exact = await create('products', { sku: 'PX-2', name: 'Pad', price: '7.10' });
    expect(exact.body.data.price).toBe(7.1);
    const o = await create('orders', { ...ORDER, amount: 0.1 });
    expect(o.body.data.amount).toBe(0.1);
  });

  it('dates and timestamps of any four-digit year round-trip, years before 100 included', async () => {
    const c = await create('customers', customer({ birthDate: '0050-06-01' }));
    expect(c.status, JSON.stringify(c.body)).toBe(201);
    expect(c.body.data.birthDate).toBe('0050-06-01');
    const o = await create('orders', { ...ORDER, orderedAt: '0001-01-01T00:00:00Z' });
    expect(o.status, JSON.stringify(o.body)).toBe(201);
    expect(o.body.data.orderedAt).toBe('0001-01-01T00:00:00.000Z');
    const found = await ws.call('GET', ws.records('/customers?filter[birthDate.lt]=0100-01-01&fields=id'));
    expect(found.body.data).toEqual([{ id: c.body.data.id }]);
  });

  it('fields and expand shape the created record', async () => {
    const res = await create('orders', ORDER, '?expand=customer&fields=id,customer.name');
    expect(res.status).toBe(201);
    expect(Object.keys(res.body.data).sort()).toEqual(['customer', 'id']);
    expect(res.body.data.customer).toEqual({ name: 'Grace' });
  });

  it.each(INVALID)('%s is 400 VALIDATION_FAILED with a {field, rule, message} entry, and nothing is written', async (_label, entity, body, field, rule) => {
    const before = await rowCount(ws, entity);
    const res = await create(entity, body);
    expectValidation(res, field, rule);
    expect(await rowCount(ws, entity)).toBe(before);
  });

  it('every problem of a body is reported, one entry per field', async () => {
    const before = await rowCount(ws, 'orders');
    const res = await create('orders', { customerId: 'one', quantity: 'two', colour: 'red', createdAt: 'x' });
    expectValidation(res, 'customerId', 'type');
    const fields = (res.body.error.details as { field: string }[]).map((d) => d.field).sort();
    expect(fields).toEqual(expect.arrayContaining(['amount', 'colour', 'createdAt', 'customerId', 'orderedAt', 'quantity']));
    expect(await rowCount(ws, 'orders')).toBe(before);
  });

  it('malformed JSON is 400 BAD_REQUEST and nothing is written', async () => {
    const before = await rowCount(ws, 'orders');
    expectError(await ws.call('POST', ws.records('/orders'), { rawBody: '{"customerId": 1,' }), 400, 'BAD_REQUEST');
    expectError(await ws.call('POST', ws.records('/orders'), { rawBody: "{'a': 1}" }), 400, 'BAD_REQUEST');
    expect(await rowCount(ws, 'orders')).toBe(before);
  });

  it.each(['[]', 'null', '"text"', '42', ''])('a body that is not a JSON object (%j) is 400 BAD_REQUEST', async (raw) => {
    expectError(await ws.call('POST', ws.records('/orders'), { rawBody: raw }), 400, 'BAD_REQUEST');
  });

  it.each(['text/plain', 'application/x-www-form-urlencoded', 'text/csv'])('a %s body is 415 UNSUPPORTED_MEDIA_TYPE', async (type) => {
    const before = await rowCount(ws, 'orders');
    const res = await ws.call('POST', ws.records('/orders'), { rawBody: JSON.stringify(ORDER), headers: { 'content-type': type } });
    expectError(res, 415, 'UNSUPPORTED_MEDIA_TYPE');
    expect(await rowCount(ws, 'orders')).toBe(before);
  });

  it('a unique collision is 409 CONFLICT naming the field, and nothing is written', async () => {
    const before = await rowCount(ws, 'customers');
    const res = await create('customers', { name: 'Copy', email: 'user1@example.com' });
    expectError(res, 409, 'CONFLICT', 'email');
    expect(await rowCount(ws, 'customers')).toBe(before);
  });

  it('a foreign key that points nowhere is 422 REFERENCE_NOT_FOUND, and nothing is written', async () => {
    const before = await rowCount(ws, 'orders');
    expectError(await create('orders', { ...ORDER, customerId: 9999 }), 422, 'REFERENCE_NOT_FOUND');
    expectError(await create('orders', { ...ORDER, productId: 9999 }), 422, 'REFERENCE_NOT_FOUND');
    expect(await rowCount(ws, 'orders')).toBe(before);
  });

  it('a create on an unknown entity is 404', async () => {
    expectError(await create('invoices', { total: 1 }), 404, 'NOT_FOUND');
  });
});
