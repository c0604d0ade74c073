/**
 * Compiled reads are cached per request shape for owners (core/query/read-cache.ts): an
 * owner's cached statement must never answer an external user, whose rule binds their claims, and
 * a cached get-by-id shape must bind each request's own id. The owner reads first, so the shapes
 * are in the cache when the external users ask.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectList } from '../../support/http-expect.ts';
import { postgresTarget, vendorsToRun } from '../../support/vendors.ts';
import { addRule } from '../../support/auth.ts';
import { startRlsWorkspace, type RlsContext } from './rls-fixture.ts';

const vendors = await vendorsToRun([postgresTarget]);

describe.each(vendors)('cached reads and row-level security on $name', (target) => {
  let c: RlsContext;
  let alice: string;
  let bob: string;
  const tasks = (suffix: string) => c.ws.records(`/tasks${suffix}`);

  beforeAll(async () => {
    c = await startRlsWorkspace(target, '/rls-read-cache');
    alice = await c.token({ sub: 'alice', org: { id: 1 } });
    bob = await c.token({ sub: 'bob', org: { id: 2 } });
    await addRule(c.ws, c.views.tasks?.uuid ?? '', { column: 'owner', claim: 'sub' });
    await c.load([{ id: 1, org_id: 1, name: 'Apollo' }], [
      { id: 1, project_id: 1, owner: 'alice', title: 'a1' },
      { id: 2, project_id: 1, owner: 'bob', title: 'b1' },
      { id: 3, project_id: null, owner: 'alice', title: 'a2' },
    ]);
  });
  afterAll(async () => c?.close());

  it('a list shape the owner read is filtered for each external user', async () => {
    const path = tasks('?size=10&sort=id&count=none');
    expect(expectList(await c.ws.call('GET', path)).map((r) => r.id)).toEqual([1, 2, 3]);
    expect(expectList(await c.ws.call('GET', path, { token: alice })).map((r) => r.id)).toEqual([1, 3]);
    expect(expectList(await c.ws.call('GET', path, { token: bob })).map((r) => r.id)).toEqual([2]);
    expect(expectList(await c.ws.call('GET', path)).map((r) => r.id)).toEqual([1, 2, 3]);
  });

  it('a get-by-id shape the owner read binds each id, and hides the rows of others', async () => {
    for (const id of [1, 2, 3]) expect((await c.ws.call('GET', tasks(`/${id}`))).body.data).toMatchObject({ id });
    expect((await c.ws.call('GET', tasks('/2'), { token: alice })).status).toBe(404);
    expect((await c.ws.call('GET', tasks('/3'), { token: alice })).body.data).toMatchObject({ id: 3, owner: 'alice' });
    expect((await c.ws.call('GET', tasks('/2'), { token: bob })).body.data).toMatchObject({ id: 2, owner: 'bob' });
    expect((await c.ws.call('GET', tasks('/1?fields=title'))).body.data).toEqual({ title: 'a1' });
    expect((await c.ws.call('GET', tasks('/3?fields=title'))).body.data).toEqual({ title: 'a2' });
  });
});
