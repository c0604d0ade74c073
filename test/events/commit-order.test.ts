/**
 * Positions in commit order (docs/change-events.md, "Positions"): two transactions, the one that
 * appended its event first commits last. A reader that read up to the first commit's position and
 * resumes after it still gets the late event; reading by arrival number (`seq > last`) misses it,
 * which is why positions are given after commit. PGlite runs one transaction at a time (its single
 * session holds the database for a transaction's length), so it cannot commit out of order and is
 * not in this test.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, startWorkspace, type TestWorkspace } from '../support/harness.ts';
import { vendorsToRun } from '../support/vendors.ts';
import { EventRecorder } from '../../core/events/capture.ts';
import { readChanges } from '../../core/events/feed.ts';
import { assignPositions } from '../../core/events/positions.ts';
import { ensureEventTables, eventsTable } from '../../core/events/tables.ts';
import { readScope } from '../../core/query/read.ts';
import { NO_POLICY } from '../../core/query/plan.ts';
import { render, sql } from '../../core/sql.ts';
import type { Database } from '../../dialects/dialect.ts';

const vendors = (await vendorsToRun()).filter((target) => target.name !== 'pglite');

function gate(): { wait: Promise<void>; open: () => void } {
  let open = (): void => undefined;
  const wait = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { wait, open };
}

describe.each(vendors)('positions follow commit order on $name', (target) => {
  let ws: TestWorkspace;
  beforeAll(async () => {
    ws = await startWorkspace(target);
    const res = await ws.call('PATCH', ws.admin('/entities/orders'), { body: { events: 'api' }, token: ADMIN_TOKEN });
    expect(res.status).toBe(200);
  });
  afterAll(async () => ws?.close());

  it('an event appended first and committed last is still after every position a reader has seen', async () => {
    const runtime = await ws.service.services.workspaces.bySlug(ws.org, ws.ws);
    const database: Database = runtime.database;
    const scope = readScope(runtime, 'orders', NO_POLICY);
    const page = (since: number) => readChanges(database, runtime.workspace.id, 'orders', { since, size: 100 }, () => 'id');
    await ensureEventTables(database);
    const start = Number((await page(0)).meta.nextSince);

    const appendedA = gate();
    const commitA = gate();
    const late = database.driver.transaction(async (tx) => {
      const recorder = new EventRecorder(database, tx, scope);
      await recorder.written('update', 1);
      await recorder.flush();
      appendedA.open();
      await commitA.wait;
    });
    await appendedA.wait;
    await database.driver.transaction(async (tx) => {
      const recorder = new EventRecorder(database, tx, scope);
      await recorder.written('update', 2);
      await recorder.flush();
    });
    await assignPositions(database);
    const first = await page(start);
    expect(first.data.map((e) => e.id)).toEqual([2]);
    const seen = first.meta.nextSince;

    // What a reader by arrival number would have kept: the highest committed seq so far.
    const { rows } = await database.driver.query(render(sql`SELECT MAX(seq) AS seq FROM ${eventsTable(database)}`, database.dialect.sql));
    const lastSeq = Number(rows[0]?.seq);

    commitA.open();
    await late;
    const rest = await page(Number(seen));
    expect(rest.data.map((e) => e.id)).toEqual([1]);
    expect(BigInt(rest.data[0]?.position ?? 0)).toBeGreaterThan(BigInt(seen));

    const bySeq = await database.driver.query(render(sql`SELECT record_id FROM ${eventsTable(database)} WHERE seq > ${lastSeq}`, database.dialect.sql));
    expect(bySeq.rows).toEqual([]);
  });
});
