/**
 * How long the workspace cache trusts an entry: while a change listener hears
 * every change it trusts it until a notice drops it; without one (embedded store, or the
 * listener's connection down) it checks the stored version after a second, as before.
 * "Another instance" is a change written to the store without going through this cache.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startWorkspace, type TestWorkspace } from '../support/harness.ts';
import { pgliteTarget } from '../support/vendors.ts';
import type { WorkspaceCache } from '../../core/workspace/cache.ts';

describe('WorkspaceCache freshness', () => {
  let ws: TestWorkspace;
  let cache: WorkspaceCache;
  let workspaceId = '';
  let depth = 3;

  /** An entity option changed as another instance would: in the store, not through this cache. */
  async function changeElsewhere(): Promise<number> {
    depth += 1;
    await cache.store.transaction(async (tx) => {
      const options = (await tx.listEntities(workspaceId)).find((e) => e.name === 'orders')?.options;
      await tx.saveEntityOptions(workspaceId, 'orders', { ...options!, maxExpandDepth: depth });
      await tx.bumpVersion(workspaceId);
    });
    return depth;
  }
  const cachedDepth = async () => (await cache.byId(workspaceId)).entityRecord('orders').options.maxExpandDepth;
  const later = (ms: number) => vi.setSystemTime(Date.now() + ms);

  beforeAll(async () => {
    ws = await startWorkspace(pgliteTarget);
    cache = ws.service.services.workspaces;
    workspaceId = (await cache.bySlug(ws.org, ws.ws)).workspace.id;
  });
  afterEach(() => {
    cache.setListening(false);
    vi.useRealTimers();
  });
  afterAll(async () => ws?.close());

  it('without a listener, a change elsewhere is seen after the one-second check, not before', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const before = await cachedDepth();
    const changed = await changeElsewhere();
    later(500);
    expect(await cachedDepth()).toBe(before);
    later(600);
    expect(await cachedDepth()).toBe(changed);
  });

  it('while listening, the entry is trusted past the second; the notice (invalidate) drops it at once', async () => {
    cache.setListening(true);
    vi.useFakeTimers({ toFake: ['Date'] });
    const before = await cachedDepth();
    const changed = await changeElsewhere();
    later(5000);
    expect(await cachedDepth()).toBe(before);
    cache.invalidate(workspaceId);
    expect(await cachedDepth()).toBe(changed);
  });

  it('when the listener goes down, entries older than a second are checked again', async () => {
    cache.setListening(true);
    vi.useFakeTimers({ toFake: ['Date'] });
    const before = await cachedDepth();
    const changed = await changeElsewhere();
    later(5000);
    expect(await cachedDepth()).toBe(before);
    cache.setListening(false);
    expect(await cachedDepth()).toBe(changed);
  });

  it('when the listener comes back, everything cached is dropped (changes may have been missed)', async () => {
    const before = await cachedDepth();
    const changed = await changeElsewhere();
    expect(await cachedDepth()).toBe(before);
    cache.setListening(true);
    expect(await cachedDepth()).toBe(changed);
  });

  it('the slug lookup follows the same rule', async () => {
    cache.setListening(true);
    vi.useFakeTimers({ toFake: ['Date'] });
    const first = await cache.bySlug(ws.org, ws.ws);
    later(5000);
    expect(await cache.bySlug(ws.org, ws.ws)).toBe(first);
    cache.invalidate(workspaceId);
    expect(await cache.bySlug(ws.org, ws.ws)).not.toBe(first);
  });
});
