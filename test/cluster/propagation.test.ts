/**
 * DESIGN §16 as deployed: three compiled instances behind HAProxy. A change made through
 * the balancer (so through one instance) is seen on all three, directly and through the balancer;
 * the latency is printed against the design bound of 250 ms. With the listeners' connections
 * terminated, changes still arrive within 1.5 s (the version-check fallback) and the listeners
 * reconnect.
 *
 * How a case can fail: while an instance listens, it checks the stored version only every 30 s
 * (core/workspace/cache.ts LISTENING_RECHECK_MS). Each case first asks every instance (which runs
 * any check that is due), then makes the change and waits at most NOTICE_WINDOW_MS, far short of
 * 30 s: only the notice can make an instance see the change in that window.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, fetchJson, type ApiResponse } from '../support/harness.ts';
import { postgresTarget, vendorsToRun } from '../support/vendors.ts';
import { nowSeconds, TestIdp } from '../support/test-idp.ts';
import { scrape } from '../plugins/metrics/scrape.ts';
import { clusterSkipReason, listenerBackends, startCluster, terminateListeners, type Cluster } from './cluster.ts';
import { createControlDatabase, createWorkspace, type ClusterWorkspace, type ControlDatabase } from './workspace.ts';

const skipReason = clusterSkipReason() ?? ((await vendorsToRun([postgresTarget])).length === 0 ? 'skipped: PostgreSQL at 127.0.0.1:5432 is unreachable' : undefined);
if (skipReason) console.warn(`test/cluster: ${skipReason}`);

/** The design bound (DESIGN §16); printed beside each latency, not asserted on a shared machine. */
const DESIGN_BOUND_MS = 250;
/** Far below the 30 s check while listening: a change seen in this window came by notice. */
const NOTICE_WINDOW_MS = 5000;
/** The requirement while the listening connection is down: the 1 s version check, plus a request. */
const FALLBACK_MS = 1500;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Milliseconds from `from` until an answer of `check` holds, asked every 5 ms until `deadline` (epoch ms); Infinity if never. */
async function msUntil(check: () => Promise<boolean>, from: number, deadline: number): Promise<number> {
  for (;;) {
    if (await check()) return Date.now() - from;
    if (Date.now() > deadline) return Number.POSITIVE_INFINITY;
    await sleep(5);
  }
}

describe.skipIf(skipReason !== undefined)(`a change through one instance reaches all three behind HAProxy${skipReason ? ` (${skipReason})` : ''}`, () => {
  let control: ControlDatabase;
  let cluster: Cluster;
  let ws: ClusterWorkspace;
  let idp: TestIdp;
  let user = '';
  let ordersView = '';
  const balancer = () => cluster.balancer.url;
  const orders = (url: string, query = '?size=1', token = ws.key) => ws.records(url, 'GET', `/orders${query}`, { token });

  /** Passes when a change that is "seen" on `url` by `seen(answer of ask(url))`. */
  interface Probe {
    ask(url: string): Promise<ApiResponse>;
    seen(answer: ApiResponse): boolean;
  }

  /** Through the balancer until three answers in a row come from the three instances, all seeing the change. */
  async function seenThroughBalancer(probe: Probe): Promise<boolean> {
    const servedBy = new Set<string>();
    for (let i = 0; i < cluster.instances.length; i++) {
      const answer = await probe.ask(balancer());
      if (!probe.seen(answer)) return false;
      servedBy.add(String(answer.headers.get('x-served-by')));
    }
    return servedBy.size === cluster.instances.length;
  }

  /**
   * Asks every instance (none sees the change yet), makes `change`, then measures when each instance
   * (asked directly) and the balancer (all three in a row) see it; prints and returns the latencies.
   */
  async function seenEverywhere(name: string, probe: Probe, change: () => Promise<void>, windowMs = NOTICE_WINDOW_MS): Promise<number[]> {
    for (const instance of cluster.instances) expect(probe.seen(await probe.ask(instance.url)), `${name}: ${instance.name} sees it before the change`).toBe(false);
    await change();
    const changedAt = Date.now();
    const deadline = changedAt + windowMs;
    const direct = await Promise.all(cluster.instances.map((i) => msUntil(async () => probe.seen(await probe.ask(i.url)), changedAt, deadline)));
    const viaBalancer = await msUntil(() => seenThroughBalancer(probe), changedAt, deadline);
    const slowest = Math.max(...direct);
    console.log(
      `${name}: seen on ${cluster.instances.map((i, n) => `${i.name} ${direct[n]} ms`).join(', ')}; through HAProxy on all three ${viaBalancer} ms` +
        ` (slowest instance ${slowest <= DESIGN_BOUND_MS ? 'within' : 'OVER'} the ${DESIGN_BOUND_MS} ms design bound)`,
    );
    const latencies = [...direct, viaBalancer];
    expect(latencies.every(Number.isFinite), `${name}: seen everywhere within ${windowMs} ms: ${latencies.join(', ')}`).toBe(true);
    return latencies;
  }

  /** The three listeners are connected (so each instance checks versions only every 30 s). */
  async function expectThreeListeners(): Promise<number[]> {
    const pids = await listenerBackends(control.url);
    expect(pids).toHaveLength(3);
    return pids;
  }

  beforeAll(async () => {
    control = await createControlDatabase('wdapi_cluster');
    cluster = await startCluster(control.url);
    ws = await createWorkspace(balancer());
    idp = await TestIdp.start();
    const issuer = idp.registerIssuer('/cluster');
    expect((await ws.admin(balancer(), 'PUT', '/identity-provider', { issuerUrl: issuer, defaultPermissions: 'READ_ONLY', enabled: true })).status).toBe(200);
    user = await idp.sign({ iss: issuer, sub: 'u1', cid: 1, exp: nowSeconds() + 3600, iat: nowSeconds() });
    const views = (await ws.admin(balancer(), 'GET', '/views')).body.data as { uuid: string; entity: string; isDefault: boolean }[];
    ordersView = views.find((v) => v.entity === 'orders' && v.isDefault)?.uuid ?? '';
    expect(ordersView).not.toBe('');
  }, 120_000);

  afterAll(async () => {
    await cluster?.stop();
    await idp?.close();
    await ws?.db.drop();
    await control?.drop();
  });

  const blocked: Probe = { ask: (url) => orders(url), seen: (answer) => answer.status === 503 };
  const open: Probe = { ask: (url) => orders(url), seen: (answer) => answer.status === 200 };
  const setFlag = async () => void expect((await ws.admin(balancer(), 'PUT', '/entities/orders/migration', { blocksReads: true, blocksWrites: true })).status).toBe(200);
  const endFlag = async () => void expect((await ws.admin(balancer(), 'DELETE', '/entities/orders/migration')).status).toBe(204);

  it('a migration flag, and its end; every instance counts the notices it heard', async () => {
    await expectThreeListeners();
    const heard = async () => Promise.all(cluster.instances.map(async (i) => (await scrape(i.url)).total('wdapi_change_notifications_received_total')));
    const before = await heard();
    await seenEverywhere('migration flag', blocked, setFlag);
    await seenEverywhere('migration flag ended', open, endFlag);
    const after = await heard();
    expect(after.map((n, i) => n - (before[i] ?? 0) >= 2), `notices heard: ${before} → ${after}`).toEqual([true, true, true]);
  });

  it('an RLS rule', async () => {
    const all = Number((await orders(balancer(), '?size=1', user)).body.meta.totalElements);
    const narrowed: Probe = { ask: (url) => orders(url, '?size=1', user), seen: (answer) => answer.status === 200 && Number(answer.body.meta.totalElements) < all };
    const add = async () => void expect((await fetchJson(`${balancer()}/api/views/${ordersView}/rls-rules`, 'POST', { body: { column: 'customerId', claim: 'cid' } }, ADMIN_TOKEN)).status).toBe(201);
    await seenEverywhere('RLS rule', narrowed, add);
  });

  it('a revoked API key', async () => {
    const { id, key } = (await ws.admin(balancer(), 'POST', '/api-keys', { name: 'doomed' })).body.data as { id: string; key: string };
    const refused: Probe = { ask: (url) => orders(url, '?size=1', key), seen: (answer) => answer.status === 401 };
    await seenEverywhere('API key revoked', refused, async () => void expect((await ws.admin(balancer(), 'DELETE', `/api-keys/${id}`)).status).toBe(204));
  });

  it('an entity option (last: it narrows the default fields of orders)', async () => {
    const narrowed: Probe = { ask: (url) => orders(url), seen: (answer) => answer.status === 200 && Object.keys(answer.body.data[0] ?? {}).join() === 'id' };
    await seenEverywhere('entity option', narrowed, async () => void expect((await ws.admin(balancer(), 'PATCH', '/entities/orders', { defaultFields: ['id'] })).status).toBe(200));
  });

  it('an internal token issued through the balancer is accepted by every instance (PUBLIC_URL is the balancer on all three)', async () => {
    const grant = await fetchJson(`${balancer()}/oauth/token`, 'POST', { token: null, body: { grant_type: 'client_credentials', client_id: ws.keyId, client_secret: ws.key } });
    expect(grant.status).toBe(200);
    const token = String(grant.body.access_token);
    for (const instance of cluster.instances) expect((await orders(instance.url, '?size=1', token)).status, instance.name).toBe(200);
  });

  it('with the listening connections terminated, a change arrives within 1.5 s and the listeners reconnect', async () => {
    const before = await expectThreeListeners();
    const probe: Probe = { ask: (url) => orders(url), seen: (answer) => answer.status === 503 };
    const terminated = await terminateListeners(control.url);
    expect(terminated.sort()).toEqual([...before].sort());
    await seenEverywhere('migration flag, listeners terminated', probe, setFlag, FALLBACK_MS);
    const reconnectedIn = await msUntil(async () => {
      const pids = await listenerBackends(control.url);
      return pids.length === 3 && pids.every((pid) => !before.includes(pid));
    }, Date.now(), Date.now() + 10_000);
    console.log(`listeners reconnected ${reconnectedIn} ms after the change`);
    expect(reconnectedIn).toBeLessThan(Infinity);
    await seenEverywhere('migration flag ended, after reconnecting', open, endFlag);
  });
});
