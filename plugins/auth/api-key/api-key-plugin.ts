/** API keys `wdk_<id>_<secret>` (DESIGN §10): workspace-owner credentials, stored hashed. */
import { randomBytes } from 'node:crypto';
import { SingleFlight } from '../../../core/single-flight.ts';
import type { ControlStore } from '../../../core/workspace/store.ts';
import { ApiError } from '../../../core/errors.ts';
import type { AuthPlugin, AuthRequest, Principal } from '../shared/auth-plugin.ts';
import { hashSecret, randomToken, sameHash } from '../shared/secrets.ts';

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

/** Checks a full key (`client_secret`) against its id; used by the token endpoint too. */
export async function verifyApiKey(store: ControlStore, key: string): Promise<{ id: string; workspaceId: string } | null> {
  const parsed = parseApiKey(key);
  if (!parsed) return null;
  const record = await store.findApiKey(parsed.id);
  if (!record || !sameHash(parsed.secret, record.secretHash)) return null;
  return { id: record.id, workspaceId: record.workspaceId };
}

/** True while the key `id` exists and belongs to `workspaceId` (tokens issued for it check this). */
export async function apiKeyIsLive(store: ControlStore, id: string, workspaceId: string): Promise<boolean> {
  return (await store.findApiKey(id))?.workspaceId === workspaceId;
}

/**
 * Every request checks its key against the control store: one primary-key lookup, the same cost as
 * revalidating a cache would be. So a revoked key, or a key of a deleted workspace, is refused at
 * once on every instance sharing the store (issue 14). Concurrent requests with the same key share
 * one lookup; a request that overlaps the revocation may still pass.
 */
export function apiKeyPlugin(store: ControlStore): AuthPlugin {
  const lookups = new SingleFlight<string, { id: string; workspaceId: string } | null>();
  return {
    name: 'api-key',
    async authenticate(request: AuthRequest): Promise<Principal | null> {
      if (!request.token.startsWith('wdk_')) return null;
      const verified = await lookups.run(request.token, () => verifyApiKey(store, request.token));
      if (!verified) throw new ApiError('UNAUTHORIZED', 'invalid API key');
      return { kind: 'owner', workspaceId: verified.workspaceId, subject: verified.id };
    },
  };
}
