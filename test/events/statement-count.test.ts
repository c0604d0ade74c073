/**
 * What capture costs in statements (docs/change-events.md, "Cost"): with events off a write sends
 * exactly what it sent before; with `api` it adds, inside its transaction, one read of the written
 * row and one INSERT of the event, and after the commit the assigner's transaction of four
 * statements (lock, read the range, number it, keep the last position).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, startWorkspace, type ApiResponse, type TestWorkspace } from '../support/harness.ts';
import { vendorsToRun } from '../support/vendors.ts';
import type { CompiledSql } from '../../core/sql.ts';
import type { Executor } from '../../dialects/dialect.ts';

const vendors = await vendorsToRun();
const ORDER = { customerId: 2, amount: 12.5, quantity: 3, orderedAt: '2026-03-01T12:00:00Z' };

interface Counted {
  readonly res: ApiResponse;
  readonly statements: number;
  readonly transactions: number;
}

/** Runs `call` with the workspace driver's statements counted (the same seam test/write/one-statement.test.ts uses). */
async function counting(ws: TestWorkspace, call: () => Promise<ApiResponse>): Promise<Counted> {
  const runtime = await ws.service.services.workspaces.bySlug(ws.org, ws.ws);
  const driver = runtime.driver;
  const { query, transaction } = driver;
  let statements = 0;
  let transactions = 0;
  const record = (inner: Executor['query']) => async (statement: CompiledSql) => {
    statements += 1;
    return inner(statement);
  };
  driver.query = record(query.bind(driver));
  driver.transaction = async <T>(work: (tx: Executor) => Promise<T>): Promise<T> => {
    transactions += 1;
    return transaction.call(driver, (tx: Executor) => work({ query: record(tx.query.bind(tx)) })) as Promise<T>;
  };
  try {
    return { res: await call(), statements, transactions };
  } finally {
    driver.query = query;
    driver.transaction = transaction;
  }
}

describe.each(vendors)('statements per write with events off and api on $name', (target) => {
  let ws: TestWorkspace;
  const setEvents = async (events: string) => expect((await ws.call('PATCH', ws.admin('/entities/orders'), { body: { events }, token: ADMIN_TOKEN })).status).toBe(200);
  beforeAll(async () => {
    ws = await startWorkspace(target);
  });
  afterAll(async () => ws?.close());

  async function writes(): Promise<{ create: Counted; update: Counted; remove: Counted }> {
    // A first create warms the caches (and, with events on, creates the tables once per pool).
    await ws.call('POST', ws.records('/orders'), { body: ORDER });
    const create = await counting(ws, () => ws.call('POST', ws.records('/orders'), { body: ORDER }));
    expect(create.res.status).toBe(201);
    const id = create.res.body.data.id;
    const update = await counting(ws, () => ws.call('PUT', ws.records(`/orders/${id}`), { body: { amount: 3 } }));
    expect(update.res.status).toBe(200);
    const remove = await counting(ws, () => ws.call('DELETE', ws.records(`/orders/${id}`)));
    expect(remove.res.status).toBe(204);
    return { create, update, remove };
  }

  it('api adds two statements in the write and a four-statement assignment after it; off adds nothing', async () => {
    await setEvents('off');
    const off = await writes();
    await setEvents('api');
    const api = await writes();
    const line = (name: string, o: Counted, a: Counted) => `${name}: off ${o.statements} stmt/${o.transactions} tx, api ${a.statements} stmt/${a.transactions} tx`;
    console.log(`[${target.name}] ${line('create', off.create, api.create)}; ${line('update', off.update, api.update)}; ${line('delete', off.remove, api.remove)}`);
    for (const key of ['create', 'update', 'remove'] as const) {
      expect(off[key].transactions, key).toBe(0);
      expect(api[key].transactions, key).toBe(off[key].transactions + 2);
      // MariaDB's create reads its written row apart inside a transaction (one statement more).
      const apart = target.name === 'mariadb' && key === 'create' ? 1 : 0;
      expect(api[key].statements, key).toBe(off[key].statements + 2 + 4 + apart);
    }
  });
});
