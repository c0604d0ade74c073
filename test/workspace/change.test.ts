/**
 * The one rule for metadata changes: a change runs in one control-store
 * transaction that bumps the workspace's version once, and a change that fails leaves nothing
 * behind, not even a new version.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorkspace, type TestWorkspace } from '../support/harness.ts';
import { pgliteTarget } from '../support/vendors.ts';

describe('WorkspaceCache.change', () => {
  let ws: TestWorkspace;
  let workspaceId = '';
  let viewUuid = '';
  const version = async () => ws.service.services.store.workspaceVersion(workspaceId);

  beforeAll(async () => {
    ws = await startWorkspace(pgliteTarget);
    const runtime = await ws.service.services.workspaces.bySlug(ws.org, ws.ws);
    workspaceId = runtime.workspace.id;
    viewUuid = runtime.defaultViewRecord('orders')?.uuid ?? '';
  });
  afterAll(async () => ws?.close());

  it('bumps the version once however many rows it writes, and the next read sees the change', async () => {
    const before = await version();
    const { workspaces } = ws.service.services;
    await workspaces.change(workspaceId, async (tx) => {
      await tx.insertRule({ viewUuid, column: 'status', claim: 'a', enabled: false });
      await tx.insertRule({ viewUuid, column: 'status', claim: 'b', enabled: false });
    });
    expect(await version()).toBe((before ?? 0) + 1);
    expect((await workspaces.byId(workspaceId)).rulesByView.get(viewUuid)?.map((r) => r.claim)).toEqual(['a', 'b']);
  });

  it('a change that fails writes nothing and leaves the version as it was', async () => {
    const before = await version();
    const { workspaces, store } = ws.service.services;
    await expect(
      workspaces.change(workspaceId, async (tx) => {
        await tx.insertRule({ viewUuid, column: 'status', claim: 'never-kept', enabled: false });
        throw new Error('refused half-way');
      }),
    ).rejects.toThrow('refused half-way');
    expect(await version()).toBe(before);
    expect((await store.listRules(viewUuid)).map((r) => r.claim)).not.toContain('never-kept');
  });

  it('every admin write goes through it: an entity option change and a whole sync each move the version by exactly one', async () => {
    const before = (await version()) ?? 0;
    expect((await ws.call('PATCH', ws.admin('/entities/orders'), { body: { maxExpandDepth: 2 } })).status).toBe(200);
    expect(await version()).toBe(before + 1);
    // A sync writes the introspection, entities, views and columns: still one change.
    expect((await ws.call('POST', ws.admin('/sync'))).status).toBe(200);
    expect(await version()).toBe(before + 2);
  });
});
