/**
 * Property (DESIGN §14 "Aggregates"): for random group keys, metrics, filters and `where`, the
 * aggregate endpoint answers exactly what the test computes itself over every row the list
 * endpoint returns for the same filters (many-to-one values read through `expand`), on every vendor.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorkspace, type TestWorkspace } from '../support/harness.ts';
import { query } from '../support/http-expect.ts';
import { vendorsToRun } from '../support/vendors.ts';

const vendors = await vendorsToRun();

/** Group keys: own fields, nullable ones, and values through many-to-one paths. */
const KEYS = ['status', 'productId', 'customerId', 'quantity', 'note', 'customer.regionId', 'customer.vip', 'product.name'];
/** Every number here has at most two decimals, so the test sums exact cents. */
const NUMBERS = ['amount', 'quantity', 'product.price', 'customer.regionId'];
/** Text only where every collation orders alike (lower-case words, distinct first letters). */
const ORDERED = ['amount', 'quantity', 'orderedAt', 'status', 'product.name', 'product.price', 'customer.birthDate'];
const DISTINCT = ['customerId', 'productId', 'status', 'note', 'customer.vip', 'customer.regionId'];

const WHERES = [null, "status = 'paid' OR amount > 100", 'quantity BETWEEN 2 AND 4', 'note IS NULL OR customer.vip', 'product.price < 50', 'amount > 100000'];
const FILTERS: [string, string][][] = [[], [['filter[status.neq]', 'new']], [['filter[customer.regionId.isNull]', 'false']], [['filter[productId.in]', '1,3']]];

const metric = fc.oneof(
  fc.constant('count'),
  fc.constantFrom(...DISTINCT).map((f) => `countDistinct:${f}`),
  fc.constantFrom(...NUMBERS).chain((f) => fc.constantFrom(`sum:${f}`, `avg:${f}`)),
  fc.constantFrom(...ORDERED).chain((f) => fc.constantFrom(`min:${f}`, `max:${f}`)),
);

const requestArb = fc.record({
  groupBy: fc.uniqueArray(fc.constantFrom(...KEYS), { maxLength: 2 }),
  metrics: fc.uniqueArray(metric, { minLength: 1, maxLength: 4 }),
  where: fc.constantFrom(...WHERES),
  filters: fc.constantFrom(...FILTERS),
});

type Value = string | number | boolean | null;
type Rec = Record<string, unknown>;

function valueAt(record: Rec, path: string): Value {
  let node: unknown = record;
  for (const segment of path.split('.')) node = node && typeof node === 'object' ? (node as Rec)[segment] : null;
  return (node ?? null) as Value;
}

function metricOf(rows: readonly Rec[], spec: string): [family: string, field: string | null, value: Value] {
  const [kind = '', field = null] = spec.split(':') as [string, string?];
  if (kind === 'count' || field === null) return ['count', null, rows.length];
  const values = rows.map((r) => valueAt(r, field)).filter((v): v is Exclude<Value, null> => v !== null);
  if (kind === 'countDistinct') return [kind, field, new Set(values.map((v) => JSON.stringify(v))).size];
  if (values.length === 0) return [kind, field, null];
  const cents = values.reduce<number>((s, v) => s + Math.round(Number(v) * 100), 0);
  if (kind === 'sum') return [kind, field, cents / 100];
  if (kind === 'avg') return [kind, field, cents / 100 / values.length];
  const sorted = [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return [kind, field, (kind === 'min' ? sorted[0] : sorted[sorted.length - 1]) ?? null];
}

/** The answer the test expects, keyed by the group's JSON. */
function expected(records: readonly Rec[], groupBy: readonly string[], metrics: readonly string[]): Map<string, Rec> {
  const groups = new Map<string, Rec[]>();
  if (groupBy.length === 0) groups.set('{}', [...records]);
  for (const record of groupBy.length > 0 ? records : []) {
    const key = JSON.stringify(Object.fromEntries(groupBy.map((p) => [p, valueAt(record, p)])));
    groups.set(key, [...(groups.get(key) ?? []), record]);
  }
  const out = new Map<string, Rec>();
  for (const [key, rows] of groups) {
    const row: Rec = { group: JSON.parse(key) };
    for (const spec of metrics) {
      const [family, field, value] = metricOf(rows, spec);
      if (field === null) row[family] = value;
      else row[family] = { ...((row[family] as Rec | undefined) ?? {}), [field]: value };
    }
    out.set(key, row);
  }
  return out;
}

/** Takes `avg` out of both answers after checking it to 1e-12 relative; the rest must be equal. */
function expectAvgClose(actual: Rec, wanted: Rec, label: string): void {
  const got = (actual.avg ?? {}) as Record<string, number | null>;
  const want = (wanted.avg ?? {}) as Record<string, number | null>;
  expect(Object.keys(got).sort(), label).toEqual(Object.keys(want).sort());
  for (const [field, value] of Object.entries(want)) {
    const seen = got[field] ?? null;
    if (value === null || seen === null) expect(seen, label).toBe(value);
    else expect(Math.abs(seen - value) / Math.abs(value || 1), `${label} avg:${field} ${seen} vs ${value}`).toBeLessThanOrEqual(1e-12);
  }
  delete actual.avg;
  delete wanted.avg;
}

describe.each(vendors)('aggregate property on $name', (target) => {
  let ws: TestWorkspace;
  beforeAll(async () => {
    ws = await startWorkspace(target);
  });
  afterAll(async () => ws?.close());

  it('equals the same computation over the rows of the list endpoint', { timeout: 120_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(requestArb, async ({ groupBy, metrics, where, filters }) => {
        const common: [string, string][] = [...filters, ...(where === null ? [] : [['where', where] as [string, string]])];
        const list = await ws.call('GET', ws.records(`/orders${query([...common, ['expand', 'customer,product'], ['size', '1000']])}`));
        expect(list.status, JSON.stringify(list.body)).toBe(200);
        const params: [string, string][] = [...common, ['metrics', metrics.join(',')], ['size', '1000'], ...(groupBy.length > 0 ? [['groupBy', groupBy.join(',')] as [string, string]] : [])];
        const res = await ws.call('GET', ws.records(`/orders/aggregate${query(params)}`));
        const label = `${target.name}: ${query(params)}`;
        expect(res.status, `${label} ${JSON.stringify(res.body)}`).toBe(200);
        const wanted = expected(list.body.data as Rec[], groupBy, metrics);
        expect(res.body.meta, label).toEqual({ page: 0, size: 1000, totalElements: wanted.size });
        const actual = new Map((res.body.data as Rec[]).map((row) => [JSON.stringify(row.group), row]));
        expect([...actual.keys()].sort(), label).toEqual([...wanted.keys()].sort());
        for (const [key, row] of wanted) {
          const seen = { ...(actual.get(key) ?? {}) };
          const want = { ...row };
          expectAvgClose(seen, want, `${label} group ${key}`);
          expect(seen, `${label} group ${key}`).toEqual(want);
        }
      }),
      { numRuns: Number(process.env.AGGREGATE_RUNS ?? 25), endOnFailure: true },
    );
  });
});
