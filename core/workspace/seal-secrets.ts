/**
 * At every start, after the migrations: every secret the control store keeps is opened (so a
 * wrong SECRETS_KEY stops the start with one clear line instead of failing later, per request),
 * and the ones that are clear (a store from before encryption) or sealed with the previous key
 * (a rotation, SECRETS_KEY_PREVIOUS) are sealed again with the current key. One transaction under
 * an advisory lock: instances starting together on one store do not interleave.
 */
import { sql } from '../sql.ts';
import type { SecretBox } from '../secret-box.ts';
import { controlRows, controlTable as t } from './control-sql.ts';
import { SEALED_SETTINGS, type ControlStore } from './store.ts';

/** Any fixed number: the lock only serialises the starts of one deployment. */
const SEAL_LOCK = 7_160_512;

export interface SealedCount {
  /** Values that were clear or sealed with the previous key, now sealed with the current one. */
  readonly resealed: number;
}

export function sealStoredSecrets(store: ControlStore, secrets: SecretBox): Promise<SealedCount> {
  return store.transaction(async (tx) => {
    const db = tx.executor;
    await controlRows(db, sql`SELECT pg_advisory_xact_lock(${SEAL_LOCK})`);
    let resealed = 0;
    for (const key of SEALED_SETTINGS) {
      const value = await tx.getSecretSetting<unknown>(key);
      const stored = await tx.getSetting<unknown>(key);
      if (value === undefined || (typeof stored === 'string' && !secrets.needsSealing(stored))) continue;
      await tx.setSecretSetting(key, value);
      resealed++;
    }
    const rows = await controlRows(db, sql`SELECT id, database->>'url' AS url FROM ${t('workspaces')} WHERE database ? 'url'`);
    for (const row of rows) {
      const id = String(row.id);
      // Opening the workspace checks the value whatever happens next.
      const workspace = await tx.findWorkspaceById(id);
      if (!workspace || !secrets.needsSealing(String(row.url))) continue;
      await tx.updateWorkspace(id, workspace.name, workspace.database);
      resealed++;
    }
    return { resealed };
  });
}
