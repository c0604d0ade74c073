/**
 * DESIGN §11: /readyz answers from the process, never waiting on a workspace pool. A workspace
 * whose every pooled connection is held (reads of a table locked from outside the service) must
 * not take the instance out of a balancer: readiness still answers at once. PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, type TestWorkspace, startWorkspace } from '../support/harness.ts';
import { pollUntil } from '../support/poll.ts';
import { lockTable, type TableLock } from '../support/table-lock.ts';
import { vendorsToRun } from '../support/vendors.ts';

const vendors = (await vendorsToRun()).filter((v) => v.name === 'postgres');
const POOL = 2;
/** A hang detector, not a timing assertion: readiness answers in milliseconds. */
const BOUND_MS = 5000;

describe.each(vendors)('/readyz with a held workspace pool on $name', (target) => {
  let ws: TestWorkspace;
  let lock: TableLock | undefined;

  beforeAll(async () => {
    ws = await startWorkspace(target);
    const patched = await ws.call('PATCH', `/api/admin/v1/orgs/${ws.org}/workspaces/${ws.ws}`, { token: ADMIN_TOKEN, body: { database: { poolSize: POOL } } });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
  });
  afterAll(async () => {
    await lock?.release();
    await ws?.close();
  });

  it('answers 200 ready within the bound while every connection of the pool is held', async () => {
    expect((await fetch(`${ws.url}/readyz`)).status).toBe(200);
    lock = await lockTable(String(ws.db.database.url), 'public.orders');
    const held = Array.from({ length: POOL + 1 }, () => ws.call('GET', ws.records('/orders/1')));
    expect(await pollUntil(async () => (await lock!.waiting()) === POOL, 10_000)).toBe(true);
    const res = await fetch(`${ws.url}/readyz`, { signal: AbortSignal.timeout(BOUND_MS) });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: 'ready' });
    await lock.release();
    for (const r of await Promise.all(held)) expect(r.status).toBe(200);
  });
});
