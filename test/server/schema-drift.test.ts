/**
 * A schema changed under the service (a column dropped, a table renamed) before a sync: every read
 * and write of the entity answers 503 SCHEMA_OUT_OF_SYNC naming what is missing from the schema the
 * service holds, never the database's text; after the sync route it works again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorkspace, type ApiResponse, type TestWorkspace } from '../support/harness.ts';
import { expectError } from '../support/http-expect.ts';
import { vendorsToRun } from '../support/vendors.ts';
import { importFile } from '../support/import-calls.ts';

const vendors = await vendorsToRun();

interface Missing {
  readonly kind: 'column' | 'table';
  readonly name: string;
}

function expectOutOfSync(route: string, res: ApiResponse, entity: string, missing: Missing): void {
  expectError(res, 503, 'SCHEMA_OUT_OF_SYNC', entity, '/sync');
  expect(res.body.error.details, route).toEqual({ entity, missing });
  expect(res.body.error.message).not.toMatch(/does not exist|Unknown column|Invalid (column|object) name|t0|doesn't exist/i);
}

/** A body read as text: CSV and NDJSON exports answer JSON only when they fail before the first byte. */
async function raw(ws: TestWorkspace, path: string): Promise<ApiResponse> {
  const response = await fetch(`${ws.url}${path}`, { headers: { authorization: `Bearer ${ws.apiKey}` } });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: the test says what it got
  }
  return { status: response.status, headers: response.headers, body };
}

describe.each(vendors)('a schema changed behind the service on $name', (target) => {
  let ws: TestWorkspace;
  const viewOf = async (entity: string) => {
    const runtime = await ws.service.services.workspaces.bySlug(ws.org, ws.ws);
    const view = runtime.defaultViewRecord(entity);
    if (!view) throw new Error(`no default view for ${entity}`);
    return view;
  };
  const count = async (table: string) => Number((await ws.db.query(`SELECT COUNT(*) AS n FROM ${ws.db.table(table)}`))[0]?.n);

  beforeAll(async () => {
    ws = await startWorkspace(target);
  });
  afterAll(async () => ws?.close());

  /** Every route that reads or writes `entity`, with the body each needs. */
  async function everyRoute(entity: string, body: Record<string, unknown>, id: number): Promise<[string, () => Promise<ApiResponse>][]> {
    const view = await viewOf(entity);
    const csv = `${Object.keys(body).join(',')}\n${Object.values(body).join(',')}\n`;
    return [
      ['list', () => ws.call('GET', ws.records(`/${entity}`))],
      ['get', () => ws.call('GET', ws.records(`/${entity}/${id}`))],
      ['create', () => ws.call('POST', ws.records(`/${entity}`), { body })],
      ['update', () => ws.call('PUT', ws.records(`/${entity}/${id}`), { body })],
      ['aggregate', () => ws.call('GET', ws.records(`/${entity}/aggregate?metrics=count&groupBy=${Object.keys(body).at(-1)}`))],
      ['export csv', () => raw(ws, ws.records(`/${entity}?format=csv`))],
      ['export ndjson', () => raw(ws, ws.records(`/${entity}?format=ndjson`))],
      ['view data', () => ws.call('GET', `/api/data/${view.slug}`)],
      ['bulk', () => ws.call('POST', `/api/data/bulk/${view.uuid}/insert`, { body: { rows: [body] } })],
      ['import', async () => {
        const res = await importFile(ws, view.uuid, csv);
        const error = res.events.find((e) => e.event === 'error');
        if (res.status !== 200 || !error) return { status: res.status, headers: new Headers(), body: res.body ?? res.events };
        // The job's error event carries the same code; the route answered before the batch ran.
        return { status: 503, headers: new Headers(), body: { error: { code: error.code, message: error.message, details: error.details } } };
      }],
    ];
  }

  it('a dropped column: every route of the entity answers 503 naming the column, and nothing is written', async () => {
    const before = await count('orders');
    await ws.db.query(`ALTER TABLE ${ws.db.table('orders')} DROP COLUMN note`);
    const routes = await everyRoute('orders', { customerId: 1, amount: '5.00', orderedAt: '2024-01-01T00:00:00.000Z', note: 'x' }, 1);
    for (const [name, call] of routes) {
      const res = await call();
      expect(res.status, `${name}: ${JSON.stringify(res.body)}`).toBe(503);
      expectOutOfSync(name, res, 'orders', { kind: 'column', name: 'note' });
    }
    expect(await count('orders')).toBe(before);
  });

  it('after the sync route the entity works again without the column', async () => {
    expect((await ws.call('POST', ws.admin('/sync'))).status).toBe(200);
    const list = await ws.call('GET', ws.records('/orders?size=1'));
    expect(list.status, JSON.stringify(list.body)).toBe(200);
    expect(list.body.data[0]).not.toHaveProperty('note');
  });

  it('a renamed table: every route of the entity, delete included, answers 503 naming the table', async () => {
    await ws.db.query(`ALTER TABLE ${ws.db.table('products')} RENAME TO products_moved`);
    const routes = await everyRoute('products', { sku: 'NEW-1', name: 'New', price: '1.00' }, 1);
    routes.push(['delete', () => ws.call('DELETE', ws.records('/products/3'))]);
    for (const [name, call] of routes) {
      const res = await call();
      expect(res.status, `${name}: ${JSON.stringify(res.body)}`).toBe(503);
      expectOutOfSync(name, res, 'products', { kind: 'table', name: 'products' });
    }
  });

  it('after the sync route the renamed table is served under its new name', async () => {
    expect((await ws.call('POST', ws.admin('/sync'))).status).toBe(200);
    expect((await ws.call('GET', ws.records('/products'))).status).toBe(404);
    const moved = await ws.call('GET', ws.records('/productsMoved?size=1'));
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
  });
});
