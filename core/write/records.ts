/** Create, update (partial PUT) and delete of one record; each answers with the record as it reads back. */
import { render } from '../sql.ts';
import type { Database } from '../../dialects/dialect.ts';
import { ApiError, notFound } from '../errors.ts';
import type { Entity } from '../schema/model.ts';
import type { JsonRecord } from '../query/assemble.ts';
import { compileDelete, compileUpdate } from '../query/compile-write.ts';
import type { ReadScope } from '../query/plan.ts';
import { planRowWrite, planUpdate } from '../query/plan-write.ts';
import { parseId, readRecord } from '../query/read.ts';
import type { ReadRequest } from '../query/request.ts';
import { translateDbError } from '../workspace/db-errors.ts';
import { requireObject } from '../payload.ts';
import { validateRow, type RowValues } from './validate.ts';

/** What a policy plugin (RLS) does to writes. The default changes nothing. */
export interface WritePolicy {
  /**
   * Fills the policy columns a create body leaves out (before validation, so a NOT NULL rule column
   * is not "required"); throws FORBIDDEN when the caller cannot satisfy the policy.
   */
  completeCreate(entity: Entity, body: Record<string, unknown>): Record<string, unknown>;
  /** Sets or checks policy columns of a new row; throws FORBIDDEN on a mismatch. */
  prepareCreate(entity: Entity, values: RowValues): void;
  /** Checks the changed values of an update; throws FORBIDDEN on a mismatch. */
  checkUpdate(entity: Entity, values: RowValues): void;
}

export const OPEN_WRITE_POLICY: WritePolicy = { completeCreate: (_entity, body) => body, prepareCreate: () => undefined, checkUpdate: () => undefined };

export function migrationBlocksWrites(scope: ReadScope): void {
  const flag = scope.root.migration;
  if (flag?.blocksWrites) {
    throw new ApiError('SCHEMA_MIGRATION_IN_PROGRESS', `entity '${scope.root.entity.name}' is being migrated; writes are blocked`, undefined, {
      retryAfterSeconds: flag.retryAfterSeconds,
      blocksReads: flag.blocksReads,
      blocksWrites: flag.blocksWrites,
    });
  }
}

async function readBack(database: Database, scope: ReadScope, request: ReadRequest, id: unknown, label: string): Promise<JsonRecord> {
  const record = await readRecord(database, scope, request, id);
  if (!record) throw notFound(`${scope.root.entity.name} '${label}' does not exist`);
  return record;
}

export async function createRecord(database: Database, scope: ReadScope, policy: WritePolicy, body: unknown, request: ReadRequest): Promise<JsonRecord> {
  migrationBlocksWrites(scope);
  const { dialect, driver } = database;
  const entity = scope.root.entity;
  const values = validateRow(scope.root, policy.completeCreate(entity, requireObject(body)), 'create');
  policy.prepareCreate(entity, values);
  const fields = [...values.keys()];
  let id: unknown;
  try {
    const ids = await dialect.insert(driver, {
      table: entity.table,
      columns: fields.map((f) => f.column),
      rows: [fields.map((f) => dialect.sql.encodeValue(f.type, values.get(f)))],
      returning: entity.idField.column,
    });
    id = ids[0];
  } catch (error) {
    throw translateDbError(dialect, entity, error);
  }
  return readBack(database, scope, request, id, String(id));
}

export async function updateRecord(database: Database, scope: ReadScope, policy: WritePolicy, idText: string, body: unknown, request: ReadRequest): Promise<JsonRecord> {
  migrationBlocksWrites(scope);
  const { dialect, driver } = database;
  const entity = scope.root.entity;
  const id = parseId(entity, idText);
  const values = validateRow(scope.root, body, 'update', { currentId: id });
  // Existence is hidden first: another user's row is 404 even when the change would be refused.
  const userFields = [...values.keys()].filter((f) => !f.autoTimestamp);
  if (userFields.length === 0) return readBack(database, scope, request, id, idText);
  const exists = await readRecord(database, scope, { ...request, fields: [[entity.idField.name]], expand: [] }, id);
  if (!exists) throw notFound(`${entity.name} '${idText}' does not exist`);
  policy.checkUpdate(entity, values);
  const statement = compileUpdate(planUpdate(scope, id, values), dialect);
  try {
    const result = await driver.query(render(statement, dialect.sql));
    if (result.affectedRows === 0) throw notFound(`${entity.name} '${idText}' does not exist`);
  } catch (error) {
    throw translateDbError(dialect, entity, error);
  }
  return readBack(database, scope, request, id, idText);
}

export async function deleteRecord(database: Database, scope: ReadScope, idText: string): Promise<void> {
  migrationBlocksWrites(scope);
  const { dialect, driver } = database;
  const entity = scope.root.entity;
  const statement = compileDelete(planRowWrite(scope, parseId(entity, idText)), dialect);
  let affected = 0;
  try {
    affected = (await driver.query(render(statement, dialect.sql))).affectedRows;
  } catch (error) {
    // On delete a foreign key violation means other rows still point here, not a dangling reference.
    if (dialect.mapError(error)?.kind === 'foreign_key_violation') {
      throw new ApiError('CONFLICT', `${entity.name} '${idText}' is still referenced by other records`);
    }
    throw translateDbError(dialect, entity, error);
  }
  if (affected === 0) throw notFound(`${entity.name} '${idText}' does not exist`);
}
