/**
 * Properties of the record list (fast-check): paging covers every match exactly once, `fields` and
 * `expand` give exactly the requested keys, and random query input never causes a 5xx or a write.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorkspace, type TestWorkspace } from '../support/harness.ts';
import { ORDER_MODEL, type ModelRow } from '../support/fixture-model.ts';
import { databaseDigest, expectNoLeak, idsOf, query, tableDigest } from '../support/http-expect.ts';
import { vendorsToRun } from '../support/vendors.ts';

const vendors = await vendorsToRun();

// ---------------------------------------------------------------- (1) paging

const FILTERS: readonly { params: [string, string][]; keep: (r: ModelRow) => boolean }[] = [
  { params: [], keep: () => true },
  { params: [['filter[status.in]', 'new,paid']], keep: (r) => r.status !== 'shipped' },
  { params: [['filter[quantity.gt]', '2']], keep: (r) => Number(r.quantity) > 2 },
  { params: [['filter[customer.vip.eq]', 'true']], keep: (r) => r['customer.vip'] === true },
  { params: [['filter[note.isNull]', 'false'], ['filter[amount.lt]', '150']], keep: (r) => r.note !== null && Number(r.amount) < 150 },
  { params: [['filter[product.name.isNull]', 'true']], keep: (r) => r['product.name'] === null },
];

const SORT_FIELDS = ['status', 'quantity', 'amount', 'note', 'productId', 'orderedAt', 'customer.name', 'customer.region.name', 'product.name', 'id'];

const sortArb = fc.uniqueArray(
  fc.record({ field: fc.constantFrom(...SORT_FIELDS), direction: fc.constantFrom('asc', 'desc') }),
  { maxLength: 3, selector: (k) => k.field },
);

// ---------------------------------------------------------------- (2) fields and expand

const FIELDS_AT: Record<string, readonly string[]> = {
  '': ['id', 'customerId', 'productId', 'quantity', 'amount', 'status', 'note', 'orderedAt', 'createdAt', 'updatedAt'],
  customer: ['id', 'name', 'email', 'regionId', 'vip', 'birthDate', 'createdAt'],
  product: ['id', 'sku', 'name', 'price'],
  'customer.region': ['id', 'name'],
};
const RELATIONSHIPS_AT: Record<string, readonly string[]> = { '': ['customer', 'product'], customer: ['region'], product: [], 'customer.region': [] };
const child = (path: string, name: string) => (path ? `${path}.${name}` : name);

interface Shape {
  full: boolean;
  keys: Set<string>;
  children: Map<string, Shape>;
}

function fullShape(path: string, expanded: ReadonlySet<string>): Shape {
  const shape: Shape = { full: true, keys: new Set(FIELDS_AT[path]), children: new Map() };
  for (const rel of RELATIONSHIPS_AT[path] ?? []) {
    if (!expanded.has(child(path, rel))) continue;
    shape.keys.add(rel);
    shape.children.set(rel, fullShape(child(path, rel), expanded));
  }
  return shape;
}

/** The keys a record must have: DESIGN §12 and docs/query-planning.md "Reads" (a bare relationship keeps everything). */
function expectedShape(expanded: ReadonlySet<string>, fields: readonly string[] | null): Shape {
  if (fields === null) return fullShape('', expanded);
  const root: Shape = { full: false, keys: new Set(), children: new Map() };
  for (const entry of fields) {
    let node = root;
    let path = '';
    const segments = entry.split('.');
    for (let i = 0; i < segments.length; i++) {
      const segment = segments[i] ?? '';
      const next = child(path, segment);
      node.keys.add(segment);
      if (!(next in FIELDS_AT)) break;
      const last = i === segments.length - 1;
      const existing = node.children.get(segment);
      if (last) {
        node.children.set(segment, fullShape(next, expanded));
        break;
      }
      if (existing?.full) break;
      const sub = existing ?? { full: false, keys: new Set<string>(), children: new Map<string, Shape>() };
      node.children.set(segment, sub);
      node = sub;
      path = next;
    }
  }
  return root;
}

function checkShape(record: unknown, shape: Shape, where: string): void {
  expect(Object.keys(record as object).sort(), where).toEqual([...shape.keys].sort());
  for (const [name, sub] of shape.children) {
    const value = (record as Record<string, unknown>)[name];
    if (value !== null) checkShape(value, sub, `${where}.${name}`);
  }
}

const EXPANSIONS = ['customer', 'product', 'customer.region'];

const shapeRequestArb = fc.subarray(EXPANSIONS).chain((expand) => {
  const expanded = new Set(expand.flatMap((e) => (e === 'customer.region' ? ['customer', 'customer.region'] : [e])));
  const candidates = [
    ...(FIELDS_AT[''] ?? []),
    ...[...expanded].flatMap((path) => [path, ...(FIELDS_AT[path] ?? []).map((f) => `${path}.${f}`)]),
  ];
  return fc.record({
    expand: fc.constant(expand),
    expanded: fc.constant(expanded as ReadonlySet<string>),
    fields: fc.option(fc.subarray(candidates, { minLength: 1 }).chain((xs) => fc.shuffledSubarray(xs, { minLength: xs.length, maxLength: xs.length })), { nil: null }),
    id: fc.integer({ min: 1, max: 45 }),
  });
});

// ---------------------------------------------------------------- (3) random input

const FRAGMENTS = [
  'customer', 'region', 'product', 'name', 'status', 'id', 'amount', 'orderedAt', '.', ',', ';', '%', '_', '\\', "'", '"', '[', ']', '(', ')',
  'asc', 'desc', 'eq', 'in', 'isNull', 'like', 'ilike', 'contains', '__proto__', 'constructor', '\u0000', ' ', '--', '/*', '1e999', '-1',
  '9999999999', '2026-01-01', 'true', 'null', '😀', 'Ω', 'DROP TABLE orders',
];

const fragmentArb = fc.oneof(fc.constantFrom(...FRAGMENTS), fc.string({ unit: 'binary', maxLength: 6 }));
/** Lone surrogates cannot be URL-encoded; replace them as a browser would. */
const wellFormed = (s: string) => s.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
const messyArb = fc.array(fragmentArb, { maxLength: 5 }).map((xs) => wellFormed(xs.join('')));
/** Values that once reached the database unchecked (each was a 500). */
const TRICKY_VALUES = ['\u0000', 'a,\u0000', '%\\', 'x\\', '1e999999', '-1e999999', '0001-01-01', '0001-01-01T00:00:00Z', '99999999999', ',', ''];
const paramValueArb = fc.oneof(messyArb, fc.constantFrom(...TRICKY_VALUES));

const PARAM_NAMES = ['sort', 'fields', 'expand', 'page', 'size', 'count'];
const FILTER_FIELDS = ['id', 'status', 'note', 'amount', 'quantity', 'orderedAt', 'customer.name', 'customer.vip', 'customer.birthDate', 'product.price', 'name', 'vip'];
const OPERATORS = ['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'like', 'ilike', 'contains', 'startsWith', 'endsWith', 'in', 'nin', 'isNull'];
/** Half of the filter keys are valid, so that random values reach the value coercion and the database. */
const filterKeyArb = fc.oneof(messyArb, fc.tuple(fc.constantFrom(...FILTER_FIELDS), fc.constantFrom(...OPERATORS)).map(([f, op]) => `${f}.${op}`));

const randomRequestArb = fc.oneof(
  fc.record({
    kind: fc.constant('list' as const),
    params: fc.array(fc.tuple(fc.oneof(fc.constantFrom(...PARAM_NAMES), filterKeyArb.map((k) => `filter[${k}]`)), paramValueArb), { minLength: 1, maxLength: 4 }),
    entity: fc.constantFrom('orders', 'customers'),
  }),
  fc.record({ kind: fc.constant('entity' as const), segment: messyArb.filter((s) => s !== '' && s !== '.' && s !== '..') }),
  fc.record({ kind: fc.constant('id' as const), segment: messyArb.filter((s) => s !== '' && s !== '.' && s !== '..'), expand: messyArb }),
);

// ---------------------------------------------------------------- (4) random write bodies

const WRITE_KEYS = ['customerId', 'productId', 'quantity', 'amount', 'status', 'note', 'orderedAt', 'id', 'createdAt', 'customer', 'colour'];
const writeValueArb = fc.oneof(
  fc.jsonValue({ maxDepth: 1 }),
  fc.double(),
  fc.integer(),
  fc.string({ unit: 'binary', maxLength: 5 }).map(wellFormed),
  fc.constantFrom('1e50', '-0', '2026-01-01T00:00:00Z', '0001-01-01', '', ' 1', '1.999', 1e308, -1e-300, 2 ** 53, '9'.repeat(40), 'a\u0000'),
);
const writeArb = fc.record({ body: fc.dictionary(fc.constantFrom(...WRITE_KEYS), writeValueArb, { maxKeys: 4 }), update: fc.boolean() });

describe.each(vendors)('record list properties on $name', (target) => {
  let ws: TestWorkspace;
  beforeAll(async () => {
    ws = await startWorkspace(target);
  });
  afterAll(async () => ws?.close());

  it('paging a filtered, sorted list with any page size returns every matching row exactly once', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...FILTERS), sortArb, fc.integer({ min: 1, max: 15 }), async (filter, sort, size) => {
        const base: [string, string][] = [...filter.params, ...sort.map((k): [string, string] => ['sort', `${k.field},${k.direction}`])];
        const reference = idsOf(await ws.call('GET', ws.records(`/orders${query([...base, ['size', '1000']])}`)));
        const expected = ORDER_MODEL.filter(filter.keep).map((r) => r.id);
        expect([...reference].sort((a, b) => Number(a) - Number(b))).toEqual(expected);
        const seen: unknown[] = [];
        const totalPages = Math.ceil(expected.length / size);
        for (let page = 0; page <= totalPages; page++) {
          const res = await ws.call('GET', ws.records(`/orders${query([...base, ['size', String(size)], ['page', String(page)]])}`));
          const ids = idsOf(res);
          expect(res.body.meta).toMatchObject({ page, size, totalElements: expected.length, totalPages });
          expect(ids.length).toBe(page < totalPages ? Math.min(size, expected.length - page * size) : 0);
          seen.push(...ids);
        }
        expect(new Set(seen).size).toBe(seen.length);
        expect(seen).toEqual(reference);
      }),
      { numRuns: 25 },
    );
  });

  it('for random fields and expand requests the output keys are exactly the requested set', async () => {
    await fc.assert(
      fc.asyncProperty(shapeRequestArb, async ({ expand, expanded, fields, id }) => {
        const params: [string, string][] = [];
        if (expand.length > 0) params.push(['expand', expand.join(',')]);
        if (fields !== null) params.push(['fields', fields.join(',')]);
        const shape = expectedShape(expanded, fields);
        const list = await ws.call('GET', ws.records(`/orders${query([...params, ['size', '50']])}`));
        expect(list.status, JSON.stringify(list.body)).toBe(200);
        const data = list.body.data as unknown[];
        expect(data).toHaveLength(45);
        data.forEach((record, i) => checkShape(record, shape, `list[${i}]`));
        const one = await ws.call('GET', ws.records(`/orders/${id}${query(params)}`));
        expect(one.status, JSON.stringify(one.body)).toBe(200);
        checkShape(one.body.data, shape, `get ${id}`);
      }),
      { numRuns: 40 },
    );
  });

  it('random strings in sort, fields, expand, filter keys and values and the entity path give 200 or 4xx, never 5xx, and change nothing', async () => {
    const before = await databaseDigest(ws);
    await fc.assert(
      fc.asyncProperty(randomRequestArb, async (request) => {
        let path: string;
        let echoed: string[];
        if (request.kind === 'list') {
          path = ws.records(`/${request.entity}${query(request.params)}`);
          echoed = request.params.flat();
        } else if (request.kind === 'entity') {
          path = ws.records(`/${encodeURIComponent(request.segment)}`);
          echoed = [request.segment];
        } else {
          path = ws.records(`/orders/${encodeURIComponent(request.segment)}${query([['expand', request.expand]])}`);
          echoed = [request.segment, request.expand];
        }
        const res = await ws.call('GET', path);
        expect(res.status, `${path} → ${JSON.stringify(res.body)}`).toBeLessThan(500);
        expect(res.status === 200 || (res.status >= 400 && res.status < 500), `${path} → ${res.status}`).toBe(true);
        if (res.status === 200) expect(res.body).toHaveProperty('data');
        else expect(typeof res.body?.error?.code, `${path} → ${JSON.stringify(res.body)}`).toBe('string');
        expectNoLeak(res.body, echoed.flatMap((e) => [e, ...e.split(/[.,;]/)]));
        expect((await tableDigest(ws, 'orders')).count).toBe(before.orders?.count);
      }),
      { numRuns: 150 },
    );
    expect(await databaseDigest(ws)).toEqual(before);
  });

  it('random create and update bodies give 2xx or 4xx, never 5xx, and a refused write changes nothing', async () => {
    await fc.assert(
      fc.asyncProperty(writeArb, async ({ body, update }) => {
        const before = await tableDigest(ws, 'orders');
        const payload = update ? body : { customerId: 1, amount: 1, orderedAt: '2026-01-01T00:00:00Z', ...body };
        const res = update ? await ws.call('PUT', ws.records('/orders/3'), { body: payload }) : await ws.call('POST', ws.records('/orders'), { body: payload });
        const where = `${update ? 'PUT' : 'POST'} ${JSON.stringify(payload)} → ${res.status} ${JSON.stringify(res.body)}`;
        expect(res.status, where).toBeLessThan(500);
        if (res.status >= 400) {
          expect(typeof res.body?.error?.code, where).toBe('string');
          expect(await tableDigest(ws, 'orders'), where).toEqual(before);
        }
      }),
      { numRuns: 60 },
    );
  });
});
