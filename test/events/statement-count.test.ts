/**
 * What capture costs in statements (docs/change-events.md, "Cost"): with events off a write sends
 * exactly what it sent before; with `api` it adds, inside its transaction, one read of the written
 * row and one INSERT of the event, and after the commit the assigner's transaction of four
 * statements (lock, read the range, number it, keep the last position).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, startWorkspace, type TestWorkspace } from '../support/harness.ts';
import { vendorsToRun } from '../support/vendors.ts';
import { counting, type Counted } from '../support/statement-count.ts';

const vendors = await vendorsToRun();
const ORDER = { customerId: 2, amount: 12.5, quantity: 3, orderedAt: '2026-03-01T12:00:00Z' };


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
    const line = (name: string, o: Counted, a: Counted) => `${name}: off ${o.statements.length} stmt/${o.transactions} tx, api ${a.statements.length} stmt/${a.transactions} tx`;
    console.log(`[${target.name}] ${line('create', off.create, api.create)}; ${line('update', off.update, api.update)}; ${line('delete', off.remove, api.remove)}`);
    for (const key of ['create', 'update', 'remove'] as const) {
      expect(off[key].transactions, key).toBe(0);
      expect(api[key].transactions, key).toBe(off[key].transactions + 2);
      // MariaDB's create reads its written row apart inside a transaction (one statement more).
      const apart = target.name === 'mariadb' && key === 'create' ? 1 : 0;
      expect(api[key].statements.length, key).toBe(off[key].statements.length + 2 + 4 + apart);
    }
  });
});
