/** The pool gauge of GET /metrics on a workspace over a real PostgreSQL or MariaDB server (DESIGN §16). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorkspace, type TestWorkspace } from '../../support/harness.ts';
import { mariadbTarget } from '../../support/mysql-target.ts';
import { postgresTarget, vendorsToRun } from '../../support/vendors.ts';
import { scrape } from './scrape.ts';

const targets = await vendorsToRun([postgresTarget, mariadbTarget]);

describe.each(targets)('pool gauge on $name', (target) => {
  let ws: TestWorkspace;
  beforeAll(async () => {
    ws = await startWorkspace(target);
  });
  afterAll(async () => ws?.close());

  it('reports total, idle and waiting connections of the workspace pool, named org/workspace', async () => {
    await Promise.all([1, 2, 3].map((id) => ws.call('GET', ws.records(`/orders/${id}`))));
    const metrics = await scrape(ws.url);
    const workspace = `${ws.org}/${ws.ws}`;
    const value = (state: string) => metrics.samples('wdapi_pool_connections').find((s) => s.labels?.workspace === workspace && s.labels?.state === state)?.value;
    const total = Number(value('total'));
    expect(total).toBeGreaterThanOrEqual(1);
    expect(Number(value('idle'))).toBeLessThanOrEqual(total);
    expect(Number(value('waiting'))).toBe(0);
  });

  it('a workspace that is gone leaves no series behind', async () => {
    await ws.service.services.workspaces.forget((await ws.service.services.workspaces.bySlug(ws.org, ws.ws)).workspace.id);
    const metrics = await scrape(ws.url);
    expect(metrics.samples('wdapi_pool_connections').filter((s) => s.labels?.workspace === `${ws.org}/${ws.ws}`)).toEqual([]);
  });
});
