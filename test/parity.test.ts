/**
 * Cross-vendor parity: the whole service on MariaDB and on the PostgreSQL server, each against the
 * same requests on PGlite: every JSON answer must be byte-identical after sorting keys, auto-set
 * timestamps (createdAt/updatedAt) left out. Under the conformance kit, the plugin's database
 * against PGlite.
 */
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService } from '../server/start.ts';
import { ADMIN_TOKEN, fetchJson, type ApiResponse } from './support/harness.ts';
import { mariadbTarget } from './support/mysql-target.ts';
import { pgliteTarget, postgresTarget, vendorsToRun, type ProvisionedDatabase, type VendorTarget } from './support/vendors.ts';

const servers = await vendorsToRun([mariadbTarget, postgresTarget]);

interface Workspace {
  call(method: string, path: string, body?: unknown): Promise<ApiResponse>;
  /** `/api/v1/acme/shop` + path. */
  records(path: string): string;
  viewUuid(entity: string): Promise<string>;
  close(): Promise<void>;
}

async function startWorkspace(target: VendorTarget): Promise<Workspace> {
  const service = await startService({ adminToken: ADMIN_TOKEN, logger: pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }), ...(target.dialects ? { dialects: target.dialects } : {}) });
  let db: ProvisionedDatabase | undefined;
  try {
    db = await target.provision(service, true);
    const admin = (method: string, path: string, body?: unknown) => fetchJson(`${service.url}${path}`, method, body === undefined ? {} : { body }, ADMIN_TOKEN);
    const org = await admin('POST', '/api/admin/v1/orgs', { slug: 'acme', name: 'acme' });
    if (org.status !== 201) throw new Error(`org: ${JSON.stringify(org.body)}`);
    const ws = await admin('POST', '/api/admin/v1/orgs/acme/workspaces', { slug: 'shop', name: 'shop', database: db.database });
    if (ws.status !== 201) throw new Error(`workspace: ${JSON.stringify(ws.body)}`);
    const key = await admin('POST', '/api/admin/v1/orgs/acme/workspaces/shop/api-keys', { name: 'test' });
    const apiKey = String(key.body?.data?.key);
    const provisioned = db;
    return {
      call: (method, path, body) => fetchJson(`${service.url}${path}`, method, body === undefined ? {} : { body }, apiKey),
      records: (path) => `/api/v1/acme/shop${path}`,
      async viewUuid(entity) {
        const views = await admin('GET', '/api/admin/v1/orgs/acme/workspaces/shop/views');
        const view = (views.body?.data as { uuid: string; entity: string; isDefault: boolean }[]).find((v) => v.entity === entity && v.isDefault);
        if (!view) throw new Error(`no default view of ${entity}: ${JSON.stringify(views.body)}`);
        return view.uuid;
      },
      async close() {
        await provisioned.drop();
        await service.close();
      },
    };
  } catch (error) {
    await db?.drop().catch(() => undefined);
    await service.close();
    throw error;
  }
}

const VOLATILE = new Set(['createdAt', 'updatedAt']);

/** JSON with sorted keys, auto-set timestamps (and `volatile` keys) removed. */
function canonical(value: unknown, volatile: ReadonlySet<string> = VOLATILE): string {
  const strip = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(strip);
    if (v && typeof v === 'object') {
      return Object.fromEntries(Object.entries(v).filter(([k]) => !volatile.has(k)).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, x]) => [k, strip(x)]));
    }
    return v;
  };
  return JSON.stringify(strip(value));
}

const where = (text: string): string => `where=${encodeURIComponent(text)}`;

/** `where=<formula>` (DESIGN §13): the same rows, counts and refusals on every vendor. */
const WHERE_READS = [
  `/orders?${where("status = 'paid' OR (amount > 100 AND customer.name LIKE 'A%')")}&size=100`,
  `/orders?${where('customer.vip AND quantity BETWEEN 2 AND 4')}&filter[status.neq]=new&expand=customer&size=100`,
  `/orders?${where("UPPER(note) LIKE 'NOTE 1%' OR note IS NULL")}&sort=amount,desc&size=100`,
  `/orders?${where("orderedAt >= '2026-05-01T00:00:00Z' AND product.price < 100")}&count=exact&size=3&page=1`,
  `/orders?${where('ROUND(amount / quantity, 1) > 20.5 AND NOT (productId IN (1, 3))')}&size=100`,
  `/customers?${where("birthDate > '1975-01-01' AND region.name IN ('North', 'Ωmega 東京')")}&size=100`,
  `/orders?${where('amount + 1')}`,
  `/orders?${where("status = 'x'; DROP TABLE orders")}`,
];

/** One-to-many expansion (DESIGN §13): the same arrays, limits, orders and refusals on every vendor. */
const ARRAY_READS = [
  '/customers?expand=orders&size=100',
  '/customers/2?expand=orders',
  `/customers?expand=orders&expandSize[orders]=2&expandSort[orders]=note,asc;amount,desc&${where("status <> 'new' OR note IS NULL").replace('where=', 'expandWhere[orders]=')}&size=100`,
  '/customers?expand=orders&expandSize[orders]=3&expandSort[orders]=productId,desc;orderedAt,asc&sort=birthDate,desc&size=5&page=1',
  `/customers?expand=orders,orders.product&expandWhere[orders]=${encodeURIComponent("product.name LIKE 'M%' AND customer.vip")}&size=100`,
  '/regions?expand=customers,customers.orders&expandSize[customers]=2&expandSort[customers]=birthDate,asc&expandSize[customers.orders]=1&expandSort[customers.orders]=amount,desc',
  '/orders?expand=customer,customer.orders&expandSize[customer.orders]=2&expandSort[customer.orders]=quantity,asc&size=10',
  '/customers?expand=orders&fields=id,name,orders.amount,orders.note&size=100',
  '/customers?filter[orders.status.eq]=paid&filter[orders.quantity.gte]=4&expand=orders&expandSize[orders]=1&size=100',
  '/regions?filter[customers.orders.note.isNull]=true&filter[customers.vip.eq]=true&size=100',
  '/customers?expand=orders&expandSize[orders]=0',
  '/customers?sort=orders.amount',
  '/customers?fields=id,orders.amount',
  `/customers?expand=orders&expandWhere[orders]=${encodeURIComponent('amount +')}`,
];

const READS = [
  '/orders?size=100',
  '/orders?page=1&size=7',
  '/orders/1?expand=customer,customer.region',
  '/orders?expand=customer,product&size=100',
  '/orders?expand=customer.region&fields=id,amount,customer.name,customer.region.name&size=100',
  '/customers?size=100',
  '/customers?sort=birthDate,asc&size=100',
  '/customers?sort=birthDate,desc;id,asc&size=100',
  '/customers?sort=vip,desc;regionId,asc;id,asc&size=100',
  '/orders?sort=amount,desc;id,asc&size=100',
  '/orders?sort=productId,asc;id,desc&size=100',
  '/orders?sort=orderedAt,desc&size=5&page=2',
  '/orders?filter[status.eq]=paid&size=100',
  '/orders?filter[note.contains]=note 1&size=100',
  '/orders?filter[note.eq]=&size=100',
  '/orders?filter[amount.gt]=100.5&filter[quantity.gte]=3&size=100',
  '/orders?filter[amount.eq]=13.07',
  '/orders?filter[orderedAt.gte]=2026-05-01T00:00:00Z&size=100',
  '/orders?filter[orderedAt.lt]=2026-03-12T04:30:00%2B02:00&size=100',
  '/orders?filter[orderedAt.eq]=2026-02-11T01:30:00.000Z',
  '/orders?filter[customer.region.name.eq]=North&expand=customer&size=100',
  '/orders?filter[product.name.isNull]=true&size=100',
  '/orders?filter[status.in]=new,shipped&filter[productId.neq]=1&size=100',
  '/customers?filter[name.ilike]=a%25&size=100',
  '/customers?filter[name.like]=a%25&size=100',
  '/customers?filter[name.contains]=%25_&size=100',
  '/customers?filter[name.startsWith]=Zo&size=100',
  '/customers?filter[vip.eq]=true&size=100',
  '/customers?filter[birthDate.isNull]=true',
  '/customers?filter[birthDate.gt]=1975-01-01&size=100',
  '/regions?filter[name.ilike]=%25ΩMEGA%25',
  '/orders?count=estimated&size=3',
  '/orders?count=none&size=3',
  '/orders/abc',
  '/orders/999',
  '/orders?sort=nope',
  ...WHERE_READS,
  ...ARRAY_READS,
];

describe.each(servers)('HTTP parity: $name against PGlite', (server) => {
  let mysqlWs: Workspace;
  let pgliteWs: Workspace;
  beforeAll(async () => {
    mysqlWs = await startWorkspace(server);
    pgliteWs = await startWorkspace(pgliteTarget);
  });
  afterAll(async () => {
    await mysqlWs?.close();
    await pgliteWs?.close();
  });

  async function both(method: string, path: string, body?: unknown): Promise<[ApiResponse, ApiResponse]> {
    const my = await mysqlWs.call(method, mysqlWs.records(path), body);
    const pg = await pgliteWs.call(method, pgliteWs.records(path), body);
    return [my, pg];
  }

  async function expectSame(method: string, path: string, body?: unknown): Promise<ApiResponse> {
    const [my, pg] = await both(method, path, body);
    expect({ status: my.status, body: canonical(my.body) }, `${method} ${path}`).toEqual({ status: pg.status, body: canonical(pg.body) });
    return my;
  }

  it.each(READS)('GET %s', async (path) => {
    await expectSame('GET', path);
  });

  /** The cursor's payload (the sort-key values); its signature differs because each deployment has its own key. */
  const cursorPayload = (cursor: unknown): unknown => (typeof cursor === 'string' ? cursor.split('.')[0] : cursor);

  it.each([
    'size=7',
    'sort=amount,desc&size=10',
    'sort=productId,asc;orderedAt,desc&size=6',
    'sort=customer.regionId,desc;quantity,asc&filter[status.in]=new,paid&size=4',
    'expand=customer,customer.orders&expandSize[customer.orders]=2&expandSort[customer.orders]=note,desc&sort=amount,desc&size=8',
  ])('a cursor walk (%s) gives the same pages and the same cursor values', async (params) => {
    let after: [string | null, string | null] = [null, null];
    for (let n = 0; n < 50; n++) {
      const paging = (cursor: string | null) => (cursor === null ? 'paging=cursor' : `after=${encodeURIComponent(cursor)}`);
      const my = await mysqlWs.call('GET', mysqlWs.records(`/orders?${params}&${paging(after[0])}`));
      const pg = await pgliteWs.call('GET', pgliteWs.records(`/orders?${params}&${paging(after[1])}`));
      const comparable = (res: ApiResponse) => canonical({ ...res.body, meta: { ...res.body.meta, nextCursor: cursorPayload(res.body.meta?.nextCursor) } });
      expect({ status: my.status, body: comparable(my) }, `page ${n} of ${params}`).toEqual({ status: pg.status, body: comparable(pg) });
      after = [my.body.meta.nextCursor, pg.body.meta.nextCursor];
      if (after[1] === null) return;
    }
    throw new Error('the walk did not end');
  });

  it('creates, updates and deletes records with the same answers', async () => {
    const customer = await expectSame('POST', '/customers', { name: 'Émile 🚀', email: 'emile@example.com', regionId: 3, vip: true, birthDate: '1990-12-31' });
    expect(customer.status).toBe(201);
    expect(customer.body.data.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const id = customer.body.data.id as number;
    const order = await expectSame('POST', '/orders?expand=customer', { customerId: id, productId: 2, quantity: 4, amount: 12345.67, status: 'paid', note: 'ünïcode', orderedAt: '2026-11-22T10:00:00.123+01:00' });
    expect(order.status).toBe(201);
    const orderId = order.body.data.id as number;
    await expectSame('PUT', `/orders/${orderId}`, { note: 'changed', quantity: 2 });
    await expectSame('PUT', `/orders/${orderId}`, { note: 'changed', quantity: 2 });
    await expectSame('PUT', `/orders/${orderId}`, { productId: null, amount: '0.10' });
    await expectSame('PUT', `/customers/${id}`, { vip: false, birthDate: null });
    await expectSame('GET', `/orders/${orderId}?expand=customer,product`);
    await expectSame('DELETE', `/orders/${orderId}`);
    await expectSame('GET', `/orders/${orderId}`);
    await expectSame('DELETE', `/orders/${orderId}`);
    await expectSame('PUT', `/orders/${orderId}`, { note: 'gone' });
    await expectSame('GET', '/orders?size=100&sort=id,desc');
  });

  it('refuses the same bad writes with the same errors', async () => {
    await expectSame('POST', '/customers', { name: 'Dup', email: 'user1@example.com' });
    await expectSame('PUT', '/customers/2', { email: 'user1@example.com' });
    await expectSame('POST', '/orders', { customerId: 999, amount: 1, orderedAt: '2026-01-01T00:00:00Z' });
    await expectSame('DELETE', '/customers/1');
    await expectSame('POST', '/regions', { name: 'x'.repeat(51) });
    await expectSame('POST', '/regions', { id: 77, name: 'with id' });
    await expectSame('POST', '/orders', { customerId: 1 });
    await expectSame('GET', '/customers?size=100');
  });

  it('bulk inserts with ERROR, IGNORE and UPDATE give the same results', async () => {
    const myView = await mysqlWs.viewUuid('products');
    const pgView = await pgliteWs.viewUuid('products');
    const bulk = async (body: unknown) => {
      const my = await mysqlWs.call('POST', `/api/data/bulk/${myView}/insert`, body);
      const pg = await pgliteWs.call('POST', `/api/data/bulk/${pgView}/insert`, body);
      // The view uuid differs between the two services, and MySQL results may carry `warnings`
      // about the other unique keys ON DUPLICATE KEY UPDATE also matches (DESIGN §12 Bulk).
      const volatile = new Set([...VOLATILE, 'viewUuid', 'warnings']);
      expect({ status: my.status, body: canonical(my.body, volatile) }, JSON.stringify(body)).toEqual({ status: pg.status, body: canonical(pg.body, volatile) });
      return my;
    };
    await bulk({ rows: [{ sku: 'NEW-1', name: 'New one', price: 1.5 }, { sku: 'NEW-2', name: 'New two', price: '2.25' }] });
    await bulk({ rows: [{ sku: 'NEW-3', name: 'Three', price: 3 }, { sku: 'KB-01', name: 'Clash', price: 9 }] });
    const ignored = await bulk({ rows: [{ sku: 'KB-01', name: 'Keyboard 2', price: 59.9 }, { sku: 'NEW-4', name: 'Four', price: 4 }], onConflict: 'IGNORE', conflictColumns: ['sku'] });
    // No row carries an id, so the primary key cannot match: no warning.
    expect(ignored.body.data.warnings).toBeUndefined();
    await bulk({ rows: [{ sku: 'KB-01', name: 'Keyboard 2', price: 59.9 }, { sku: 'MS-02', name: 'Mouse', price: 19.5 }, { sku: 'NEW-5', name: 'Five', price: 5 }], onConflict: 'UPDATE', conflictColumns: ['sku'] });
    const byId = await bulk({ rows: [{ id: 1, sku: 'KB-01', name: 'Keyboard 3', price: 1 }, { sku: 'bad', name: 'x'.repeat(200), price: 1 }], onConflict: 'UPDATE' });
    // Matching on id, a row that also carries sku may match through the unique sku on MySQL only.
    if (server.upsertMatchesAnyUniqueKey) expect(byId.body.data.warnings).toEqual([expect.stringContaining('[sku]')]);
    else expect(byId.body.data.warnings).toBeUndefined();
    // Generated ids skipped by refused or conflicting rows differ (PostgreSQL sequences and
    // InnoDB AUTO_INCREMENT consume values differently), so the final rows compare without ids.
    const [my, pg] = await both('GET', '/products?size=100&sort=sku,asc');
    const withoutIds = (res: ApiResponse) => canonical(res.body, new Set([...VOLATILE, 'id']));
    expect(withoutIds(my)).toBe(withoutIds(pg));
  });
  // ---- Export (DESIGN §14): the same bytes / lines on every vendor ----
  const EXPORTS = [
    '/orders?format=csv&expand=customer.region,product&fields=id,amount,quantity,note,orderedAt,status,customer.name,customer.vip,customer.region.name,product.price&sort=amount,desc',
    `/orders?format=csv&${where("status = 'paid' OR note IS NULL")}&fields=id,note,orderedAt`,
    '/customers?format=csv&fields=id,name,email,vip,birthDate,regionId&filter[birthDate.isNull]=false',
    '/orders?format=ndjson&expand=customer,product&sort=orderedAt,desc',
    '/customers?format=ndjson&expand=orders&expandSize[orders]=2&expandSort[orders]=amount,desc',
    '/customers?format=csv&expand=orders',
    '/orders?format=csv&size=5',
  ];

  it.each(EXPORTS)('export GET %s', async (path) => {
    const [my, pg] = await both('GET', path);
    const comparable = (res: ApiResponse) => (typeof res.body === 'string' && path.includes('ndjson') ? res.body.split('\n').filter((l) => l !== '').map((l) => canonical(JSON.parse(l))) : canonical(res.body));
    expect({ status: my.status, body: comparable(my) }, path).toEqual({ status: pg.status, body: comparable(pg) });
  });
  // ---- end of export ----
});

// ---- Aggregates (DESIGN §14): begin ----------------------------------------
const agg = (params: string): string => `/orders/aggregate?${params}`;

/** Aggregates answer byte-identically on every vendor: values, order, NULL groups, refusals. */
const AGGREGATE_READS = [
  agg('groupBy=status&metrics=count,countDistinct:customerId,sum:amount,avg:amount,min:orderedAt,max:orderedAt'),
  agg('groupBy=customer.regionId,status&metrics=count,sum:quantity,avg:quantity&size=100'),
  agg('groupBy=productId&metrics=count,avg:amount,max:product.price&sort=avg:amount,desc'),
  agg('groupBy=customerId&metrics=count,sum:amount&sort=sum:amount,desc&size=5&page=1'),
  agg('groupBy=customerId&sort=count,desc&page=9'),
  agg('metrics=count,sum:amount,avg:amount,min:note,max:customer.birthDate'),
  agg(`groupBy=status&metrics=avg:amount&filter[customer.vip.eq]=true&${where("amount > 50 AND note IS NOT NULL")}`),
  agg('groupBy=note&metrics=count,min:amount&size=100'),
  agg('metrics=count,sum:amount&filter[status.eq]=nope'),
  '/customers/aggregate?groupBy=vip,regionId&metrics=count,min:birthDate,max:name',
  '/products/aggregate?metrics=sum:price,avg:price',
  agg('groupBy=nope'),
  agg('metrics=sum:status'),
  agg('groupBy=status&sort=sum:amount,desc'),
  agg(where('amount +')),
];

describe.each(servers)('HTTP parity of aggregates: $name against PGlite', (server) => {
  let serverWs: Workspace;
  let pgliteWs: Workspace;
  beforeAll(async () => {
    serverWs = await startWorkspace(server);
    pgliteWs = await startWorkspace(pgliteTarget);
  });
  afterAll(async () => {
    await serverWs?.close();
    await pgliteWs?.close();
  });

  it.each(AGGREGATE_READS)('GET %s', async (path) => {
    const theirs = await serverWs.call('GET', serverWs.records(path));
    const ours = await pgliteWs.call('GET', pgliteWs.records(path));
    expect({ status: theirs.status, body: canonical(theirs.body) }, path).toEqual({ status: ours.status, body: canonical(ours.body) });
  });
});
// ---- Aggregates: end ---------------------------------------------------------------------------
