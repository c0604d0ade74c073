/**
 * The API key cache's rules: kept only while every change is heard, dropped by a
 * notice (or a change made here), never kept across a drop, unknown keys never kept. A counting
 * store stands in for the control store; test/control/change-notify.test.ts and
 * key-revocation.test.ts run the real thing between two instances.
 */
import { describe, expect, it } from 'vitest';
import { ApiKeyCache, type ApiKeySource } from '../../../plugins/auth/api-key/key-cache.ts';
import type { ApiKeyRecord } from '../../../core/workspace/types.ts';
import { apiKeyPlugin, verifyApiKey } from '../../../plugins/auth/api-key/api-key-plugin.ts';
import { ApiError } from '../../../core/errors.ts';
import { hashSecret } from '../../../plugins/auth/shared/secrets.ts';

const WS = '6f1c1a52-3a8e-4a57-9f61-1f0e2b1c9d10';
const OTHER_WS = '0b7e1f4c-8a51-4f0e-9d52-3c1e7a9b2d64';
const KEY = '0123456789abcdef';

/** Keys by id; counts lookups; `hold()` keeps the next lookups pending until `release()`. */
function countingStore(records: ApiKeyRecord[]) {
  const keys = new Map(records.map((r) => [r.id, r]));
  const state = { lookups: 0, held: [] as (() => void)[], holding: false };
  const store: ApiKeySource = {
    async findApiKey(id) {
      state.lookups += 1;
      const found = keys.get(id);
      if (state.holding) await new Promise<void>((resolve) => state.held.push(resolve));
      return found;
    },
  };
  return {
    store,
    state,
    keys,
    hold: () => void (state.holding = true),
    release: () => {
      state.holding = false;
      for (const resolve of state.held.splice(0)) resolve();
    },
  };
}

const record = (id: string, workspaceId = WS): ApiKeyRecord => ({ id, workspaceId, name: null, secretHash: 'x' });

/** Asks `times` times in a row (not concurrently); returns how many lookups reached the store. */
async function lookupsFor(cache: ApiKeyCache, fake: ReturnType<typeof countingStore>, id: string, times = 3): Promise<number> {
  const before = fake.state.lookups;
  for (let i = 0; i < times; i++) await cache.findApiKey(id);
  return fake.state.lookups - before;
}

describe('ApiKeyCache', () => {
  it('heard changes: every request asks the store until the listener is up, and again once it is down', async () => {
    const fake = countingStore([record(KEY)]);
    const cache = new ApiKeyCache(fake.store, 'heard');
    expect(await lookupsFor(cache, fake, KEY)).toBe(3);
    cache.setListening(true);
    expect(await lookupsFor(cache, fake, KEY)).toBe(1);
    cache.setListening(false);
    expect(await lookupsFor(cache, fake, KEY)).toBe(3);
    // Back up: nothing kept from before (changes made meanwhile were not heard).
    cache.setListening(true);
    expect(await lookupsFor(cache, fake, KEY)).toBe(1);
  });

  it('local changes (embedded store): kept from the start', async () => {
    const fake = countingStore([record(KEY)]);
    expect(await lookupsFor(new ApiKeyCache(fake.store, 'local'), fake, KEY)).toBe(1);
  });

  it('a key notice drops that key; a new key, unknown before, is found at once (unknown ids are not kept)', async () => {
    const fake = countingStore([record(KEY)]);
    const cache = new ApiKeyCache(fake.store, 'local');
    await cache.findApiKey(KEY);
    fake.keys.delete(KEY);
    cache.hear({ kind: 'apiKey', id: KEY, workspaceId: WS });
    expect(await cache.findApiKey(KEY)).toBeUndefined();
    expect(await lookupsFor(cache, fake, 'fedcba9876543210')).toBe(3);
    fake.keys.set('fedcba9876543210', record('fedcba9876543210'));
    expect(await cache.findApiKey('fedcba9876543210')).toEqual(record('fedcba9876543210'));
  });

  it('a workspace notice drops the keys of that workspace only', async () => {
    const fake = countingStore([record(KEY), record('1111111111111111', OTHER_WS)]);
    const cache = new ApiKeyCache(fake.store, 'local');
    await cache.findApiKey(KEY);
    await cache.findApiKey('1111111111111111');
    cache.hear({ kind: 'workspace', workspaceId: WS });
    expect(await lookupsFor(cache, fake, KEY, 1)).toBe(1);
    expect(await lookupsFor(cache, fake, '1111111111111111', 1)).toBe(0);
  });

  it('concurrent requests share one lookup', async () => {
    const fake = countingStore([record(KEY)]);
    const cache = new ApiKeyCache(fake.store, 'heard');
    fake.hold();
    const asked = [cache.findApiKey(KEY), cache.findApiKey(KEY), cache.findApiKey(KEY)];
    fake.release();
    expect(await Promise.all(asked)).toEqual([record(KEY), record(KEY), record(KEY)]);
    expect(fake.state.lookups).toBe(1);
  });

  it('a lookup that overlapped a drop is neither kept nor joined by later requests', async () => {
    const fake = countingStore([record(KEY)]);
    const cache = new ApiKeyCache(fake.store, 'local');
    fake.hold();
    const early = cache.findApiKey(KEY);
    // Revoked while that lookup is in flight: it read the key before the delete.
    fake.keys.delete(KEY);
    cache.hear({ kind: 'apiKey', id: KEY, workspaceId: WS });
    const late = cache.findApiKey(KEY);
    fake.release();
    expect(await early).toEqual(record(KEY));
    expect(await late).toBeUndefined();
    expect(await lookupsFor(cache, fake, KEY, 1)).toBe(1);
  });

  it('a lookup in flight while the listener goes down and up again is not kept', async () => {
    const fake = countingStore([record(KEY)]);
    const cache = new ApiKeyCache(fake.store, 'heard');
    cache.setListening(true);
    fake.hold();
    const early = cache.findApiKey(KEY);
    cache.setListening(false);
    cache.setListening(true);
    fake.release();
    await early;
    expect(await lookupsFor(cache, fake, KEY, 1)).toBe(1);
  });

  it('a kept key hashed once still refuses any other secret for its id (same length or not)', async () => {
    const key = `wdk_${KEY}_${'a'.repeat(32)}`;
    const fake = countingStore([{ ...record(KEY), secretHash: hashSecret(key) }]);
    const cache = new ApiKeyCache(fake.store, 'local');
    const wrong = [`wdk_${KEY}_${'b'.repeat(32)}`, `wdk_${KEY}_${'a'.repeat(31)}b`, `wdk_${KEY}_${'a'.repeat(33)}`, `wdk_${KEY}_${'a'.repeat(31)}`];
    for (let round = 0; round < 2; round++) {
      expect(await verifyApiKey(cache, key)).toEqual({ id: KEY, workspaceId: WS });
      for (const other of wrong) expect(await verifyApiKey(cache, other), other).toBeNull();
    }
    expect(fake.state.lookups).toBe(1);
  });

  it('the plugin answers a kept key at once, refuses another secret for its id at once, and a revoked key after asking the store', async () => {
    const key = `wdk_${KEY}_${'a'.repeat(32)}`;
    const fake = countingStore([{ ...record(KEY), secretHash: hashSecret(key) }]);
    const cache = new ApiKeyCache(fake.store, 'local');
    const plugin = apiKeyPlugin(cache);
    const owner = { kind: 'owner', workspaceId: WS, subject: KEY };
    const first = plugin.authenticate({ token: key });
    expect(first).toBeInstanceOf(Promise);
    expect(await first).toEqual(owner);
    expect(plugin.authenticate({ token: key })).toEqual(owner);
    for (const other of [`wdk_${KEY}_${'a'.repeat(31)}b`, `wdk_${KEY}_${'a'.repeat(33)}`]) {
      expect(() => plugin.authenticate({ token: other }), other).toThrow(ApiError);
    }
    expect(fake.state.lookups).toBe(1);
    fake.keys.delete(KEY);
    cache.hear({ kind: 'apiKey', id: KEY, workspaceId: WS });
    const revoked = plugin.authenticate({ token: key });
    expect(revoked).toBeInstanceOf(Promise);
    await expect(revoked).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('the plugin asks the store on every request while changes are not heard', async () => {
    const key = `wdk_${KEY}_${'a'.repeat(32)}`;
    const fake = countingStore([{ ...record(KEY), secretHash: hashSecret(key) }]);
    const plugin = apiKeyPlugin(new ApiKeyCache(fake.store, 'heard'));
    for (let i = 0; i < 3; i++) {
      const answer = plugin.authenticate({ token: key });
      expect(answer).toBeInstanceOf(Promise);
      expect(await answer).toMatchObject({ kind: 'owner', subject: KEY });
    }
    expect(fake.state.lookups).toBe(3);
  });
});
