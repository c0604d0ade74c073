/** API keys `wdk_<id>_<secret>` (DESIGN §10): workspace-owner credentials, stored hashed. */
import { randomBytes } from 'node:crypto';
import type { ControlStore } from '../../../core/workspace/store.ts';
import type { ApiKeyRecord } from '../../../core/workspace/types.ts';
import { ApiError } from '../../../core/errors.ts';
import type { AuthPlugin, AuthRequest, Principal } from '../shared/auth-plugin.ts';
import { hashSecret, randomToken, sameHash, sameText } from '../shared/secrets.ts';
import type { ApiKeyCache, ApiKeySource } from './key-cache.ts';

const KEY_FORMAT = /^wdk_([0-9a-f]{16})_([A-Za-z0-9_-]{20,})$/;
const KEY_ID = /^[0-9a-f]{16}$/;

/** True when `id` has the form of a key id (checked before it reaches a query). */
export function isApiKeyId(id: string): boolean {
  return KEY_ID.test(id);
}

export function parseApiKey(key: string): { id: string; secret: string } | null {
  const match = KEY_FORMAT.exec(key);
  return match ? { id: match[1] ?? '', secret: key } : null;
}

export async function issueApiKey(store: ControlStore, workspaceId: string, name: string | null): Promise<{ id: string; name: string | null; key: string }> {
  const id = randomBytes(8).toString('hex');
  const key = `wdk_${id}_${randomToken(24)}`;
  await store.insertApiKey({ id, workspaceId, name, secretHash: hashSecret(key) });
  return { id, name, key };
}

/** Deletes the key; this instance refuses it from the next request on (other instances on the notice). */
export async function revokeApiKey(store: ControlStore, keys: ApiKeyCache, workspaceId: string, id: string): Promise<boolean> {
  const deleted = await store.deleteApiKey(workspaceId, id);
  if (deleted) keys.hear({ kind: 'apiKey', id, workspaceId });
  return deleted;
}

/** Checks a full key (`client_secret`) against its id; used by the token endpoint too. */
export async function verifyApiKey(keys: ApiKeySource, key: string): Promise<{ id: string; workspaceId: string } | null> {
  const parsed = parseApiKey(key);
  if (!parsed) return null;
  const record = await keys.findApiKey(parsed.id);
  if (!record || !matches(record, parsed.secret)) return null;
  return { id: record.id, workspaceId: record.workspaceId };
}

/**
 * The key that matched each record's hash, while the record lives: a record the key cache keeps is
 * the same object on every request, so its key is hashed once (SHA-256 costs ~5 µs a request).
 */
const matchedKeys = new WeakMap<ApiKeyRecord, string>();

function matches(record: ApiKeyRecord, key: string): boolean {
  const matched = matchedKeys.get(record);
  if (matched !== undefined) return sameText(key, matched);
  if (!sameHash(key, record.secretHash)) return false;
  matchedKeys.set(record, key);
  return true;
}

/** True while the key `id` exists and belongs to `workspaceId` (tokens issued for it check this). */
export async function apiKeyIsLive(keys: ApiKeySource, id: string, workspaceId: string): Promise<boolean> {
  return (await keys.findApiKey(id))?.workspaceId === workspaceId;
}

function ownerOf(record: ApiKeyRecord | undefined, key: string): Principal {
  if (!record || !matches(record, key)) throw new ApiError('UNAUTHORIZED', 'invalid API key');
  return { kind: 'owner', workspaceId: record.workspaceId, subject: record.id };
}

/**
 * Every request checks its key against `keys`: the instance's key cache (key-cache.ts), which
 * drops a revoked key, or the keys of a deleted workspace, before the revoking answer is sent here
 * and when the notice arrives on the other instances, and asks the store per request while it
 * cannot hear every change. A request that overlaps the revocation may still pass. A key the cache
 * holds is answered at once (an API key is the credential of most requests).
 */
export function apiKeyPlugin(keys: ApiKeySource): AuthPlugin {
  return {
    name: 'api-key',
    authenticate(request: AuthRequest): Principal | Promise<Principal> | null {
      if (!request.token.startsWith('wdk_')) return null;
      const parsed = parseApiKey(request.token);
      if (!parsed) throw new ApiError('UNAUTHORIZED', 'invalid API key');
      const kept = keys.keptApiKey?.(parsed.id);
      if (kept) return ownerOf(kept, request.token);
      return keys.findApiKey(parsed.id).then((record) => ownerOf(record, request.token));
    },
  };
}
