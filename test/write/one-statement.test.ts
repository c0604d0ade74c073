/**
 * A create and an update return the record through the default view in the same
 * statement as the write. Statements are counted where they leave the service: the workspace
 * driver's `query` and `transaction` are wrapped for the duration of one request.
 *
 * Expected counts per vendor (docs/writes-and-import.md, "One round trip per create and update"):
 * PostgreSQL/PGlite one statement always (a CTE over the write's RETURNING); MariaDB one for a
 * create whose read shape needs no other table (INSERT … RETURNING), two otherwise and for every
 * update (MariaDB's UPDATE has no RETURNING); SQL Server one batch.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, startWorkspace, type TestWorkspace } from '../support/harness.ts';
import { vendorsToRun } from '../support/vendors.ts';
import { counting } from '../support/statement-count.ts';
import { addRule, configureIdp, defaultViews } from '../support/auth.ts';
import { nowSeconds, TestIdp } from '../support/test-idp.ts';

const vendors = await vendorsToRun();

const ORDER = { customerId: 2, amount: 12.5, quantity: 3, orderedAt: '2026-03-01T12:00:00Z' };


/** Statements a write takes on `vendor`: [pglite/postgres, mariadb, mssql]. */
function expected(vendor: string, counts: { postgres: number; mariadb: number; mssql: number }): number {
  if (vendor === 'mariadb') return counts.mariadb;
  if (vendor === 'mssql') return counts.mssql;
  return counts.postgres;
}

describe.each(vendors)('one statement per create and update on $name', (target) => {
  let ws: TestWorkspace;
  let ordersView: string;
  beforeAll(async () => {
    ws = await startWorkspace(target);
    ordersView = (await defaultViews(ws)).orders?.uuid ?? '';
  });
  afterAll(async () => ws?.close());

  const create = (body: unknown, query = '') => counting(ws, () => ws.call('POST', ws.records(`/orders${query}`), { body }));
  const get = async (id: unknown, query = '') => (await ws.call('GET', ws.records(`/orders/${String(id)}${query}`))).body.data;

  it('creates with other column sets and read shapes in turn each answer what a get answers (statements are reused per shape)', async () => {
    const other = { customerId: 3, amount: 1, orderedAt: '2026-03-01T12:00:00Z' };
    const bodies = [ORDER, other, ORDER, { ...other, customerId: 4, status: 'paid', note: 'n' }, other];
    for (const [i, body] of bodies.entries()) {
      const query = i % 2 === 0 ? '' : '?fields=id,amount,customerId&expand=customer';
      const { res } = await create(body, query);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(res.body.data).toEqual(await get(res.body.data.id, query));
      for (const [field, value] of Object.entries(body)) if (i % 2 === 0 || ['amount', 'customerId'].includes(field)) expect(res.body.data[field]).toEqual(field === 'orderedAt' ? '2026-03-01T12:00:00.000Z' : value);
    }
  });

  it('a create issues one statement and answers what a get answers', async () => {
    const { res, statements, transactions } = await create(ORDER);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(statements, statements.join('\n')).toHaveLength(1);
    expect(transactions).toBe(0);
    expect(res.body.data).toEqual(await get(res.body.data.id));
  });

  it('an update issues one statement (MariaDB: the UPDATE and the read) and answers what a get answers', async () => {
    const id = (await create(ORDER)).res.body.data.id;
    const { res, statements, transactions } = await counting(ws, () => ws.call('PUT', ws.records(`/orders/${id}`), { body: { amount: 99.25, note: 'changed' } }));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ id, amount: 99.25, note: 'changed' });
    expect(statements, statements.join('\n')).toHaveLength(expected(target.name, { postgres: 1, mariadb: 2, mssql: 1 }));
    expect(transactions).toBe(0);
    expect(res.body.data).toEqual(await get(id));
  });

  it('an update of a missing record is 404 and changes nothing', async () => {
    const { res } = await counting(ws, () => ws.call('PUT', ws.records('/orders/987654'), { body: { amount: 1 } }));
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
  });

  it('an update whose filter hides the record is 404 and writes nothing, as before', async () => {
    const id = (await create(ORDER)).res.body.data.id;
    const res = await ws.call('PUT', ws.records(`/orders/${id}?filter[status.eq]=paid`), { body: { note: 'filtered' } });
    expect(res.status).toBe(404);
    expect((await get(id)).note).toBeNull();
  });

  it('an expansion and fields of the request shape the answer of the same statement', async () => {
    const { res, statements } = await create(ORDER, '?expand=customer&fields=id,amount,customer.name');
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data).toEqual({ id: res.body.data.id, amount: 12.5, customer: { name: expect.any(String) } });
    expect(res.body.data).toEqual(await get(res.body.data.id, '?expand=customer&fields=id,amount,customer.name'));
    // MariaDB's RETURNING reads the inserted row alone: a join takes the read-back statement.
    expect(statements, statements.join('\n')).toHaveLength(expected(target.name, { postgres: 1, mariadb: 2, mssql: 1 }));
  });

  it('computed columns of the default view come back from the same statement', async () => {
    const own = await ws.call('POST', '/api/columns', { token: ADMIN_TOKEN, body: { viewUuid: ordersView, displayName: 'Line Total', formula: 'amount * quantity' } });
    expect(own.status, JSON.stringify(own.body)).toBe(201);
    const created = await create(ORDER);
    expect(created.res.status, JSON.stringify(created.res.body)).toBe(201);
    expect(created.res.body.data.lineTotal).toBe(37.5);
    expect(created.statements, created.statements.join('\n')).toHaveLength(1);
    const updated = await counting(ws, () => ws.call('PUT', ws.records(`/orders/${created.res.body.data.id}`), { body: { quantity: 4 } }));
    expect(updated.res.body.data.lineTotal).toBe(50);
    expect(updated.res.body.data).toEqual(await get(created.res.body.data.id));

    const related = await ws.call('POST', '/api/columns', { token: ADMIN_TOKEN, body: { viewUuid: ordersView, displayName: 'Buyer', formula: 'customer.name' } });
    expect(related.status, JSON.stringify(related.body)).toBe(201);
    const joined = await create(ORDER);
    expect(joined.res.status, JSON.stringify(joined.res.body)).toBe(201);
    expect(joined.res.body.data.buyer).toEqual(expect.any(String));
    expect(joined.res.body.data).toEqual(await get(joined.res.body.data.id));
    expect(joined.statements, joined.statements.join('\n')).toHaveLength(expected(target.name, { postgres: 1, mariadb: 2, mssql: 1 }));
  });

  it('an expansion of the written table itself shows the row as written (PostgreSQL: not from the snapshot)', async () => {
    const staff = ws.db.table('staff');
    await ws.db.query(`CREATE TABLE ${staff} (id ${ws.db.sql.autoId}, name varchar(40) NOT NULL, manager_id integer, FOREIGN KEY (manager_id) REFERENCES ${staff}(id))`);
    expect((await ws.call('POST', ws.admin('/sync'), { token: ADMIN_TOKEN })).status).toBe(200);
    const boss = await ws.call('POST', ws.records('/staff'), { body: { name: 'Boss' } });
    expect(boss.status, JSON.stringify(boss.body)).toBe(201);
    const id = boss.body.data.id;
    await ws.db.query(`UPDATE ${staff} SET manager_id = ${ws.db.sql.param(1)} WHERE id = ${ws.db.sql.param(2)}`, [id, id]);
    const renamed = await counting(ws, () => ws.call('PUT', ws.records(`/staff/${id}?expand=manager`), { body: { name: 'Chief' } }));
    expect(renamed.res.status, JSON.stringify(renamed.res.body)).toBe(200);
    expect(renamed.res.body.data).toMatchObject({ id, name: 'Chief', manager: { id, name: 'Chief' } });
    expect(renamed.statements, renamed.statements.join('\n')).toHaveLength(expected(target.name, { postgres: 2, mariadb: 2, mssql: 1 }));
  });

  it('a unique, foreign key or NOT NULL violation is the same 4xx and writes nothing', async () => {
    const missingCustomer = await create({ ...ORDER, customerId: 999999 });
    expect(missingCustomer.res.status, JSON.stringify(missingCustomer.res.body)).toBe(422);
    const duplicate = await counting(ws, () => ws.call('POST', ws.records('/customers'), { body: { name: 'Dup', email: 'user1@example.com' } }));
    expect(duplicate.res.status, JSON.stringify(duplicate.res.body)).toBe(409);
  });
});

describe.each(vendors)('one statement per create under row-level security on $name', (target) => {
  let ws: TestWorkspace;
  let idp: TestIdp;
  let token: string;
  let issuer: string;
  beforeAll(async () => {
    [ws, idp] = await Promise.all([startWorkspace(target, { fixture: false }), TestIdp.start()]);
    await ws.db.query(`CREATE TABLE ${ws.db.table('notes')} (id ${ws.db.sql.autoId}, owner varchar(40) NOT NULL, body varchar(200))`);
    expect((await ws.call('POST', ws.admin('/sync'), { token: ADMIN_TOKEN })).status).toBe(200);
    issuer = idp.registerIssuer('/one-statement');
    await configureIdp(ws, { issuerUrl: issuer, defaultPermissions: 'READ_WRITE', enabled: true });
    await addRule(ws, (await defaultViews(ws)).notes?.uuid ?? '', { column: 'owner', claim: 'sub' });
    token = await idp.sign({ iss: issuer, sub: 'alice', exp: nowSeconds() + 3600, iat: nowSeconds() });
  });
  afterAll(async () => {
    await ws?.close();
    await idp?.close();
  });

  it('an external user\'s create and update each take the statements of an owner\'s', async () => {
    const created = await counting(ws, () => ws.call('POST', ws.records('/notes'), { token, body: { body: 'mine' } }));
    expect(created.res.status, JSON.stringify(created.res.body)).toBe(201);
    expect(created.res.body.data).toMatchObject({ owner: 'alice', body: 'mine' });
    expect(created.statements, created.statements.join('\n')).toHaveLength(1);
    const id = created.res.body.data.id;
    const updated = await counting(ws, () => ws.call('PUT', ws.records(`/notes/${id}`), { token, body: { body: 'changed' } }));
    expect(updated.res.status, JSON.stringify(updated.res.body)).toBe(200);
    expect(updated.res.body.data).toEqual({ id, owner: 'alice', body: 'changed' });
    expect(updated.statements, updated.statements.join('\n')).toHaveLength(expected(target.name, { postgres: 1, mariadb: 2, mssql: 1 }));
  });

  it('another user\'s record stays 404 on update, and a mismatching owner 403 on its own record', async () => {
    const bob = await idp.sign({ iss: issuer, sub: 'bob', exp: nowSeconds() + 3600, iat: nowSeconds() });
    const id = (await ws.call('POST', ws.records('/notes'), { token, body: { body: 'x' } })).body.data.id;
    const other = await ws.call('PUT', ws.records(`/notes/${id}`), { token: bob, body: { body: 'stolen' } });
    expect(other.status).toBe(404);
    const otherOwner = await ws.call('PUT', ws.records(`/notes/${id}`), { token: bob, body: { owner: 'bob' } });
    expect(otherOwner.status).toBe(404);
    const refused = await ws.call('PUT', ws.records(`/notes/${id}`), { token, body: { owner: 'bob' } });
    expect(refused.status).toBe(403);
    const rows = await ws.db.query(`SELECT owner, body FROM ${ws.db.table('notes')} WHERE id = ${ws.db.sql.param(1)}`, [id]);
    expect(rows[0]).toMatchObject({ owner: 'alice', body: 'x' });
  });
});
