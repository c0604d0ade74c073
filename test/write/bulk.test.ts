import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, startWorkspace, type TestWorkspace } from '../support/harness.ts';
import { vendorsToRun } from '../support/vendors.ts';

const vendors = await vendorsToRun();

async function viewUuidOf(ws: TestWorkspace, entity: string): Promise<string> {
  const res = await ws.call('GET', ws.admin('/views'), { token: ADMIN_TOKEN });
  const view = res.body.data.find((v: { entity: string; isDefault: boolean }) => v.entity === entity && v.isDefault);
  return view.uuid;
}

async function count(ws: TestWorkspace, table: string, where = 'TRUE'): Promise<number> {
  const rows = await ws.db.query(`SELECT COUNT(*) AS n FROM ${ws.db.table(table)} WHERE ${where}`);
  return Number(rows[0]?.n);
}

describe.each(vendors)('bulk insert on $name', (target) => {
  let ws: TestWorkspace;
  let regions: string;
  let customers: string;
  const bulk = (uuid: string, body: unknown) => ws.call('POST', `/api/data/bulk/${uuid}/insert`, { body });

  beforeAll(async () => {
    ws = await startWorkspace(target);
    regions = await viewUuidOf(ws, 'regions');
    customers = await viewUuidOf(ws, 'customers');
  });
  afterAll(async () => ws?.close());

  it('inserts valid rows and reports invalid ones by 0-based row index', async () => {
    const res = await bulk(regions, { rows: [{ name: 'Bulk A' }, { name: 42 }, { name: 'Bulk B' }, { nope: 1, name: 'x' }] });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ viewUuid: regions, totalCount: 4, successCount: 2, failureCount: 2, skippedCount: 0 });
    expect(res.body.data.errors.map((e: { row: number }) => e.row)).toEqual([1, 3]);
    expect(await count(ws, 'regions', "name IN ('Bulk A', 'Bulk B')")).toBe(2);
  });

  it('ERROR mode: a collision refuses the whole batch with 409 and writes nothing', async () => {
    const before = await count(ws, 'regions');
    const res = await bulk(regions, { rows: [{ name: 'Fresh 1' }, { name: 'North' }], conflictColumns: ['name'] });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('CONFLICT');
    expect(res.body.result).toMatchObject({ totalCount: 2, successCount: 0 });
    expect(await count(ws, 'regions')).toBe(before);
  });

  it('IGNORE mode keeps the stored row and counts the incoming one as skipped', async () => {
    const res = await bulk(regions, { rows: [{ name: 'North' }, { name: 'Ignored new' }], conflictColumns: ['name'], onConflict: 'IGNORE' });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ successCount: 1, skippedCount: 1, failureCount: 0 });
  });

  it('UPDATE mode overwrites other columns and never the match columns', async () => {
    const res = await bulk(customers, {
      rows: [{ email: 'user1@example.com', name: 'Ada Updated' }, { email: 'new@example.com', name: 'New Person' }],
      conflictColumns: ['email'],
      onConflict: 'UPDATE',
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ successCount: 2, skippedCount: 0, failureCount: 0 });
    const rows = await ws.db.query(`SELECT name FROM ${ws.db.table('customers')} WHERE email = 'user1@example.com'`);
    expect(rows[0]?.name).toBe('Ada Updated');
  });

  it('rows sharing a conflict key: the last wins, the others are skipped', async () => {
    const res = await bulk(customers, {
      rows: [{ email: 'dup@example.com', name: 'first' }, { email: 'dup@example.com', name: 'last' }],
      conflictColumns: ['email'],
      onConflict: 'UPDATE',
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ successCount: 1, skippedCount: 1 });
    const rows = await ws.db.query(`SELECT name FROM ${ws.db.table('customers')} WHERE email = 'dup@example.com'`);
    expect(rows.map((r) => r.name)).toEqual(['last']);
  });

  it('conflictColumns matching no unique key is 400 naming the usable sets, nothing written', async () => {
    const before = await count(ws, 'customers');
    const res = await bulk(customers, { rows: [{ email: 'z@example.com', name: 'z' }], conflictColumns: ['name'], onConflict: 'UPDATE' });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain('[email]');
    expect(await count(ws, 'customers')).toBe(before);
  });

  it('rows missing, empty or above 1000 are 400', async () => {
    expect((await bulk(regions, {})).status).toBe(400);
    expect((await bulk(regions, { rows: [] })).status).toBe(400);
    expect((await bulk(regions, { rows: Array.from({ length: 1001 }, (_, i) => ({ name: `r${i}` })) })).status).toBe(400);
  });

  it('a read-only field in a row refuses the request', async () => {
    const res = await bulk(customers, { rows: [{ email: 'ro@example.com', name: 'ro', createdAt: '2026-01-01T00:00:00Z' }] });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_FAILED');
  });

  it('a dangling foreign key refuses the batch with 422', async () => {
    const res = await bulk(customers, { rows: [{ email: 'fk@example.com', name: 'fk', regionId: 999 }] });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('REFERENCE_NOT_FOUND');
    expect(await count(ws, 'customers', "email = 'fk@example.com'")).toBe(0);
  });
});
