/**
 * Query parameters (DESIGN §6): a bracketed form of a plain parameter, a repeated
 * single-valued parameter and an unknown name are 400 BAD_REQUEST naming the parameter, on every
 * route that reads the query string. `sort`, `expand` and `fields` may repeat, `filter[...]` stays,
 * and `_` (a cache-buster) is ignored.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorkspace, type TestWorkspace } from '../support/harness.ts';
import { databaseDigest, expectError, idsOf } from '../support/http-expect.ts';
import { vendorsToRun } from '../support/vendors.ts';
import { importFile, viewUuidOf } from '../support/import-calls.ts';

const vendors = await vendorsToRun();

/** [raw query string, the parameter the message must name]. */
const REFUSED: [string, string][] = [
  ['page[]=1', 'page[]'],
  ['size[a]=1', 'size[a]'],
  ['fields[]=id', 'fields[]'],
  ['expand[]=customer', 'expand[]'],
  ['sort[]=id', 'sort[]'],
  ['count[x]=none', 'count[x]'],
  ['page=1&page=2', 'page'],
  ['size=5&size=6', 'size'],
  ['count=exact&count=none', 'count'],
  ['foo=1', 'foo'],
  ['filters[status.eq]=paid', 'filters[status.eq]'],
  ['filter=paid', 'filter'],
  ['__proto__=1', '__proto__'],
];

describe.each(vendors)('query parameters on $name', (target) => {
  let ws: TestWorkspace;

  beforeAll(async () => {
    ws = await startWorkspace(target);
  });
  afterAll(async () => ws?.close());

  /** Every route that reads the read parameters, as [label, method, path without query, body?]. */
  const routes = (): [string, string, string, unknown?][] => [
    ['record list', 'GET', ws.records('/orders')],
    ['get by id', 'GET', ws.records('/orders/1')],
    ['view data query', 'GET', `/api/data/${ws.org}-${ws.ws}-orders`],
    ['create', 'POST', ws.records('/regions'), { name: 'Query Region' }],
    ['update', 'PUT', ws.records('/regions/1'), { name: 'Renamed' }],
  ];

  it.each(REFUSED)('%s is 400 BAD_REQUEST naming the parameter on every read route, and writes nothing', async (queryString, name) => {
    const before = await databaseDigest(ws);
    for (const [label, method, path, body] of routes()) {
      const res = await ws.call(method, `${path}?${queryString}`, body === undefined ? {} : { body });
      expect({ label, status: res.status }).toEqual({ label, status: 400 });
      expectError(res, 400, 'BAD_REQUEST', `'${name}'`);
    }
    expect(await databaseDigest(ws)).toEqual(before);
  });

  it('fields[]=id no longer returns every field: it is refused, and fields=id still narrows', async () => {
    expectError(await ws.call('GET', ws.records('/orders?fields[]=id&size=2')), 400, 'BAD_REQUEST', 'fields[]');
    const res = await ws.call('GET', ws.records('/orders?fields=id&size=2'));
    expect(res.body.data).toEqual([{ id: 1 }, { id: 2 }]);
  });

  it('sort, expand and fields may repeat and add up; filter keys stay', async () => {
    const repeated = await ws.call('GET', ws.records('/orders?sort=status,desc&sort=id,desc&size=5'));
    const joined = await ws.call('GET', ws.records('/orders?sort=status,desc;id,desc&size=5'));
    expect(idsOf(repeated)).toEqual(idsOf(joined));
    const expanded = await ws.call('GET', ws.records('/orders/1?expand=customer&expand=product&fields=id&fields=customer.name,product.name'));
    expect(expanded.status, JSON.stringify(expanded.body)).toBe(200);
    expect(Object.keys(expanded.body.data).sort()).toEqual(['customer', 'id', 'product']);
    const filtered = await ws.call('GET', ws.records('/orders?filter[status.eq]=paid&filter[quantity.gte]=3&size=100'));
    expect(idsOf(filtered).length).toBeGreaterThan(0);
    for (const row of filtered.body.data) expect(row).toMatchObject({ status: 'paid' });
  });

  it('_ is a cache-buster: ignored on every read route', async () => {
    for (const [label, method, path] of routes().filter(([, method]) => method === 'GET')) {
      const plain = await ws.call(method, `${path}?size=3`);
      const busted = await ws.call(method, `${path}?size=3&_=1716900000000`);
      expect({ label, status: busted.status }).toEqual({ label, status: 200 });
      expect(busted.body).toEqual(plain.body);
    }
  });

  it('import options are read the same way: brackets, repeats and unknown names are 400 and nothing is imported', async () => {
    const before = await databaseDigest(ws);
    const file = 'name\nImported Region\n';
    for (const [query, name] of [
      [{ 'method[]': 'INSERT' }, 'method[]'],
      [{ 'header[x]': 'true' }, 'header[x]'],
      [{ delimiter: ',', colour: 'red' }, 'colour'],
    ] as [Record<string, string>, string][]) {
      const res = await importFile(ws, await viewUuidOf(ws, 'regions'), file, { query });
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'BAD_REQUEST' });
      expect(res.body.error.message).toContain(`'${name}'`);
    }
    const repeated = await fetch(`${ws.url}/api/data/import/${await viewUuidOf(ws, 'regions')}?header=true&header=false`, {
      method: 'POST',
      headers: { 'content-type': 'text/csv', authorization: `Bearer ${ws.apiKey}` },
      body: file,
    });
    expect(repeated.status).toBe(400);
    const body = (await repeated.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('BAD_REQUEST');
    expect(body.error.message).toContain("'header'");
    expect(await databaseDigest(ws)).toEqual(before);
  });
});
