/**
 * Streaming export (DESIGN §14 "Export" and "§13–14 exact answers"): format and Accept, paging
 * refused, NDJSON equal to all list pages, CSV bytes (CRLF, quoting, null versus ""), flat
 * many-to-one columns, one-to-many arrays, display headers, view data, file names.
 */
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, startWorkspace, type TestWorkspace } from '../support/harness.ts';
import { expectError } from '../support/http-expect.ts';
import { vendorsToRun } from '../support/vendors.ts';

const vendors = await vendorsToRun();

interface Raw {
  status: number;
  headers: Headers;
  text: string;
}

async function raw(ws: TestWorkspace, path: string, headers: Record<string, string> = {}): Promise<Raw> {
  const response = await fetch(`${ws.url}${path}`, { headers: { authorization: `Bearer ${ws.apiKey}`, ...headers } });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

function ndjson(text: string): any[] {
  return text.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l));
}

/** CSV rows with null for an empty unquoted cell and '' for a quoted empty one. */
function csvCells(text: string): (string | null)[][] {
  return parse(text, { cast: (value, context) => (value === '' && !context.quoting ? null : value) }) as (string | null)[][];
}

/** A list value as DESIGN §14 says its CSV cell reads. */
function cellText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

function asError(res: Raw) {
  return { status: res.status, headers: res.headers, body: JSON.parse(res.text) };
}

describe.each(vendors)('export on $name', (target) => {
  let ws: TestWorkspace;

  beforeAll(async () => {
    ws = await startWorkspace(target);
  });
  afterAll(async () => ws?.close());

  async function allPages(query: string): Promise<unknown[]> {
    const out: unknown[] = [];
    for (let page = 0; ; page++) {
      const res = await ws.call('GET', ws.records(`/orders?${query}&size=7&page=${page}`));
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      out.push(...res.body.data);
      if (res.body.data.length < 7) return out;
    }
  }

  it('NDJSON lines equal the concatenation of every list page (filter, where, sort, fields, many-to-one expand)', async () => {
    const query = "expand=customer.region,product&sort=amount,desc&filter[quantity.gte]=2&where=status <> 'new'&fields=id,amount,note,customer.name,customer.region.name,product.sku";
    const q = query.replace(/ /g, '%20').replace(/'/g, '%27');
    const res = await raw(ws, ws.records(`/orders?${q}&format=ndjson`));
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="orders.ndjson"');
    const lines = ndjson(res.text);
    expect(lines.length).toBeGreaterThan(7);
    expect(lines).toEqual(await allPages(q));
    expect(res.text.endsWith('\n')).toBe(true);
  });

  it('Accept headers choose the format; Accept: application/json stays the paged list', async () => {
    const csv = await raw(ws, ws.records('/regions?sort=id'), { accept: 'text/csv' });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(csv.text).toBe('id,name\r\n1,North\r\n2,South\r\n3,Ωmega 東京\r\n');
    const lines = await raw(ws, ws.records('/regions?sort=id'), { accept: 'application/x-ndjson' });
    expect(ndjson(lines.text)).toEqual([{ id: 1, name: 'North' }, { id: 2, name: 'South' }, { id: 3, name: 'Ωmega 東京' }]);
    const json = await raw(ws, ws.records('/regions?sort=id&size=2'), { accept: 'application/json' });
    expect(JSON.parse(json.text).data).toHaveLength(2);
  });

  it.each([['page=0'], ['size=5'], ['paging=cursor'], ['after=abc']])('%s is 400 on an export, by format or by Accept', async (param) => {
    expectError(asError(await raw(ws, ws.records(`/orders?format=csv&${param}`))), 400, 'BAD_REQUEST', param.split('=')[0] ?? '');
    expectError(asError(await raw(ws, ws.records(`/orders?format=ndjson&${param}`))), 400, 'BAD_REQUEST');
    expectError(asError(await raw(ws, ws.records(`/orders?${param}`), { accept: 'text/csv' })), 400, 'BAD_REQUEST');
  });

  it('a bad format is 400; header=display on NDJSON is 400', async () => {
    expectError(asError(await raw(ws, ws.records('/orders?format=xml'))), 400, 'BAD_REQUEST', 'format');
    expectError(asError(await raw(ws, ws.records('/orders?format=ndjson&header=display'))), 400, 'BAD_REQUEST', 'header');
  });

  it('CSV bytes: CRLF row ends, RFC 4180 quoting, null as an empty cell, "" quoted, formulas as they are, nested many-to-one columns', async () => {
    const created = await ws.call('POST', ws.records('/orders'), {
      body: { customerId: 1, amount: 12.5, orderedAt: '2026-11-22T10:00:00Z', status: 'new', note: 'a,"b"\nc =1+2' },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const formula = await ws.call('POST', ws.records('/orders'), { body: { customerId: 4, amount: 1, orderedAt: '2026-11-22T10:00:00.5Z', note: '=1+2' } });
    const ids = [1, 2, created.body.data.id, formula.body.data.id];
    const res = await raw(ws, ws.records(`/orders?format=csv&filter[id.in]=${ids.join(',')}&sort=id&expand=customer.region&fields=id,amount,note,orderedAt,customer.vip,customer.region.name`));
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="orders.csv"');
    const o1 = (await ws.call('GET', ws.records('/orders/1'))).body.data;
    const o2 = (await ws.call('GET', ws.records('/orders/2'))).body.data;
    expect(res.text).toBe(
      'id,amount,note,orderedAt,customer.vip,customer.region.name\r\n' +
        `1,${o1.amount},,${o1.orderedAt},true,North\r\n` +
        `2,${o2.amount},"",${o2.orderedAt},false,South\r\n` +
        `${ids[2]},12.5,"a,""b""\nc =1+2",2026-11-22T10:00:00.000Z,true,North\r\n` +
        `${ids[3]},1,=1+2,2026-11-22T10:00:00.500Z,true,\r\n`,
    );
  });

  it('CSV cells are the list values as text and NDJSON lines the list records: every column type, timestamps with microseconds, early years, leap days, month ends', async () => {
    const table = ws.db.table('cellkinds');
    const maria = ws.vendor === 'mariadb';
    const [instant, local, bool, float] = maria ? ['datetime(6)', 'datetime(6)', 'tinyint(1)', 'double'] : ['timestamptz', 'timestamp', 'boolean', 'double precision'];
    await ws.db.query(`CREATE TABLE ${table} (id integer PRIMARY KEY, label varchar(20) NULL, n integer NULL, big bigint NULL, price decimal(12,3) NULL,
      ratio ${float} NULL, flag ${bool} NULL, day date NULL, seen ${instant} NULL, local ${local} NULL)`);
    const zone = maria ? '' : '+00';
    const instants = ['2024-02-29 23:59:59.999999', '2021-04-30 12:00:00', '9999-12-31 23:59:59.123', '1970-01-01 00:00:00.000001', maria ? '1000-01-01 00:00:00.5' : '0099-12-31 00:00:00.5'];
    const rows = instants.map((t, i) => `(${i + 1}, 'l${i}', ${i * 1000 - 1}, ${9007199254740993 + i}, ${i}.${i}50, ${i / 3}, ${i % 2 === 0 ? 'true' : 'false'}, '20${10 + i}-12-31', '${t}${zone}', '${t}')`);
    rows.push(`(${rows.length + 1}, '', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)`);
    if (!maria) rows.push(`(${rows.length + 1}, NULL, 0, -9007199254740993, -0.001, -1e300, NULL, '0001-01-01', 'infinity', '-infinity')`);
    await ws.db.query(`INSERT INTO ${table} (id, label, n, big, price, ratio, flag, day, seen, local) VALUES ${rows.join(', ')}`);
    expect((await ws.call('POST', ws.admin('/sync'), { token: ADMIN_TOKEN })).status).toBe(200);
    const list = await ws.call('GET', ws.records('/cellkinds?sort=id&size=100'));
    expect(list.status, JSON.stringify(list.body)).toBe(200);
    const res = await raw(ws, ws.records('/cellkinds?format=csv&sort=id'));
    expect(res.status, res.text).toBe(200);
    const [header, ...cells] = csvCells(res.text);
    const keys = (header ?? []) as string[];
    expect(keys).toEqual(Object.keys(list.body.data[0]));
    expect(cells).toEqual(list.body.data.map((record: Record<string, unknown>) => keys.map((k) => cellText(record[k]))));
    expect(ndjson((await raw(ws, ws.records('/cellkinds?format=ndjson&sort=id'))).text)).toEqual(list.body.data);
  });

  it('one-to-many arrays are 400 in CSV and nested in NDJSON with their limits', async () => {
    expectError(asError(await raw(ws, ws.records('/customers?format=csv&expand=orders'))), 400, 'BAD_REQUEST', 'orders');
    const res = await raw(ws, ws.records('/customers?format=ndjson&expand=orders&expandSize[orders]=2&fields=id,orders.id&sort=id'));
    expect(res.status, res.text).toBe(200);
    const lines = ndjson(res.text);
    const list = await ws.call('GET', ws.records('/customers?expand=orders&expandSize[orders]=2&fields=id,orders.id&sort=id&size=100'));
    expect(lines).toEqual(list.body.data);
    expect(lines.every((c) => Array.isArray(c.orders) && c.orders.length <= 2)).toBe(true);
  });

  it('header=display uses the view columns\' display names', async () => {
    const views = await ws.call('GET', ws.admin('/views'), { token: ADMIN_TOKEN });
    const view = views.body.data.find((v: any) => v.entity === 'customers' && v.isDefault);
    const columns = (await ws.call('GET', `/api/views/${view.uuid}/columns`, { token: ADMIN_TOKEN })).body.data;
    const display = (field: string): string => columns.find((c: any) => c.fieldName === field).displayName;
    const res = await raw(ws, ws.records('/customers?format=csv&header=display&fields=id,birthDate&sort=id&filter[id.eq]=1'));
    expect(res.text.split('\r\n')[0]).toBe(`${display('id')},${display('birthDate')}`);
  });

  it('view data exports under the entity name, computed columns included', async () => {
    const views = await ws.call('GET', ws.admin('/views'), { token: ADMIN_TOKEN });
    const view = views.body.data.find((v: any) => v.entity === 'regions' && v.isDefault);
    const res = await raw(ws, `/api/data/${view.slug}?format=csv&sort=id`);
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="regions.csv"');
    const list = await ws.call('GET', `/api/data/${view.slug}?sort=id`);
    const lines = ndjson((await raw(ws, `/api/data/${view.slug}?sort=id`, { accept: 'application/x-ndjson' })).text);
    expect(lines).toEqual(list.body.data);
  });

  it('several batches: 2,500 rows sorted by nullable, repeating keys read exactly like the list pages', async () => {
    const table = ws.db.table('manyrows');
    // A single-precision column: a driver stream must hand over the same numbers as the list.
    const single = ws.vendor === 'mariadb' ? 'float' : 'real';
    await ws.db.query(`CREATE TABLE ${table} (id integer PRIMARY KEY, grp integer NULL, label varchar(20) NULL, ratio ${single} NULL)`);
    const values = Array.from({ length: 2500 }, (_, i) => `(${i + 1}, ${i % 7 === 0 ? 'NULL' : i % 13}, ${i % 5 === 0 ? 'NULL' : `'l${i % 11}'`}, ${i / 7})`);
    for (let i = 0; i < values.length; i += 500) await ws.db.query(`INSERT INTO ${table} (id, grp, label, ratio) VALUES ${values.slice(i, i + 500).join(', ')}`);
    expect((await ws.call('POST', ws.admin('/sync'), { token: ADMIN_TOKEN })).status).toBe(200);
    for (const sort of ['grp,desc;label,asc', 'label,asc']) {
      const res = await raw(ws, ws.records(`/manyrows?format=ndjson&sort=${sort}`));
      const lines = ndjson(res.text);
      const pages: unknown[] = [];
      for (let page = 0; page < 3; page++) pages.push(...(await ws.call('GET', ws.records(`/manyrows?sort=${sort}&size=1000&page=${page}`))).body.data);
      expect(lines).toHaveLength(2500);
      expect(lines).toEqual(pages);
    }
  });
});
