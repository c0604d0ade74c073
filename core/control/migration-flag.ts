/** …/entities/{entity}/migration (DESIGN §10, §12): which operations a migration blocks, set (PUT) and read (GET). */
import { notFound } from '../errors.ts';
import { PayloadReader } from '../payload.ts';
import type { MigrationFlag } from '../workspace/types.ts';

export const DEFAULT_RETRY_AFTER_SECONDS = 30;

export function readMigrationFlag(body: unknown): MigrationFlag {
  const reader = new PayloadReader(body ?? {}, ['blocksReads', 'blocksWrites', 'retryAfterSeconds']);
  const blocksReads = reader.boolean('blocksReads') ?? false;
  const blocksWrites = reader.boolean('blocksWrites') ?? true;
  const retryAfterSeconds = reader.integer('retryAfterSeconds', 1, 86_400) ?? DEFAULT_RETRY_AFTER_SECONDS;
  reader.done();
  return { blocksReads, blocksWrites, retryAfterSeconds };
}

/** GET …/entities/{entity}/migration: the flag as set, or 404 when the entity is not marked. */
export function migrationFlagBody(entity: string, flag: MigrationFlag | null): { entity: string } & MigrationFlag {
  if (!flag) throw notFound(`'${entity}' is not marked as migrating`);
  return { entity, ...flag };
}
