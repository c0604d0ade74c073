/**
 * What a control-store change announces to every instance (DESIGN §16): a JSON payload on one
 * PostgreSQL NOTIFY channel, sent in the transaction of the change, so it is delivered at commit
 * and never for a change that rolled back. The SQL that sends it lives in store.ts, beside the
 * writes; this module names the channel and reads what arrives.
 */

/** The one channel every instance listens on. */
export const CHANGE_CHANNEL = 'wdapi_changes';

/**
 * - `workspace`: the workspace's metadata changed (its version moved) or it was deleted.
 * - `apiKey`: a key was issued or revoked (the API key cache, plugins/auth/api-key/key-cache.ts,
 *   drops it; a deleted workspace's `workspace` notice drops its keys).
 */
export type ChangeNotice =
  | { readonly kind: 'workspace'; readonly workspaceId: string; readonly version?: number }
  | { readonly kind: 'apiKey'; readonly id: string; readonly workspaceId: string };

const isText = (value: unknown): value is string => typeof value === 'string' && value.length > 0;

function readNotice(value: Record<string, unknown>): ChangeNotice | undefined {
  if (value.kind === 'workspace' && isText(value.workspaceId)) {
    return typeof value.version === 'number' ? { kind: 'workspace', workspaceId: value.workspaceId, version: value.version } : { kind: 'workspace', workspaceId: value.workspaceId };
  }
  if (value.kind === 'apiKey' && isText(value.id) && isText(value.workspaceId)) return { kind: 'apiKey', id: value.id, workspaceId: value.workspaceId };
  return undefined;
}

/** The notice a payload carries; undefined for anything else (the caller logs it and goes on). */
export function parseChangeNotice(payload: string): ChangeNotice | undefined {
  let value: unknown;
  try {
    value = JSON.parse(payload);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  return readNotice(value as Record<string, unknown>);
}
