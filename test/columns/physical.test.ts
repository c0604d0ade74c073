import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, startWorkspace, type TestWorkspace } from '../support/harness.ts';
import { vendorsToRun } from '../support/vendors.ts';

const vendors = await vendorsToRun();

describe.each(vendors)('physical view columns on $name', (target) => {
  let ws: TestWorkspace;
  let viewUuid: string;

  async function tableColumns(): Promise<string[]> {
    const rows = await ws.db.query(`SELECT * FROM ${ws.db.table('customers')} LIMIT 1`);
    return Object.keys(rows[0] ?? {});
  }

  beforeAll(async () => {
    ws = await startWorkspace(target);
    const views = (await ws.call('GET', ws.admin('/views'), { token: ADMIN_TOKEN })).body.data;
    viewUuid = views.find((v: { entity: string; isDefault: boolean }) => v.entity === 'customers' && v.isDefault).uuid;
  });
  afterAll(async () => ws?.close());

  it('a column without a formula is created in the database by DDL, typed from widgetType, nullable', async () => {
    const res = await ws.call('POST', '/api/columns', { body: { viewUuid, displayName: 'Loyalty Points', widgetType: 'INTEGER' } });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ kind: 'FIELD', fieldName: 'loyaltyPoints', displayName: 'Loyalty Points', widgetType: 'INTEGER' });
    expect(await tableColumns()).toContain('loyalty_points');
    const read = await ws.call('GET', ws.records('/customers/1'));
    expect(read.body.data.loyaltyPoints).toBeNull();
    const write = await ws.call('PUT', ws.records('/customers/1'), { body: { loyaltyPoints: 12 } });
    expect(write.status).toBe(200);
    expect(write.body.data.loyaltyPoints).toBe(12);
    expect((await ws.call('PUT', ws.records('/customers/1'), { body: { loyaltyPoints: 'many' } })).status).toBe(400);
  });

  it('the migration flag is cleared once the DDL is done', async () => {
    const schema = await ws.call('GET', ws.admin('/schema'), { token: ADMIN_TOKEN });
    const customers = schema.body.data.entities.find((e: { name: string }) => e.name === 'customers');
    expect(customers.fields.some((f: { name: string }) => f.name === 'loyaltyPoints')).toBe(true);
    expect((await ws.call('POST', ws.records('/customers'), { body: { name: 'After DDL', email: 'after@example.com' } })).status).toBe(201);
  });

  it('dropping a column a computed formula uses is 409 and drops nothing', async () => {
    const computed = await ws.call('POST', '/api/columns', { body: { viewUuid, displayName: 'Double Points', formula: 'loyaltyPoints * 2' } });
    expect(computed.status).toBe(201);
    const columns = (await ws.call('GET', `/api/views/${viewUuid}/columns`)).body.data;
    const points = columns.find((c: { fieldName: string }) => c.fieldName === 'loyaltyPoints');
    const refused = await ws.call('DELETE', `/api/columns/item/${points.uuid}`);
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toContain('doublePoints');
    expect(await tableColumns()).toContain('loyalty_points');
    expect((await ws.call('DELETE', `/api/columns/item/${computed.body.data.uuid}`)).status).toBe(204);
    expect((await ws.call('DELETE', `/api/columns/item/${points.uuid}`)).status).toBe(204);
    expect(await tableColumns()).not.toContain('loyalty_points');
    expect((await ws.call('GET', ws.records('/customers/1'))).body.data).not.toHaveProperty('loyaltyPoints');
  });

  it('a DDL the database refuses leaves the schema unchanged and the flag cleared', async () => {
    const created = await ws.call('POST', '/api/columns', { body: { viewUuid, displayName: 'Ref Code', widgetType: 'INTEGER' } });
    expect(created.status).toBe(201);
    // A column that another table's foreign key points at cannot be dropped, on every vendor.
    const holders = ws.db.table('ref_holders');
    await ws.db.query(`CREATE UNIQUE INDEX uq_ref_code ON ${ws.db.table('customers')} (ref_code)`);
    await ws.db.query(`CREATE TABLE ${holders} (id integer PRIMARY KEY, code integer, FOREIGN KEY (code) REFERENCES ${ws.db.table('customers')} (ref_code))`);
    const refused = await ws.call('DELETE', `/api/columns/item/${created.body.data.uuid}`);
    expect(refused.status).toBe(409);
    expect(JSON.stringify(refused.body)).not.toMatch(/ref_holders|DROP|depend|constraint/i);
    expect(await tableColumns()).toContain('ref_code');
    expect((await ws.call('PUT', ws.records('/customers/2'), { body: { refCode: 7 } })).status).toBe(200);
    await ws.db.query(`DROP TABLE ${holders}`);
  });

  it('an unknown widget type for a physical column is 400 and runs no DDL', async () => {
    const before = await tableColumns();
    const res = await ws.call('POST', '/api/columns', { body: { viewUuid, displayName: 'Odd', widgetType: 'RAINBOW' } });
    expect(res.status).toBe(400);
    expect(await tableColumns()).toEqual(before);
  });
});
