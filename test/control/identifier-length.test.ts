/**
 * A physical column whose name is longer than the vendor keeps is refused with
 * 400 before any DDL (PostgreSQL would truncate it silently and the re-sync would not find it).
 * Column names made by the API are ASCII (core/schema/names.ts), so bytes and characters agree here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, startWorkspace, type TestWorkspace } from '../support/harness.ts';
import { vendorsToRun } from '../support/vendors.ts';

const vendors = await vendorsToRun();

/** Longest column name each vendor keeps whole (PostgreSQL 63 bytes, MySQL/MariaDB 64, SQL Server 128 characters). */
const LIMIT: Record<string, number> = { pglite: 63, postgres: 63, mariadb: 64, mssql: 128 };

describe.each(vendors)('identifier length of physical columns on $name', (target) => {
  let ws: TestWorkspace;
  let viewUuid: string;
  const limit = LIMIT[target.name] ?? 63;

  async function tableColumns(): Promise<string[]> {
    const rows = await ws.db.query(`SELECT * FROM ${ws.db.table('customers')} WHERE id = 1`);
    return Object.keys(rows[0] ?? {}).sort();
  }

  beforeAll(async () => {
    ws = await startWorkspace(target);
    const views = (await ws.call('GET', ws.admin('/views'), { token: ADMIN_TOKEN })).body.data;
    viewUuid = views.find((v: { entity: string; isDefault: boolean }) => v.entity === 'customers' && v.isDefault).uuid;
  });
  afterAll(async () => ws?.close());

  it('a fieldName one over the limit is 400 VALIDATION_FAILED naming fieldName, and the table is unchanged', async () => {
    const before = await tableColumns();
    const res = await ws.call('POST', '/api/columns', { body: { viewUuid, displayName: 'Long', fieldName: 'a'.repeat(limit + 1), widgetType: 'INTEGER' } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_FAILED');
    expect(res.body.error.details).toEqual([expect.objectContaining({ field: 'fieldName', rule: 'maxLength' })]);
    expect(res.body.error.message).toContain(String(limit));
    expect(await tableColumns()).toEqual(before);
    // The entity is not left writes-blocked.
    expect((await ws.call('PUT', ws.records('/customers/1'), { body: { name: 'Still Writable' } })).status).toBe(200);
  });

  it('a displayName whose column name is over the limit is 400 naming displayName', async () => {
    const before = await tableColumns();
    const res = await ws.call('POST', '/api/columns', { body: { viewUuid, displayName: 'b'.repeat(limit + 10), widgetType: 'STRING' } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_FAILED');
    expect(res.body.error.details).toEqual([expect.objectContaining({ field: 'displayName', rule: 'maxLength' })]);
    expect(await tableColumns()).toEqual(before);
  });

  it('a name exactly at the limit is created and reads back', async () => {
    const column = 'c'.repeat(limit);
    const res = await ws.call('POST', '/api/columns', { body: { viewUuid, displayName: 'At Limit', fieldName: column, widgetType: 'INTEGER' } });
    expect(res.status).toBe(201);
    expect(res.body.data.fieldName).toBe(column);
    expect(await tableColumns()).toContain(column);
    const write = await ws.call('PUT', ws.records('/customers/1'), { body: { [column]: 5 } });
    expect(write.status).toBe(200);
    expect(write.body.data[column]).toBe(5);
  });
});
