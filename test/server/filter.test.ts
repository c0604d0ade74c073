/** DESIGN §6 "filter[field.op]=value" on the record list, and §5 (400 for bad filters). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorkspace, type TestWorkspace } from '../support/harness.ts';
import { CUSTOMER_MODEL, ORDER_MODEL, type ModelRow } from '../support/fixture-model.ts';
import { databaseDigest, expectError, idsOf, query } from '../support/http-expect.ts';
import { vendorsToRun } from '../support/vendors.ts';

const vendors = await vendorsToRun();

const ids = (rows: readonly ModelRow[], keep: (r: ModelRow) => boolean): unknown[] => rows.filter(keep).map((r) => r.id);
const ts = (iso: string): number => new Date(iso).getTime();

type Case = readonly [label: string, filters: [string, string][], keep: (r: ModelRow) => boolean];

const ORDER_CASES: Case[] = [
  ['text eq', [['filter[status.eq]', 'paid']], (r) => r.status === 'paid'],
  ['text neq', [['filter[status.neq]', 'paid']], (r) => r.status !== 'paid'],
  ['text gt', [['filter[status.gt]', 'paid']], (r) => String(r.status) > 'paid'],
  ['text in', [['filter[status.in]', 'new,shipped']], (r) => r.status === 'new' || r.status === 'shipped'],
  ['text nin', [['filter[status.nin]', 'new,shipped']], (r) => r.status === 'paid'],
  ['text like', [['filter[status.like]', 'p%d']], (r) => r.status === 'paid'],
  ['text like with _', [['filter[status.like]', '_ew']], (r) => r.status === 'new'],
  ['text ilike', [['filter[status.ilike]', 'SHIP%']], (r) => r.status === 'shipped'],
  ['text contains', [['filter[status.contains]', 'hip']], (r) => r.status === 'shipped'],
  ['text contains is case-sensitive', [['filter[status.contains]', 'HIP']], () => false],
  ['text startsWith', [['filter[status.startsWith]', 'pa']], (r) => r.status === 'paid'],
  ['text endsWith', [['filter[status.endsWith]', 'ed']], (r) => r.status === 'shipped'],
  ['text isNull true', [['filter[note.isNull]', 'true']], (r) => r.note === null],
  ['text isNull false', [['filter[note.isNull]', 'false']], (r) => r.note !== null],
  ['text eq empty string', [['filter[note.eq]', '']], (r) => r.note === ''],
  ['integer eq', [['filter[quantity.eq]', '3']], (r) => r.quantity === 3],
  ['integer neq', [['filter[quantity.neq]', '3']], (r) => r.quantity !== 3],
  ['integer gt', [['filter[quantity.gt]', '3']], (r) => Number(r.quantity) > 3],
  ['integer gte', [['filter[quantity.gte]', '3']], (r) => Number(r.quantity) >= 3],
  ['integer lt', [['filter[quantity.lt]', '2']], (r) => Number(r.quantity) < 2],
  ['integer lte', [['filter[quantity.lte]', '2']], (r) => Number(r.quantity) <= 2],
  ['integer in', [['filter[quantity.in]', '1,5']], (r) => r.quantity === 1 || r.quantity === 5],
  ['integer nin', [['filter[quantity.nin]', '1,5']], (r) => r.quantity !== 1 && r.quantity !== 5],
  ['nullable integer isNull', [['filter[productId.isNull]', 'true']], (r) => r.productId === null],
  ['nullable integer neq leaves NULLs out (SQL semantics)', [['filter[productId.neq]', '1']], (r) => r.productId !== null && r.productId !== 1],
  ['decimal gt', [['filter[amount.gt]', '100.5']], (r) => Number(r.amount) > 100.5],
  ['decimal lte', [['filter[amount.lte]', '13.07']], (r) => Number(r.amount) <= 13.07],
  ['decimal eq', [['filter[amount.eq]', '13.07']], (r) => r.amount === 13.07],
  ['timestamp gte', [['filter[orderedAt.gte]', '2026-05-01T00:00:00Z']], (r) => Number(r.orderedAt) >= ts('2026-05-01T00:00:00Z')],
  ['timestamp lt with an offset', [['filter[orderedAt.lt]', '2026-03-12T04:30:00+02:00']], (r) => Number(r.orderedAt) < ts('2026-03-12T02:30:00Z')],
  ['timestamp eq', [['filter[orderedAt.eq]', '2026-02-11T01:30:00.000Z']], (r) => r.orderedAt === ts('2026-02-11T01:30:00Z')],
  ['rel.field eq', [['filter[customer.name.eq]', 'Ada']], (r) => r['customer.name'] === 'Ada'],
  ['rel.field boolean', [['filter[customer.vip.eq]', 'true']], (r) => r['customer.vip'] === true],
  ['two-hop rel.field', [['filter[customer.region.name.eq]', 'North']], (r) => r['customer.region.name'] === 'North'],
  ['rel.field isNull through a missing related row', [['filter[product.name.isNull]', 'true']], (r) => r['product.name'] === null],
  ['rel.field on a decimal', [['filter[product.price.lt]', '50']], (r) => r['product.price'] !== null && Number(r['product.price']) < 50],
  ['filters combine with AND', [['filter[status.eq]', 'paid'], ['filter[quantity.gte]', '3']], (r) => r.status === 'paid' && Number(r.quantity) >= 3],
  ['filters on a field and a rel.field combine', [['filter[customer.vip.eq]', 'false'], ['filter[amount.gt]', '50']], (r) => r['customer.vip'] === false && Number(r.amount) > 50],
];

const CUSTOMER_CASES: Case[] = [
  ['boolean eq true', [['filter[vip.eq]', 'true']], (r) => r.vip === true],
  ['boolean neq true', [['filter[vip.neq]', 'true']], (r) => r.vip === false],
  ['date gt', [['filter[birthDate.gt]', '1975-01-01']], (r) => r.birthDate !== null && String(r.birthDate) > '1975-01-01'],
  ['date lte', [['filter[birthDate.lte]', '1976-07-15']], (r) => r.birthDate !== null && String(r.birthDate) <= '1976-07-15'],
  ['date eq', [['filter[birthDate.eq]', '1976-07-15']], (r) => r.birthDate === '1976-07-15'],
  ['date in', [['filter[birthDate.in]', '1976-07-15,1971-02-15']], (r) => r.birthDate === '1976-07-15' || r.birthDate === '1971-02-15'],
  ['date isNull', [['filter[birthDate.isNull]', 'true']], (r) => r.birthDate === null],
  ['contains matches % and _ literally', [['filter[name.contains]', '%_']], (r) => r.name === '100%_done'],
  ['contains with a lone % matches only names holding %', [['filter[name.contains]', '%']], (r) => String(r.name).includes('%')],
  ['contains with a lone _ matches only names holding _', [['filter[name.contains]', '_']], (r) => String(r.name).includes('_')],
  ['startsWith matches % literally', [['filter[name.startsWith]', '100%']], (r) => String(r.name).startsWith('100%')],
  ['startsWith % does not match everything', [['filter[name.startsWith]', '%']], () => false],
  ['endsWith matches _ literally', [['filter[name.endsWith]', '_done']], (r) => String(r.name).endsWith('_done')],
  ['endsWith _ does not match every name', [['filter[name.endsWith]', '_']], () => false],
  ['contains unicode', [['filter[name.contains]', 'ë']], (r) => String(r.name).includes('ë')],
  ['rel.field text on customers', [['filter[region.name.startsWith]', 'Ω']], (r) => String(r['region.name'] ?? '').startsWith('Ω')],
];

describe.each(vendors)('filter on $name', (target) => {
  let ws: TestWorkspace;
  beforeAll(async () => {
    ws = await startWorkspace(target);
  });
  afterAll(async () => ws?.close());

  const list = (entity: string, params: [string, string][]) => ws.call('GET', ws.records(`/${entity}${query([...params, ['size', '1000']])}`));

  it.each(ORDER_CASES)('orders: %s', async (_label, filters, keep) => {
    const expected = ids(ORDER_MODEL, keep);
    const res = await list('orders', filters);
    expect(idsOf(res)).toEqual(expected);
    expect(res.body.meta.totalElements).toBe(expected.length);
  });

  it.each(CUSTOMER_CASES)('customers: %s', async (_label, filters, keep) => {
    const expected = ids(CUSTOMER_MODEL, keep);
    const res = await list('customers', filters);
    expect(idsOf(res)).toEqual(expected);
    expect(res.body.meta.totalElements).toBe(expected.length);
  });

  it('a filter counts only matching rows while paging', async () => {
    const res = await ws.call('GET', ws.records('/orders?filter[customer.vip.eq]=true&size=4&page=1'));
    const expected = ids(ORDER_MODEL, (r) => r['customer.vip'] === true);
    expect(idsOf(res)).toEqual(expected.slice(4, 8));
    expect(res.body.meta).toMatchObject({ totalElements: expected.length, totalPages: Math.ceil(expected.length / 4) });
  });

  it('an unknown filter field is 400 BAD_REQUEST listing the valid fields', async () => {
    expectError(await list('orders', [['filter[colour.eq]', 'red']]), 400, 'BAD_REQUEST', 'colour', 'status', 'customerId');
  });

  it('an unknown field behind a relationship is 400 naming it', async () => {
    expectError(await list('orders', [['filter[customer.colour.eq]', 'red']]), 400, 'BAD_REQUEST', 'customer.colour');
  });

  it('an unknown operator is 400 BAD_REQUEST listing the valid operators', async () => {
    expectError(await list('orders', [['filter[status.matches]', 'x']]), 400, 'BAD_REQUEST', 'eq', 'startsWith', 'isNull');
  });

  it('a filter without an operator is 400 BAD_REQUEST', async () => {
    expectError(await list('orders', [['filter[status]', 'x']]), 400, 'BAD_REQUEST');
    expectError(await list('orders', [['filter', 'x']]), 400, 'BAD_REQUEST');
  });

  it.each([
    ['filter[id.eq]', 'abc'],
    ['filter[quantity.gt]', '1.5'],
    ['filter[quantity.in]', '1,x'],
    ['filter[amount.lt]', 'cheap'],
    ['filter[amount.eq]', '1e999999'],
    ['filter[orderedAt.gt]', 'yesterday'],
    ['filter[orderedAt.gt]', '2026-02-30T00:00:00Z'],
    ['filter[customer.vip.eq]', 'maybe'],
    ['filter[note.isNull]', 'yes'],
  ])('a value that does not fit the field type (%s=%s) is 400', async (key, value) => {
    expectError(await list('orders', [[key, value]]), 400, 'BAD_REQUEST');
  });

  it.each([
    ['filter[birthDate.eq]', '2020-02-30'],
    ['filter[birthDate.gt]', '15.01.1980'],
    ['filter[vip.eq]', '1x'],
  ])('a value that does not fit a date or boolean (%s=%s) is 400', async (key, value) => {
    expectError(await list('customers', [[key, value]]), 400, 'BAD_REQUEST');
  });

  it.each([
    ['filter[status.eq]', 'a\u0000b'],
    ['filter[status.startsWith]', '\u0000'],
    ['filter[status.in]', 'new,\u0000'],
    ['filter[note.contains]', 'x\u0000'],
  ])('a text value the database cannot hold (NUL in %s) is 400, not 500', async (key, value) => {
    const before = await databaseDigest(ws);
    expectError(await list('orders', [[key, value]]), 400, 'BAD_REQUEST');
    expect(await databaseDigest(ws)).toEqual(before);
  });

  it('a like pattern ending in the escape character is 400, not 500', async () => {
    expectError(await list('orders', [['filter[status.like]', '%\\']]), 400, 'BAD_REQUEST', 'like');
    expectError(await list('orders', [['filter[status.ilike]', '%\\']]), 400, 'BAD_REQUEST', 'ilike');
  });

  it('a backslash in contains/startsWith/endsWith matches literally', async () => {
    for (const op of ['contains', 'startsWith', 'endsWith']) {
      const res = await list('orders', [[`filter[note.${op}]`, '\\']]);
      expect(idsOf(res)).toEqual([]);
    }
  });
});
