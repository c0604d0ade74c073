/**
 * SQL Server for real, only when MSSQL_URL is set (e.g.
 * `mssql://sa:Passw0rd!@127.0.0.1:1433/master?trustServerCertificate=true`); reported as skipped
 * otherwise. A fresh database gets the shared fixture through test/support/mssql-target.ts's
 * DDL; the whole service answers HTTP requests on it, and every formula example runs on it and
 * is compared with the agreed value.
 */
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkFormula, emitFormula, parseFormula } from '../../../core/formula/index.ts';
import { ident, render, sql, type Sql } from '../../../core/sql.ts';
import { createMssqlDialect } from '../../../dialects/mssql/index.ts';
import { startService, type RunningService } from '../../../server/start.ts';
import { normalise } from '../../formula/db.ts';
import { examples, exampleRow } from '../../formula/examples.ts';
import { context, orders as formulaOrders, customers as formulaCustomers, regions as formulaRegions } from '../../support/formula-fixtures.ts';
import { ADMIN_TOKEN, fetchJson, type ApiResponse } from '../../support/harness.ts';
import { MSSQL_URL, provisionMssqlDatabase } from '../../support/mssql-target.ts';

const dialect = createMssqlDialect();

describe.skipIf(!MSSQL_URL)('SQL Server live: HTTP on the shared fixture', () => {
  let service: RunningService;
  let db: Awaited<ReturnType<typeof provisionMssqlDatabase>>;
  let apiKey = '';
  const call = (method: string, path: string, body?: unknown): Promise<ApiResponse> =>
    fetchJson(`${service.url}/api/v1/acme/shop${path}`, method, body === undefined ? {} : { body }, apiKey);

  beforeAll(async () => {
    service = await startService({ adminToken: ADMIN_TOKEN, logger: pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }), dialects: [dialect] });
    db = await provisionMssqlDatabase(true);
    const admin = (path: string, body: unknown) => fetchJson(`${service.url}${path}`, 'POST', { body }, ADMIN_TOKEN);
    expect((await admin('/api/admin/v1/orgs', { slug: 'acme', name: 'acme' })).status).toBe(201);
    const ws = await admin('/api/admin/v1/orgs/acme/workspaces', { slug: 'shop', name: 'shop', database: db.database });
    expect(ws.status, JSON.stringify(ws.body)).toBe(201);
    apiKey = String((await admin('/api/admin/v1/orgs/acme/workspaces/shop/api-keys', { name: 'test' })).body?.data?.key);
  }, 120_000);

  afterAll(async () => {
    await db?.drop();
    await service?.close();
  });

  it('lists and pages with wire values as on every vendor', async () => {
    const page = await call('GET', '/orders?page=1&size=7');
    expect(page.status).toBe(200);
    expect(page.body.data.map((o: { id: number }) => o.id)).toEqual([8, 9, 10, 11, 12, 13, 14]);
    const first = (await call('GET', '/orders/1')).body.data;
    expect(first).toMatchObject({ id: 1, customerId: 1, productId: 1, quantity: 1, amount: 0, status: 'new', note: null, orderedAt: '2026-01-10T00:30:00.000Z' });
  });

  it('expands, filters and sorts with NULLs last ascending', async () => {
    const one = await call('GET', '/orders/1?expand=customer,customer.region');
    expect(one.body.data.customer).toMatchObject({ id: 1, name: 'Ada', vip: true, region: { id: 1, name: 'North' } });
    const sorted = await call('GET', '/customers?sort=birthDate,asc&size=100');
    const dates = sorted.body.data.map((c: { birthDate: string | null }) => c.birthDate);
    expect(dates.slice(-3)).toEqual([null, null, null]);
    const ilike = await call('GET', '/regions?filter[name.ilike]=%25ΩMEGA%25');
    expect(ilike.body.data.map((r: { name: string }) => r.name)).toEqual(['Ωmega 東京']);
    const contains = await call('GET', '/customers?filter[name.contains]=%25_&size=100');
    expect(contains.body.data.map((c: { name: string }) => c.name)).toEqual(['100%_done']);
  });

  it('creates, updates and deletes; refuses duplicates and dangling references', async () => {
    const created = await call('POST', '/customers', { name: 'Émile 🚀', email: 'emile@example.com', regionId: 3, vip: true, birthDate: '1990-12-31' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.data).toMatchObject({ name: 'Émile 🚀', vip: true, birthDate: '1990-12-31' });
    const id = created.body.data.id as number;
    expect((await call('PUT', `/customers/${id}`, { vip: false })).body.data.vip).toBe(false);
    expect((await call('POST', '/customers', { name: 'Dup', email: 'user1@example.com' })).status).toBe(409);
    expect((await call('POST', '/orders', { customerId: 999, amount: 1, orderedAt: '2026-01-01T00:00:00Z' })).status).toBe(422);
    expect((await call('DELETE', '/customers/1')).status).toBe(409);
    expect((await call('DELETE', `/customers/${id}`)).status).toBe(204);
  });

  it('bulk upserts with MERGE in each mode', async () => {
    const views = await fetchJson(`${service.url}/api/admin/v1/orgs/acme/workspaces/shop/views`, 'GET', {}, ADMIN_TOKEN);
    const view = (views.body.data as { uuid: string; entity: string; isDefault: boolean }[]).find((v) => v.entity === 'products' && v.isDefault);
    const bulk = (body: unknown) => fetchJson(`${service.url}/api/data/bulk/${view?.uuid}/insert`, 'POST', { body }, apiKey);
    const ignored = await bulk({ rows: [{ sku: 'KB-01', name: 'Keyboard 2', price: 59.9 }, { sku: 'NEW-4', name: 'Four', price: 4 }], onConflict: 'IGNORE', conflictColumns: ['sku'] });
    expect(ignored.body.data).toMatchObject({ successCount: 1, skippedCount: 1 });
    expect((await call('GET', '/products/1')).body.data.name).toBe('Keyboard');
    const updated = await bulk({ rows: [{ sku: 'KB-01', name: 'Keyboard 3', price: '1.10' }, { sku: 'NEW-5', name: 'Five', price: 5 }], onConflict: 'UPDATE', conflictColumns: ['sku'] });
    expect(updated.body.data).toMatchObject({ successCount: 2 });
    expect((await call('GET', '/products/1')).body.data).toMatchObject({ name: 'Keyboard 3', price: 1.1 });
  });
});

describe.skipIf(!MSSQL_URL)('SQL Server live: formula examples', () => {
  let db: Awaited<ReturnType<typeof provisionMssqlDatabase>>;
  const aliases = ['o', 'c', 'r'];
  const byDepth = [formulaOrders, formulaCustomers, formulaRegions];
  const columnRef = (path: readonly string[]): Sql => {
    const field = byDepth[path.length - 1]?.fields.find((f) => f.name === path[path.length - 1]);
    return ident(aliases[path.length - 1] ?? 'x', field?.column ?? '?');
  };
  // SQL Server native types for the formula fixture's fields (test/support/formula-fixtures.ts names PostgreSQL's).
  const nativeTypes: Record<string, string> = {
    amount: 'float', qty: 'int', price: 'decimal(18,6)', note: 'nvarchar(max)', code: 'varchar(20)', paid: 'bit', order_date: 'date',
    created_at: 'datetime2(3)', shipped_at: 'datetimeoffset(3)', customer_id: 'int', token: 'uniqueidentifier', blob: 'varbinary(max)',
  };

  beforeAll(async () => {
    db = await provisionMssqlDatabase(false);
    await db.query('CREATE TABLE regions (id int PRIMARY KEY, name nvarchar(100))');
    await db.query('CREATE TABLE customers (id int PRIMARY KEY, name nvarchar(100), region_id int, vip bit)');
    await db.query(`CREATE TABLE orders (id int PRIMARY KEY, ${Object.entries(nativeTypes).map(([c, t]) => `${c} ${t}`).join(', ')})`);
    const r = exampleRow;
    await db.query('INSERT INTO regions VALUES (1, @p1)', [r['customer.region.name']]);
    await db.query('INSERT INTO customers VALUES (1, @p1, 1, @p2)', [r['customer.name'], r['customer.vip']]);
    await db.query(
      'INSERT INTO orders (id, amount, qty, price, note, code, paid, order_date, created_at, shipped_at, customer_id, token) VALUES (1, @p1, @p2, @p3, @p4, @p5, @p6, @p7, CAST(@p8 AS datetime2(3)), CAST(@p9 AS datetimeoffset(3)), 1, @p10)',
      [r.amount, r.qty, r.price, r.note, r.code, r.paid === true ? 1 : 0, r.orderDate, String(r.createdAt).replace('Z', ''), r.shippedAt, r.token],
    );
  }, 120_000);

  afterAll(async () => {
    await db?.drop();
  });

  const mssqlModel = () => {
    const retype = <T extends { fields: readonly { column: string; nativeType: string }[] }>(e: T): T => ({
      ...e,
      fields: e.fields.map((f) => ({ ...f, nativeType: nativeTypes[f.column] ?? (f.column.endsWith('id') ? 'int' : f.column === 'vip' ? 'bit' : 'nvarchar(100)') })),
    });
    const entities = [retype(formulaOrders), retype(formulaCustomers), retype(formulaRegions)].map((e) => ({ ...e, fieldsByName: new Map(e.fields.map((f) => [f.name, f])) }));
    return { entity: entities[0] ?? formulaOrders, model: { ...context.model, entities: new Map(entities.map((e) => [e.name, e])) } };
  };

  it.each(examples)('%s = %j', async (text, expected) => {
    const checked = checkFormula(parseFormula(text), mssqlModel());
    const expr = emitFormula(checked, { dialect: dialect.formula, columnRef });
    const query = render(sql`SELECT ${expr} AS [v] FROM [orders] [o] LEFT JOIN [customers] [c] ON [c].[id] = [o].[customer_id] LEFT JOIN [regions] [r] ON [r].[id] = [c].[region_id]`, dialect.sql);
    const rows = await db.query(query.text, [...query.params]);
    const value = rows[0]?.v;
    const wire = value instanceof Date ? (checked.type === 'date' ? value.toISOString().slice(0, 10) : value.toISOString()) : value;
    expect(normalise(wire, checked.type)).toEqual(expected);
  });
});

describe.skipIf(!MSSQL_URL)('SQL Server live: a statement whose client goes away', () => {
  it('is cancelled on the server (attention) and its promise rejects at once', async () => {
    const db = await provisionMssqlDatabase(false);
    const driver = await dialect.connect(db.database as unknown as Parameters<typeof dialect.connect>[0]);
    try {
      const gone = new AbortController();
      const started = Date.now();
      const running = driver.query({ text: "WAITFOR DELAY '00:00:20'", params: [] }, { signal: gone.signal });
      setTimeout(() => gone.abort(), 300);
      await expect(running).rejects.toBeTruthy();
      // A hang detector, not a timing assertion: without the cancel it would wait the whole 20 s.
      expect(Date.now() - started).toBeLessThan(15_000);
      expect((await driver.query({ text: 'SELECT 1 AS ok', params: [] })).rows).toEqual([{ ok: 1 }]);
    } finally {
      await driver.close();
      await db.drop();
    }
  }, 60_000);
});
