import { randomBytes } from 'node:crypto';

/** A throwaway database or schema name no other run uses. */
export function uniqueName(prefix: string): string {
  return `${prefix}_${randomBytes(4).toString('hex')}`;
}
