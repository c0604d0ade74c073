/**
 * Properties of cursor paging (fast-check), DESIGN §13 and "§13–14 exact answers" (Cursors):
 * (c) walking every page under random sorts (nullable columns, desc, several keys, a related field,
 * a computed column), filters and page sizes yields the unpaged list exactly; also while rows are
 * inserted and deleted between pages; (d) a mutated cursor is always 400, never a wrong page.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, startWorkspace, type ApiResponse, type TestWorkspace } from '../support/harness.ts';
import { STATUSES } from '../support/fixture.ts';
import { idsOf, query } from '../support/http-expect.ts';
import { vendorsToRun } from '../support/vendors.ts';

const vendors = await vendorsToRun();

type Params = [string, string][];

const FILTERS: readonly Params[] = [
  [],
  [['filter[status.in]', 'new,paid']],
  [['filter[quantity.gt]', '2']],
  [['filter[note.isNull]', 'false']],
  [['filter[customer.vip.eq]', 'true']],
];

/** Nullable (note, productId, product.*, customer.region.name), related, computed (lineTotal) and plain keys. */
const SORT_FIELDS = ['status', 'quantity', 'amount', 'note', 'productId', 'orderedAt', 'customer.name', 'customer.region.name', 'product.price', 'lineTotal', 'id'];

const sortArb = fc.uniqueArray(fc.record({ field: fc.constantFrom(...SORT_FIELDS), direction: fc.constantFrom('asc', 'desc') }), {
  maxLength: 3,
  selector: (k) => k.field,
});

const sortParams = (sort: readonly { field: string; direction: string }[]): Params => sort.map((k): [string, string] => ['sort', `${k.field},${k.direction}`]);

/** What happens between two pages of a walk. */
type Step =
  | { kind: 'none' }
  | { kind: 'insert'; order: Record<string, unknown> }
  | { kind: 'delete'; pick: number };

const orderArb = fc.record({
  customerId: fc.integer({ min: 1, max: 12 }),
  productId: fc.option(fc.integer({ min: 1, max: 3 }), { nil: null }),
  quantity: fc.integer({ min: 1, max: 5 }),
  amount: fc.constantFrom('0.00', '13.07', '104.21', '199.99', '52.14'),
  status: fc.constantFrom(...STATUSES),
  note: fc.constantFrom(null, '', 'note 1', 'note 9'),
  orderedAt: fc.constantFrom('2026-01-10T00:30:00.000Z', '2026-05-14T04:30:00.000Z', '2026-09-19T09:30:00.000Z'),
});

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  fc.constant<Step>({ kind: 'none' }),
  orderArb.map((order): Step => ({ kind: 'insert', order })),
  fc.nat().map((pick): Step => ({ kind: 'delete', pick })),
);

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.';

/** A change to one character of `cursor`: replaced, removed or added; never the cursor itself. */
const mutationArb = fc.record({
  at: fc.nat(),
  kind: fc.constantFrom('replace', 'remove', 'insert'),
  char: fc.oneof(fc.constantFrom(...BASE64URL), fc.string({ minLength: 1, maxLength: 1 })),
});

function mutate(cursor: string, m: { at: number; kind: string; char: string }): string {
  const at = m.at % (cursor.length + 1);
  if (m.kind === 'insert') return cursor.slice(0, at) + m.char + cursor.slice(at);
  const i = Math.min(at, cursor.length - 1);
  if (m.kind === 'remove') return cursor.slice(0, i) + cursor.slice(i + 1);
  const replaced = m.char === cursor[i] ? (cursor[i] === 'A' ? 'B' : 'A') : m.char;
  return cursor.slice(0, i) + replaced + cursor.slice(i + 1);
}

describe.each(vendors)('cursor paging properties on $name', (target) => {
  let ws: TestWorkspace;
  beforeAll(async () => {
    ws = await startWorkspace(target);
    const views = (await ws.call('GET', ws.admin('/views'), { token: ADMIN_TOKEN })).body.data as { uuid: string; entity: string; isDefault: boolean }[];
    const orders = views.find((v) => v.entity === 'orders' && v.isDefault);
    const column = await ws.call('POST', '/api/columns', { body: { viewUuid: orders?.uuid, displayName: 'Line Total', formula: 'amount * quantity' } });
    expect(column.status).toBe(201);
  });
  afterAll(async () => ws?.close());

  const list = (params: Params): Promise<ApiResponse> => ws.call('GET', ws.records(`/orders${query(params)}`));
  const unpaged = async (base: Params): Promise<unknown[]> => idsOf(await list([...base, ['size', '1000']]));

  /** One page of a walk: the first (`after` null) or the one after `after`. */
  async function page(base: Params, size: number, after: string | null): Promise<{ ids: unknown[]; next: string | null }> {
    const res = await list([...base, ['size', String(size)], after === null ? ['paging', 'cursor'] : ['after', after]]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return { ids: idsOf(res), next: res.body.meta.nextCursor as string | null };
  }

  it('(c) walking every page gives every matching row exactly once, in the order of the unpaged sort', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...FILTERS), sortArb, fc.array(fc.integer({ min: 1, max: 12 }), { minLength: 1, maxLength: 5 }), async (filter, sort, sizes) => {
        const base = [...filter, ...sortParams(sort)];
        const reference = await unpaged(base);
        const seen: unknown[] = [];
        let after: string | null = null;
        for (let n = 0; n === 0 || after !== null; n++) {
          const size = sizes[n % sizes.length] ?? 1;
          const result = await page(base, size, after);
          seen.push(...result.ids);
          // A page is short only when it is the last one; the last one says so.
          if (result.next !== null) expect(result.ids).toHaveLength(size);
          after = result.next;
          expect(n).toBeLessThan(reference.length + 2);
        }
        expect(seen).toEqual(reference);
      }),
      { numRuns: 20 },
    );
  });

  it('(d) a mutated cursor is always 400 "cursor does not match this query", never a page', async () => {
    await fc.assert(
      fc.asyncProperty(sortArb, fc.integer({ min: 1, max: 10 }), mutationArb, async (sort, size, mutation) => {
        const base = sortParams(sort);
        const cursor = (await page(base, size, null)).next;
        if (cursor === null) return;
        const res = await list([...base, ['after', mutate(cursor, mutation)]]);
        expect(res.status, JSON.stringify(res.body)).toBe(400);
        expect(res.body.error).toMatchObject({ code: 'BAD_REQUEST', message: 'cursor does not match this query' });
      }),
      { numRuns: 60 },
    );
  });

  it('(c) while rows are inserted and deleted between pages: no row twice, a row inserted before the cursor never, after it once, a deleted unreached row never', async () => {
    await fc.assert(
      fc.asyncProperty(sortArb, fc.integer({ min: 2, max: 9 }), fc.array(stepArb, { minLength: 1, maxLength: 8 }), async (sort, size, steps) => {
        const base = sortParams(sort);
        const seen: unknown[] = [];
        const deleted = new Set<unknown>();
        /** Each inserted id with the row the cursor stood on when it was inserted. */
        const inserted: { id: unknown; cursorRow: unknown }[] = [];
        let result = await page(base, size, null);
        seen.push(...result.ids);
        for (let n = 0; result.next !== null; n++) {
          const step = steps[n % steps.length] ?? { kind: 'none' };
          const cursorRow = seen[seen.length - 1];
          if (step.kind === 'insert') {
            const created = await ws.call('POST', ws.records('/orders'), { body: step.order });
            expect(created.status, JSON.stringify(created.body)).toBe(201);
            inserted.push({ id: created.body.data.id, cursorRow });
          } else if (step.kind === 'delete') {
            const unreached = (await unpaged(base)).filter((id) => !seen.includes(id));
            const victim = unreached[step.pick % Math.max(unreached.length, 1)];
            if (victim !== undefined) {
              expect((await ws.call('DELETE', ws.records(`/orders/${String(victim)}`))).status).toBe(204);
              deleted.add(victim);
            }
          }
          result = await page(base, size, result.next);
          seen.push(...result.ids);
          expect(n).toBeLessThan(200);
        }
        expect(new Set(seen).size).toBe(seen.length);
        for (const id of deleted) expect(seen).not.toContain(id);
        // Rows never change, so their order is the final unpaged order; only seen rows were kept.
        const final = await unpaged(base);
        const before = new Set(inserted.filter((row) => final.indexOf(row.id) < final.indexOf(row.cursorRow)).map((row) => row.id));
        for (const row of inserted) expect(seen.filter((id) => id === row.id)).toHaveLength(before.has(row.id) ? 0 : 1);
        expect(seen).toEqual(final.filter((id) => !before.has(id)));
      }),
      { numRuns: 12 },
    );
  });
});
