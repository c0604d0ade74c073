/** The bulk insert body (spec "Bulk insert", DESIGN §8, §12), checked before any row is looked at. */
import { ApiError, badRequest } from '../errors.ts';
import type { ConflictAction } from '../../dialects/dialect.ts';
import type { Entity, UniqueKey } from '../schema/model.ts';
import { requireObject } from '../payload.ts';
import type { RowValues } from './validate.ts';

export const MAX_BULK_ROWS = 1000;
const ACTIONS: readonly ConflictAction[] = ['ERROR', 'IGNORE', 'UPDATE'];

/** One refused row of a bulk request (`row` is its 0-based index in `rows`). */
export interface BulkError {
  row: number;
  field?: string;
  code: string;
  message: string;
}

export interface BulkResult {
  viewUuid: string;
  totalCount: number;
  successCount: number;
  failureCount: number;
  skippedCount: number;
  errors: BulkError[];
  warnings?: string[];
}

export interface ValidRow {
  readonly index: number;
  readonly values: RowValues;
}

export interface BulkRequest {
  readonly rows: readonly unknown[];
  readonly action: ConflictAction;
  /** API field names of the unique key used to match rows. */
  readonly conflictFields: readonly string[];
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x) => b.includes(x));
}

function usableSets(keys: readonly UniqueKey[]): string {
  return keys.map((k) => `[${k.fields.join(', ')}]`).join(', ');
}

/** The conflict options of a bulk write, checked against the entity's unique keys (shared with CSV import). */
export function readConflictOptions(entity: Entity, onConflict: unknown, conflictColumns: unknown): Omit<BulkRequest, 'rows'> {
  const action = (onConflict ?? 'ERROR') as ConflictAction;
  if (!ACTIONS.includes(action)) throw badRequest(`'onConflict' must be one of ${ACTIONS.join(', ')}`);
  if (conflictColumns !== undefined && (!Array.isArray(conflictColumns) || conflictColumns.length === 0 || conflictColumns.some((c) => typeof c !== 'string'))) {
    throw badRequest("'conflictColumns' must be a non-empty array of field names");
  }
  const names = (conflictColumns as string[] | undefined)?.map((name) => entity.fields.find((f) => f.column === name)?.name ?? name) ?? [entity.idField.name];
  const key = entity.uniqueKeys.find((k) => sameSet(k.fields, names));
  if (!key) {
    throw new ApiError('BAD_REQUEST', `conflictColumns [${names.join(', ')}] match no primary key or unique index of ${entity.name}; usable sets: ${usableSets(entity.uniqueKeys)}`);
  }
  return { action, conflictFields: key.fields };
}

export function readBulkRequest(body: unknown, entity: Entity): BulkRequest {
  const payload = requireObject(body);
  const unknownKeys = Object.keys(payload).filter((k) => !['rows', 'conflictColumns', 'onConflict'].includes(k));
  if (unknownKeys.length > 0) throw badRequest(`unknown members in the bulk request: ${unknownKeys.join(', ')}`);
  const rows = payload.rows;
  if (!Array.isArray(rows) || rows.length === 0) throw badRequest("'rows' must be a non-empty array of objects");
  if (rows.length > MAX_BULK_ROWS) throw badRequest(`'rows' may hold at most ${MAX_BULK_ROWS} rows, got ${rows.length}`);
  return { rows, ...readConflictOptions(entity, payload.onConflict, payload.conflictColumns) };
}
