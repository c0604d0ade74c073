/** Cursor (keyset) paging, DESIGN §13 and "§13–14 exact answers" (Cursors), over HTTP on every vendor. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, fetchJson, startWorkspace, type ApiResponse, type TestWorkspace } from '../support/harness.ts';
import { ORDER_MODEL, sortedIds, type SortKey } from '../support/fixture-model.ts';
import { expectError, expectList, idsOf, query } from '../support/http-expect.ts';
import { vendorsToRun } from '../support/vendors.ts';

const vendors = await vendorsToRun();
const MISMATCH = 'cursor does not match this query';

function expectMismatch(res: ApiResponse): void {
  expectError(res, 400, 'BAD_REQUEST');
  expect(res.body.error.message).toBe(MISMATCH);
}

describe.each(vendors)('cursor paging on $name', (target) => {
  let ws: TestWorkspace;
  beforeAll(async () => {
    ws = await startWorkspace(target);
  });
  afterAll(async () => ws?.close());

  const list = (params: readonly (readonly [string, string | number])[], entity = 'orders') => ws.call('GET', ws.records(`/${entity}${query(params)}`));

  /** Every page of a cursor walk; `sizes` gives each page's size in turn (the last one repeats). */
  async function walk(params: [string, string][], sizes: number[] = [7]): Promise<{ ids: unknown[]; pages: ApiResponse[] }> {
    const ids: unknown[] = [];
    const pages: ApiResponse[] = [];
    let after: string | null = null;
    do {
      const size = sizes[Math.min(pages.length, sizes.length - 1)] ?? 7;
      const res = await list([...params, ['size', size], ...(after === null ? [['paging', 'cursor'] as const] : [['after', after] as const])]);
      ids.push(...idsOf(res));
      pages.push(res);
      after = res.body.meta.nextCursor as string | null;
      expect(pages.length).toBeLessThan(100);
    } while (after !== null);
    return { ids, pages };
  }

  it('a cursor is bound to its workspace and entity: the same sort elsewhere is refused', async () => {
    const admin = (path: string, body: unknown) => fetchJson(`${ws.url}/api/admin/v1/orgs/${ws.org}${path}`, 'POST', { body }, ADMIN_TOKEN);
    expect((await admin('/workspaces', { slug: 'twin', name: 'twin', database: ws.db.database })).status).toBe(201);
    const key = String((await admin('/workspaces/twin/api-keys', { name: 'twin' })).body.data.key);
    const twin = (path: string) => fetchJson(`${ws.url}/api/v1/${ws.org}/twin${path}`, 'GET', {}, key);
    const params = [['sort', 'id'], ['size', 5]] as const;
    const first = await list([...params, ['paging', 'cursor']]);
    const cursor = String(first.body.meta.nextCursor);
    const own = await list([...params, ['after', cursor]]);
    expect(idsOf(own)).toEqual([6, 7, 8, 9, 10]);
    expectMismatch(await twin(`/orders${query([...params, ['after', cursor]])}`));
    expectMismatch(await list([...params, ['after', cursor]], 'customers'));
    const twinFirst = await twin(`/orders${query([...params, ['paging', 'cursor']])}`);
    expect(idsOf(await twin(`/orders${query([...params, ['after', String(twinFirst.body.meta.nextCursor)]])}`))).toEqual([6, 7, 8, 9, 10]);
  });

  it('paging=cursor answers meta {page: null, size, totalElements, totalPages, countMode, nextCursor}', async () => {
    const res = await list([['paging', 'cursor'], ['size', 10]]);
    expect(expectList(res).map((r) => r.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(Object.keys(res.body.meta)).toEqual(['page', 'size', 'totalElements', 'totalPages', 'countMode', 'nextCursor']);
    expect(res.body.meta).toMatchObject({ page: null, size: 10, totalElements: 45, totalPages: 5, countMode: 'exact' });
    expect(typeof res.body.meta.nextCursor).toBe('string');
  });

  it('walking after=<nextCursor> yields every row once, in order; the last page has nextCursor null', async () => {
    const { ids, pages } = await walk([]);
    expect(ids).toEqual(ORDER_MODEL.map((o) => o.id));
    expect(pages).toHaveLength(7);
    expect(pages.at(-1)?.body.data).toHaveLength(3);
  });

  it('nextCursor is null on the page holding the last row even when that page is exactly full', async () => {
    const { pages } = await walk([], [15]);
    expect(pages.map((p) => p.body.data.length)).toEqual([15, 15, 15]);
    const whole = await list([['paging', 'cursor'], ['size', 45]]);
    expect(whole.body.meta.nextCursor).toBeNull();
  });

  it('after implies cursor paging; paging=cursor may be sent with it', async () => {
    const first = await list([['paging', 'cursor'], ['size', 5]]);
    const implied = await list([['after', first.body.meta.nextCursor], ['size', 5]]);
    const both = await list([['paging', 'cursor'], ['after', first.body.meta.nextCursor], ['size', 5]]);
    expect(idsOf(implied)).toEqual([6, 7, 8, 9, 10]);
    expect(both.body).toEqual(implied.body);
    expect(implied.body.meta.page).toBeNull();
  });

  it('size may change between pages', async () => {
    const { ids, pages } = await walk([['sort', 'amount,desc']], [3, 11, 20]);
    expect(ids).toEqual(sortedIds(ORDER_MODEL, [{ path: 'amount', direction: 'desc' }]));
    expect(pages.map((p) => p.body.meta.size)).toEqual([3, 11, 20, 20]);
  });

  it('count modes apply unchanged', async () => {
    const none = await list([['paging', 'cursor'], ['count', 'none']]);
    expect(none.body.meta).toMatchObject({ page: null, totalElements: null, totalPages: null, countMode: 'none' });
    const filtered = await list([['paging', 'cursor'], ['filter[status.eq]', 'paid'], ['size', 4]]);
    expect(filtered.body.meta).toMatchObject({ totalElements: 15, totalPages: 4 });
  });

  it('page with paging=cursor or after is 400; after with paging=offset and an unknown paging are 400', async () => {
    expectError(await list([['paging', 'cursor'], ['page', 0]]), 400, 'BAD_REQUEST', 'page');
    const cursor = (await list([['paging', 'cursor']])).body.meta.nextCursor as string;
    expectError(await list([['after', cursor], ['page', 1]]), 400, 'BAD_REQUEST', 'page');
    expectError(await list([['after', cursor], ['paging', 'offset']]), 400, 'BAD_REQUEST', 'after');
    expectError(await list([['paging', 'keyset']]), 400, 'BAD_REQUEST', 'paging');
    expectError(await list([['paging', 'cursor'], ['paging', 'cursor']]), 400, 'BAD_REQUEST', 'paging');
  });

  it('a cursor of another sort, other filters or another entity is refused with the exact message', async () => {
    const cursor = (await list([['paging', 'cursor'], ['sort', 'amount,desc'], ['size', 5]])).body.meta.nextCursor as string;
    expectMismatch(await list([['after', cursor], ['sort', 'amount,asc']]));
    expectMismatch(await list([['after', cursor]]));
    expectMismatch(await list([['after', cursor], ['sort', 'amount,desc'], ['filter[status.eq]', 'paid']]));
    const plain = (await list([['paging', 'cursor'], ['size', 5]])).body.meta.nextCursor as string;
    expectMismatch(await list([['after', plain]], 'customers'));
    expect((await list([['after', cursor], ['sort', 'amount,desc'], ['size', 9], ['expand', 'customer']])).status).toBe(200);
  });

  it('an altered cursor or a string that is not a cursor is 400 with the exact message', async () => {
    const cursor = (await list([['paging', 'cursor'], ['size', 5]])).body.meta.nextCursor as string;
    const [payload, signature] = cursor.split('.') as [string, string];
    const forged = Buffer.from(JSON.stringify([1]), 'utf8').toString('base64url');
    for (const bad of ['', 'abc', 'null', `${forged}.${signature}`, `${payload}.${signature}x`, `${payload}.`, `${payload}.${signature}.x`, cursor.slice(1), `${cursor}=`]) {
      expectMismatch(await list([['after', bad]]));
    }
  });

  it('sorting by a nullable column descending, a related field and several keys walks like the unpaged list', async () => {
    const cases: [string, SortKey[]][] = [
      ['productId,desc', [{ path: 'productId', direction: 'desc' }]],
      ['note,asc;quantity,desc', [{ path: 'note', direction: 'asc' }, { path: 'quantity', direction: 'desc' }]],
      ['customer.regionId,asc;orderedAt,desc', [{ path: 'customer.regionId', direction: 'asc' }, { path: 'orderedAt', direction: 'desc' }]],
      ['id,desc', [{ path: 'id', direction: 'desc' }]],
    ];
    for (const [sort, keys] of cases) {
      const { ids } = await walk([['sort', sort]], [4]);
      expect(ids, sort).toEqual(sortedIds(ORDER_MODEL, keys));
    }
  });

  it('a computed column sorts a cursor walk, through the view data query too; cursors are tied to their view', async () => {
    const views = (await ws.call('GET', ws.admin('/views'), { token: ADMIN_TOKEN })).body.data as { uuid: string; slug: string; entity: string; isDefault: boolean }[];
    const orders = views.find((v) => v.entity === 'orders' && v.isDefault);
    const column = await ws.call('POST', '/api/columns', { body: { viewUuid: orders?.uuid, displayName: 'Line Total', formula: 'amount * quantity' } });
    expect(column.status).toBe(201);
    const unpaged = expectList(await list([['sort', 'lineTotal,desc'], ['size', 1000]])).map((r) => r.id);
    const { ids } = await walk([['sort', 'lineTotal,desc']], [6]);
    expect(ids).toEqual(unpaged);
    const viewPath = `/api/data/${orders?.slug}`;
    const first = await ws.call('GET', `${viewPath}?paging=cursor&sort=lineTotal,desc&size=6`);
    const second = await ws.call('GET', `${viewPath}?after=${encodeURIComponent(first.body.meta.nextCursor)}&sort=lineTotal,desc&size=6`);
    expect([...idsOf(first), ...idsOf(second)]).toEqual(unpaged.slice(0, 12));
    const recordCursor = (await list([['paging', 'cursor'], ['sort', 'lineTotal,desc'], ['size', 6]])).body.meta.nextCursor as string;
    expectMismatch(await ws.call('GET', `${viewPath}?after=${encodeURIComponent(recordCursor)}&sort=lineTotal,desc`));
    expect((await ws.call('DELETE', `/api/columns/item/${column.body.data.uuid}`)).status).toBe(204);
  });
});
