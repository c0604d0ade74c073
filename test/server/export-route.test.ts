/**
 * The export operation of its own (`GET …/{entity}/export`, `GET /api/data/{viewSlug}/export`): the
 * same bytes as the list with `format`, so the OpenAPI document can give the JSON list a JSON-only
 * answer and the export its text ones.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorkspace, type TestWorkspace } from '../support/harness.ts';
import { expectError } from '../support/http-expect.ts';
import { vendorsToRun } from '../support/vendors.ts';

const vendors = await vendorsToRun();

async function raw(ws: TestWorkspace, path: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Headers; text: string }> {
  const response = await fetch(`${ws.url}${path}`, { headers: { authorization: `Bearer ${ws.apiKey}`, ...headers } });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

describe.each(vendors)('export route on $name', (target) => {
  let ws: TestWorkspace;
  beforeAll(async () => {
    ws = await startWorkspace(target);
  });
  afterAll(async () => ws?.close());

  it('answers CSV by default, with the bytes of format=csv on the list', async () => {
    const query = 'filter[status.eq]=paid&sort=id&fields=id,amount,status';
    const viaList = await raw(ws, ws.records(`/orders?format=csv&${query}`));
    const viaRoute = await raw(ws, ws.records(`/orders/export?${query}`));
    expect(viaRoute.status).toBe(200);
    expect(viaRoute.headers.get('content-type')).toContain('text/csv');
    expect(viaRoute.headers.get('content-disposition')).toBe('attachment; filename="orders.csv"');
    expect(viaRoute.text).toBe(viaList.text);
  });

  it('answers NDJSON with format=ndjson or Accept: application/x-ndjson', async () => {
    const viaList = await raw(ws, ws.records('/orders?format=ndjson&sort=id'));
    expect((await raw(ws, ws.records('/orders/export?format=ndjson&sort=id'))).text).toBe(viaList.text);
    expect((await raw(ws, ws.records('/orders/export?sort=id'), { accept: 'application/x-ndjson' })).text).toBe(viaList.text);
  });

  it('refuses format=json and paging parameters like the list export does', async () => {
    const json = await raw(ws, ws.records('/orders/export?format=json'));
    expectError({ status: json.status, headers: json.headers, body: JSON.parse(json.text) }, 400, 'BAD_REQUEST', 'format');
    const paged = await raw(ws, ws.records('/orders/export?page=1'));
    expect(paged.status).toBe(400);
  });

  it('exports view data too', async () => {
    const view = (await ws.call('GET', ws.admin('/views'))).body.data.find((v: { entity: string; isDefault: boolean }) => v.entity === 'orders' && v.isDefault);
    const viaList = await raw(ws, `/api/data/${view.slug}?format=csv&sort=id`);
    const viaRoute = await raw(ws, `/api/data/${view.slug}/export?sort=id`);
    expect(viaRoute.status).toBe(200);
    expect(viaRoute.text).toBe(viaList.text);
  });
});
