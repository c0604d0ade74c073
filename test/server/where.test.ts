/**
 * DESIGN §13 "Boolean filter expressions" and "§13–14 exact answers": `where=<formula>` on the
 * record list and the view data query, over real HTTP on every vendor.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, startWorkspace, type ApiResponse, type TestWorkspace } from '../support/harness.ts';
import { ORDER_MODEL, type ModelRow } from '../support/fixture-model.ts';
import { databaseDigest, expectError, expectNoLeak, idsOf, query } from '../support/http-expect.ts';
import { vendorsToRun } from '../support/vendors.ts';

const vendors = await vendorsToRun();

const ids = (keep: (r: ModelRow) => boolean): unknown[] => ORDER_MODEL.filter(keep).map((r) => r.id);
const num = (v: unknown): number => Number(v);
const ts = (iso: string): number => new Date(iso).getTime();

type Case = readonly [where: string, keep: (r: ModelRow) => boolean];

const CASES: Case[] = [
  ["status = 'paid'", (r) => r.status === 'paid'],
  ["status = 'paid' OR amount > 100", (r) => r.status === 'paid' || num(r.amount) > 100],
  ["status = 'paid' OR (amount > 100 AND customer.name LIKE 'A%')", (r) => r.status === 'paid' || (num(r.amount) > 100 && String(r['customer.name']).startsWith('A'))],
  ["NOT (status IN ('new', 'shipped'))", (r) => r.status === 'paid'],
  ["status NOT IN ('new')", (r) => r.status !== 'new'],
  ['quantity BETWEEN 2 AND 4', (r) => num(r.quantity) >= 2 && num(r.quantity) <= 4],
  ['quantity NOT BETWEEN 2 AND 4', (r) => num(r.quantity) < 2 || num(r.quantity) > 4],
  ['note IS NULL', (r) => r.note === null],
  ["note IS NOT NULL AND note <> ''", (r) => r.note !== null && r.note !== ''],
  ["note LIKE 'note 1%'", (r) => String(r.note ?? '').startsWith('note 1')],
  ["customer.region.name = 'North'", (r) => r['customer.region.name'] === 'North'],
  ['customer.vip AND quantity >= 3', (r) => r['customer.vip'] === true && num(r.quantity) >= 3],
  ['product.price < 50', (r) => r['product.price'] !== null && num(r['product.price']) < 50],
  ['product.name IS NULL', (r) => r['product.name'] === null],
  ["UPPER(status) = 'PAID' AND LENGTH(customer.name) > 4", (r) => r.status === 'paid' && String(r['customer.name']).length > 4],
  ["orderedAt >= '2026-05-01T00:00:00Z'", (r) => num(r.orderedAt) >= ts('2026-05-01T00:00:00Z')],
  ['amount * quantity > 300 OR amount / 0 IS NOT NULL', (r) => num(r.amount) * num(r.quantity) > 300],
  ["COALESCE(note, 'none') = 'none'", (r) => r.note === null],
  ["CASE WHEN status = 'new' THEN quantity ELSE 0 END > 3", (r) => r.status === 'new' && num(r.quantity) > 3],
  ["customer.name LIKE '100\\%%'", (r) => String(r['customer.name']).startsWith('100%')],
  ['TRUE', () => true],
  ['NULL IS NULL AND FALSE', () => false],
];

describe.each(vendors)('where on $name', (target) => {
  let ws: TestWorkspace;
  beforeAll(async () => {
    ws = await startWorkspace(target);
  });
  afterAll(async () => ws?.close());

  const list = (entity: string, params: [string, string][]): Promise<ApiResponse> =>
    ws.call('GET', ws.records(`/${entity}${query([...params, ['size', '1000']])}`));
  const where = (text: string, more: [string, string][] = []): Promise<ApiResponse> => list('orders', [['where', text], ...more]);

  /**
   * 400 INVALID_FORMULA with `{position: {offset, line, column}, reason}` details. The message may
   * quote words of the formula (`SELECT` in "statements (SELECT) are not allowed").
   */
  function expectRefused(res: ApiResponse, reason: string, offset?: number, text = ''): void {
    expect({ status: res.status, code: res.body?.error?.code }).toEqual({ status: 400, code: 'INVALID_FORMULA' });
    expectNoLeak(res.body, text.match(/\w+/g) ?? []);
    const details = res.body.error.details as { position: { offset: number; line: number; column: number }; reason: string };
    expect(details.reason, res.body.error.message).toBe(reason);
    expect(Object.keys(details.position).sort()).toEqual(['column', 'line', 'offset']);
    if (offset !== undefined) expect(details.position).toEqual({ offset, line: 1, column: offset + 1 });
  }

  it.each(CASES)('%s', async (text, keep) => {
    const expected = ids(keep);
    const res = await where(text);
    expect(idsOf(res), JSON.stringify(res.body)).toEqual(expected);
    expect(res.body.meta.totalElements).toBe(expected.length);
  });

  it('is ANDed with every filter[...] and the count uses the same condition', async () => {
    const keep = (r: ModelRow) => (r.status === 'paid' || num(r.amount) > 100) && r['customer.vip'] === true && num(r.quantity) >= 2;
    const expected = ids(keep);
    const res = await list('orders', [['where', "status = 'paid' OR amount > 100"], ['filter[customer.vip.eq]', 'true'], ['filter[quantity.gte]', '2']]);
    expect(idsOf(res)).toEqual(expected);
    const paged = await ws.call('GET', ws.records(`/orders${query([['where', "status = 'paid' OR amount > 100"], ['filter[customer.vip.eq]', 'true'], ['filter[quantity.gte]', '2'], ['size', '2'], ['page', '1'], ['count', 'exact']])}`));
    expect(idsOf(paged)).toEqual(expected.slice(2, 4));
    expect(paged.body.meta).toMatchObject({ totalElements: expected.length, totalPages: Math.ceil(expected.length / 2), countMode: 'exact' });
  });

  it('sorts and pages the kept rows like any list', async () => {
    const res = await ws.call('GET', ws.records(`/orders${query([['where', "customer.name = 'Ada'"], ['sort', 'amount,desc'], ['expand', 'customer'], ['fields', 'id,amount,customer.name']])}`));
    const expected = ORDER_MODEL.filter((r) => r['customer.name'] === 'Ada').sort((a, b) => num(b.amount) - num(a.amount) || num(a.id) - num(b.id));
    expect(idsOf(res)).toEqual(expected.map((r) => r.id));
    expect(res.body.data[0]).toEqual({ id: expected[0]?.id, amount: expected[0]?.amount, customer: { name: 'Ada' } });
  });

  it('binds literals: a quote in a string literal is data', async () => {
    const before = await databaseDigest(ws);
    expect(idsOf(await where("status = 'x'' OR ''1''=''1'"))).toEqual([]);
    expect(idsOf(await where("note = 'note 5'' --'"))).toEqual([]);
    expect(await databaseDigest(ws)).toEqual(before);
  });

  it('works on the view data query, with the computed columns of that view', async () => {
    const created = await ws.call('POST', ws.admin('/views'), { token: ADMIN_TOKEN, body: { entity: 'orders', name: 'Where view', slug: `where-view-${target.name}` } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const view = created.body.data as { uuid: string; slug: string };
    const column = await ws.call('POST', '/api/columns', { body: { viewUuid: view.uuid, displayName: 'Line Total', formula: 'amount * quantity' } });
    expect(column.status, JSON.stringify(column.body)).toBe(201);
    const total = (r: ModelRow) => num(r.amount) * num(r.quantity);
    const res = await ws.call('GET', `/api/data/${view.slug}${query([['where', "lineTotal > 300 AND status <> 'new'"], ['size', '1000']])}`);
    const expected = ids((r) => total(r) > 300 && r.status !== 'new');
    expect(idsOf(res)).toEqual(expected);
    expect(res.body.meta.totalElements).toBe(expected.length);
    // A computed column inside a larger expression, and one that makes the formula non-boolean.
    const nested = await ws.call('GET', `/api/data/${view.slug}${query([['where', 'ROUND(lineTotal / 2) >= 150'], ['size', '1000']])}`);
    expect(idsOf(nested)).toEqual(ids((r) => Math.round(total(r) / 2) >= 150));
    expectRefused(await ws.call('GET', `/api/data/${view.slug}${query([['where', 'lineTotal']])}`), 'type_mismatch', 0);
    // The record list reads the default view, which has no such column.
    expectRefused(await where('lineTotal > 300'), 'unknown_field', 0);
  });

  it('refuses a formula that is not boolean', async () => {
    expectRefused(await where('amount + 1'), 'type_mismatch', 7);
    expectRefused(await where("'paid'"), 'type_mismatch', 0);
    expectRefused(await where('NULL'), 'type_mismatch', 0);
    expectRefused(await where("status || 'x'"), 'type_mismatch');
  });

  it.each<readonly [string, string, number | undefined]>([
    ["status = 'paid'; DROP TABLE orders", 'semicolon', 15],
    ["status = 'paid' -- comment", 'comment', 16],
    ["status = 'paid' /* c */", 'comment', 16],
    ["status = 'paid' OR id IN (SELECT id FROM orders)", 'statement', 26],
    ['[status] = 1', 'square_brackets', 0],
    ["colour = 'red'", 'unknown_field', 0],
    ["amount > 1 AND customer.colour = 'red'", 'unknown_field', 15],
    ['customers.name IS NULL', 'unknown_field', 0],
    ['pg_sleep(1) IS NULL', 'unknown_function', 0],
    ["status = 'paid", 'unterminated_string', 9],
    ['(status', 'unbalanced_parentheses', 0],
    ['status =', 'syntax', 8],
    ['', 'syntax', 0],
    ['UPPER(amount) = 1', 'type_mismatch', 6],
  ])('gate 1 and the checker refuse %j (%s)', async (text, reason, offset) => {
    const before = await databaseDigest(ws);
    expectRefused(await where(text), reason, offset, text);
    expect(await databaseDigest(ws)).toEqual(before);
  });

  it('accepts 4,096 characters and refuses 4,097', async () => {
    const padded = (length: number): string => {
      const head = "status <> '";
      return `${head}${'x'.repeat(length - head.length - 1)}'`;
    };
    expect(padded(4096)).toHaveLength(4096);
    expect(idsOf(await where(padded(4096)))).toEqual(ids(() => true));
    expectRefused(await where(padded(4097)), 'too_long', 0);
  });

  it('accepts 64 levels of nesting and refuses 65 (parentheses, NOT, operators and calls)', async () => {
    const parens = (n: number): string => `${'('.repeat(n)}quantity > 2${')'.repeat(n)}`;
    expect(idsOf(await where(parens(63)))).toEqual(ids((r) => num(r.quantity) > 2));
    expectRefused(await where(parens(64)), 'too_deep');
    const nots = (n: number): string => `${'NOT '.repeat(n)}quantity > 2`;
    expect(idsOf(await where(nots(63)))).toEqual(ids((r) => num(r.quantity) <= 2));
    expectRefused(await where(nots(64)), 'too_deep');
    const calls = (n: number): string => `${'ABS('.repeat(n)}quantity${')'.repeat(n)} > 2`;
    expect(idsOf(await where(calls(63)))).toEqual(ids((r) => num(r.quantity) > 2));
    expectRefused(await where(calls(64)), 'too_deep');
    const minuses = (n: number): string => `quantity${' - 0'.repeat(n - 1)} > 2`;
    expect(idsOf(await where(minuses(64)))).toEqual(ids((r) => num(r.quantity) > 2));
    expectRefused(await where(minuses(65)), 'too_deep');
  });

  it('a CAST of text that does not parse is an error on every vendor, never a silent false', async () => {
    const res = await where("CAST(CASE WHEN id = 1 THEN 'x' ELSE '1' END AS INTEGER) = 1");
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    const decimal = await where("CAST(CASE WHEN id = 1 THEN '1.2.3' ELSE '1' END AS DECIMAL) = 1");
    expect(decimal.status, JSON.stringify(decimal.body)).toBe(400);
    expect(decimal.body.error.code).toBe(res.body.error.code);
  });

  it('refuses text that grows exponentially (REPLACE nested 30 times) before it runs', async () => {
    const text = `${'REPLACE('.repeat(30)}status${", 'a', 'aa')".repeat(30)} = 'x'`;
    const res = await where(text);
    expectRefused(res, 'too_costly');
    expect(res.body.error.message).toMatch(/more than 1000-fold/);
  });

  it('counts a chain of OR terms as one level: 4,096 characters of OR are accepted', async () => {
    const ors = (n: number): string => `quantity = 0${' OR quantity = 0'.repeat(n - 2)} OR quantity > 2`;
    const text = ors(256);
    expect(text.length).toBeLessThanOrEqual(4096);
    expect(idsOf(await where(text))).toEqual(ids((r) => num(r.quantity) > 2));
    const res = await where(`${'('.repeat(64)}quantity > 2${')'.repeat(64)}`);
    expect(res.body.error.message).toBe('formula nests too deeply (more than 64 levels)');
  });

  it('narrows a cursor walk, and a cursor does not continue under another where', async () => {
    const text = "status <> 'new' AND customer.region.name IS NOT NULL";
    const expected = ids((r) => r.status !== 'new' && r['customer.region.name'] !== null);
    const seen: unknown[] = [];
    let after: string | null = null;
    do {
      const pairs: [string, string][] = [['where', text], ['paging', 'cursor'], ['size', '4'], ...(after ? [['after', after] as [string, string]] : [])];
      const res = await ws.call('GET', ws.records(`/orders${query(pairs)}`));
      seen.push(...idsOf(res));
      expect(res.body.meta.totalElements).toBe(expected.length);
      after = res.body.meta.nextCursor as string | null;
    } while (after !== null && seen.length <= expected.length);
    expect(seen).toEqual(expected);
    const first = await ws.call('GET', ws.records(`/orders${query([['where', text], ['paging', 'cursor'], ['size', '4']])}`));
    const cursor = String(first.body.meta.nextCursor);
    expectError(await ws.call('GET', ws.records(`/orders${query([['where', `${text} AND TRUE`], ['after', cursor], ['size', '4']])}`)), 400, 'BAD_REQUEST', 'cursor does not match this query');
  });

  it('is a single-valued parameter of the list routes only', async () => {
    expectError(await ws.call('GET', ws.records(`/orders${query([['where', 'TRUE'], ['where', 'FALSE']])}`)), 400, 'BAD_REQUEST', 'where');
    expectError(await ws.call('GET', ws.records(`/orders${query([['where[]', 'TRUE']])}`)), 400, 'BAD_REQUEST', 'where');
    expectError(await ws.call('GET', ws.records(`/orders/1${query([['where', 'TRUE']])}`)), 400, 'BAD_REQUEST', 'where');
  });
});
