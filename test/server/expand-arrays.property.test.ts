/**
 * Properties of one-to-many expansion (DESIGN §13 and "§13–14 exact answers",
 * Relations): an array is the list its entity's own endpoint returns for the parent. For random
 * expandSize, expandSort (nullable, computed and related keys, asc/desc) and expandWhere, each
 * customer's `orders` is byte for byte `GET /orders?filter[customerId.eq]=<id>` with the same
 * sort, size and where; each region's nested `customers` (with their `orders`) is byte for byte
 * `GET /customers?filter[regionId.eq]=<id>&expand=orders` with the same options one level up.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkFormula, evaluateFormula, printFormula, type Expr } from '../../core/formula/index.ts';
import type { Entity, SchemaModel } from '../../core/schema/model.ts';
import { ADMIN_TOKEN, startWorkspace, type TestWorkspace } from '../support/harness.ts';
import { expectList, query } from '../support/http-expect.ts';
import { vendorsToRun } from '../support/vendors.ts';
import { booleanFormula, ORDER_FORMULA_ROWS } from './where-arbitraries.ts';

const vendors = await vendorsToRun();

type Row = Record<string, unknown>;
type Params = [string, string][];

/** Nullable (note, productId, product.price), computed (lineTotal), related and plain keys of orders. */
const ORDER_SORT_FIELDS = ['id', 'status', 'quantity', 'amount', 'note', 'productId', 'orderedAt', 'lineTotal', 'customer.name', 'product.price'];
/** Nullable (regionId, birthDate) and plain keys of customers. */
const CUSTOMER_SORT_FIELDS = ['id', 'name', 'vip', 'regionId', 'birthDate', 'email'];

/** Formulas over customers for the nested arrays; the orders' come from where-arbitraries.ts. */
const CUSTOMER_ATOMS = ['vip', "name LIKE 'A%'", 'birthDate IS NULL', "birthDate > '1975-01-01'", 'id > 6', 'regionId = 1', "region.name <> 'South'", 'TRUE', 'FALSE'];

const customerWhereArb: fc.Arbitrary<string> = fc.letrec<{ w: string }>((tie) => ({
  w: fc.oneof(
    { depthSize: 'small' },
    fc.constantFrom(...CUSTOMER_ATOMS),
    tie('w').map((a) => `NOT (${a})`),
    fc.tuple(tie('w'), fc.constantFrom('AND', 'OR'), tie('w')).map(([a, op, b]) => `(${a}) ${op} (${b})`),
  ),
})).w;

const sortArb = (fields: readonly string[]) =>
  fc.uniqueArray(fc.record({ field: fc.constantFrom(...fields), direction: fc.constantFrom('asc', 'desc') }), { maxLength: 2, selector: (k) => k.field });

/** The options of one array, as the array's own list would take them. */
interface ArrayOptions {
  readonly size: number;
  readonly sort: readonly { field: string; direction: string }[];
  readonly where: string | null;
}

const arrayOptionsArb = (fields: readonly string[], where: fc.Arbitrary<string>): fc.Arbitrary<ArrayOptions> =>
  fc.record({ size: fc.integer({ min: 1, max: 8 }), sort: sortArb(fields), where: fc.option(where, { nil: null }) });

/** Orders' options keep the formula's tree: the evaluator decides whether every order evaluates it. */
const orderDrawArb = fc.record({ size: fc.integer({ min: 1, max: 8 }), sort: sortArb(ORDER_SORT_FIELDS), where: fc.option(booleanFormula(2), { nil: null }) });
type OrderDraw = typeof orderDrawArb extends fc.Arbitrary<infer D> ? D : never;
const printed = (draw: OrderDraw): ArrayOptions => ({ ...draw, where: draw.where === null ? null : printFormula(draw.where) });
const customerOptionsArb = arrayOptionsArb(CUSTOMER_SORT_FIELDS, customerWhereArb);

const sortText = (options: ArrayOptions): string => options.sort.map((k) => `${k.field},${k.direction}`).join(';');

/** `expandSize/expandSort/expandWhere[path]` for an array at `path`. */
function arrayParams(path: string, options: ArrayOptions): Params {
  const out: Params = [[`expandSize[${path}]`, String(options.size)]];
  if (options.sort.length > 0) out.push([`expandSort[${path}]`, sortText(options)]);
  if (options.where !== null) out.push([`expandWhere[${path}]`, options.where]);
  return out;
}

/** The same options for the entity's own list. */
function listParams(options: ArrayOptions): Params {
  const out: Params = [['size', String(options.size)]];
  if (options.sort.length > 0) out.push(['sort', sortText(options)]);
  if (options.where !== null) out.push(['where', options.where]);
  return out;
}

/** Failures and traps kept as examples: nullable keys both ways, a related key, an empty result. */
const EXAMPLES: readonly ArrayOptions[] = [
  { size: 3, sort: [{ field: 'note', direction: 'asc' }], where: null },
  { size: 8, sort: [{ field: 'productId', direction: 'desc' }, { field: 'lineTotal', direction: 'asc' }], where: 'note IS NULL OR quantity > 2' },
  { size: 1, sort: [{ field: 'product.price', direction: 'asc' }], where: "customer.name LIKE 'A%'" },
  { size: 2, sort: [], where: 'FALSE' },
];

describe.each(vendors)('one-to-many expansion properties on $name', (target) => {
  let ws: TestWorkspace;
  let model: SchemaModel;
  let orders: Entity;

  beforeAll(async () => {
    ws = await startWorkspace(target);
    const views = (await ws.call('GET', ws.admin('/views'), { token: ADMIN_TOKEN })).body.data as { uuid: string; entity: string; isDefault: boolean }[];
    const ordersView = views.find((v) => v.entity === 'orders' && v.isDefault);
    // Array items carry the default view's computed columns like the orders list does.
    const column = await ws.call('POST', '/api/columns', { body: { viewUuid: ordersView?.uuid, displayName: 'Line Total', formula: 'amount * quantity' } });
    expect(column.status, JSON.stringify(column.body)).toBe(201);
    const runtime = await ws.service.services.workspaces.bySlug(ws.org, ws.ws);
    model = runtime.model;
    orders = runtime.entity('orders');
  });
  afterAll(async () => ws?.close());

  const get = async (path: string, params: Params): Promise<Row[]> => expectList(await ws.call('GET', ws.records(`${path}${query(params)}`)));
  const json = (value: unknown): string => JSON.stringify(value);

  /**
   * False when the evaluator raises on some order: the database may raise too, and where it
   * does depends on the rows each statement happens to reach, so there is no agreed answer.
   */
  function ordersWhereIsTotal(ast: Expr | null): boolean {
    if (ast === null) return true;
    const checked = checkFormula(ast, { entity: orders, model });
    try {
      for (const row of ORDER_FORMULA_ROWS) evaluateFormula(checked, row);
      return true;
    } catch {
      return false;
    }
  }

  async function customersAgree(options: ArrayOptions): Promise<void> {
    const customers = await get('/customers', [['expand', 'orders'], ...arrayParams('orders', options), ['sort', 'id'], ['size', '100']]);
    expect(customers).toHaveLength(12);
    for (const customer of customers) {
      const own = await get('/orders', [['filter[customerId.eq]', String(customer.id)], ...listParams(options)]);
      expect(json(customer.orders), `customer ${String(customer.id)}: ${json(options)}`).toBe(json(own));
    }
  }

  it.each(EXAMPLES)('example: customers\' orders with %j equal each customer\'s own order list', async (options) => {
    await customersAgree(options);
  });

  it('each customer\'s orders array is the orders list of that customer with the same size, sort and where', { timeout: 180_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(orderDrawArb, async (draw) => {
        fc.pre(ordersWhereIsTotal(draw.where));
        await customersAgree(printed(draw));
      }),
      { numRuns: Number(process.env.EXPAND_RUNS ?? 30), endOnFailure: true },
    );
  });

  it('regions → customers → orders: each region\'s customers equal that region\'s customer list expanded one level down', { timeout: 180_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(customerOptionsArb, orderDrawArb, async (outer, draw) => {
        fc.pre(ordersWhereIsTotal(draw.where));
        const inner = printed(draw);
        const regions = await ws.call('GET', ws.records(`/regions${query([['expand', 'customers,customers.orders'], ...arrayParams('customers', outer), ...arrayParams('customers.orders', inner), ['sort', 'id']])}`));
        const direct = (regionId: unknown) => get('/customers', [['filter[regionId.eq]', String(regionId)], ['expand', 'orders'], ...listParams(outer), ...arrayParams('orders', inner)]);
        const regionRows = expectList(regions);
        expect(regions.body.meta.expandSizes).toEqual({ customers: outer.size, 'customers.orders': inner.size });
        for (const region of regionRows) {
          expect(json(region.customers), `region ${String(region.id)}: ${json({ outer, inner })}`).toBe(json(await direct(region.id)));
        }
      }),
      { numRuns: Number(process.env.EXPAND_RUNS ?? 20), endOnFailure: true },
    );
  });
});
