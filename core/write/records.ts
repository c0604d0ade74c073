/** Create, update (partial PUT) and delete of one record; each answers with the record as it reads back. */
import { render } from '../sql.ts';
import type { Database } from '../../dialects/dialect.ts';
import { ApiError, notFound } from '../errors.ts';
import type { Entity } from '../schema/model.ts';
import type { JsonRecord } from '../query/assemble.ts';
import { compileDelete, compileUpdate, compileUpdateParts } from '../query/compile-write.ts';
import type { ReadScope } from '../query/plan.ts';
import { planRowWrite, planUpdate } from '../query/plan-write.ts';
import { assembleWithArrays, parseId, readRecord } from '../query/read.ts';
import { writtenReadOf, visibleRow, type PlannedWrittenRead } from '../query/written-row.ts';
import type { ReadRequest } from '../query/request.ts';
import { translateDbError } from '../workspace/db-errors.ts';
import { requireObject } from '../payload.ts';
import { validateRow, type RowValues } from './validate.ts';
import { capturesEvents, withEvents, type EventRecorder } from '../events/capture.ts';

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

/**
 * The record from the rows a vendor's write-and-read answered; 404 when the caller cannot read the
 * written row, as the read-back found nothing before (the write stays: it was allowed).
 */
async function writtenRecord(database: Database, scope: ReadScope, planned: PlannedWrittenRead, rows: Record<string, unknown>[], label: (key: unknown) => string): Promise<JsonRecord> {
  const { row, key } = visibleRow(rows);
  const record = row ? (await assembleWithArrays(database.driver, database.dialect, planned.parts, [row]))[0] : undefined;
  if (!record) throw notFound(`${scope.root.entity.name} '${label(key)}' does not exist`);
  return record;
}

/** `recorder` is set when the entity's events are on: the write then runs again inside withEvents' transaction. */
export async function createRecord(database: Database, scope: ReadScope, policy: WritePolicy, body: unknown, request: ReadRequest, recorder?: EventRecorder): Promise<JsonRecord> {
  if (!recorder && capturesEvents(scope)) return withEvents(database, scope, (db, r) => createRecord(db, scope, policy, body, request, r));
  migrationBlocksWrites(scope);
  const { dialect, driver } = database;
  const entity = scope.root.entity;
  const values = validateRow(scope.root, policy.completeCreate(entity, requireObject(body)), 'create');
  policy.prepareCreate(entity, values);
  const planned = writtenReadOf(scope, request, dialect);
  const fields = [...values.keys()];
  const insert = {
    table: entity.table,
    columns: fields.map((f) => f.column),
    rows: [fields.map((f) => dialect.sql.encodeValue(f.type, values.get(f)))],
    returning: entity.idField.column,
  };
  let id: unknown;
  try {
    // One round trip where the vendor can; otherwise the insert, then the read.
    const rows = await dialect.insertAndRead(driver, insert, planned.read);
    if (rows && recorder) await recorder.written('insert', visibleRow(rows).key);
    if (rows) return await writtenRecord(database, scope, planned, rows, String);
    id = (await dialect.insert(driver, insert))[0];
    if (recorder) await recorder.written('insert', id);
  } catch (error) {
    throw translateDbError(dialect, entity, error);
  }
  return readBack(database, scope, request, id, String(id));
}

/**
 * Existence is hidden first: another user's row is 404 even when the change would be refused.
 * Only a refused change needs that lookup, and a request with filters, which hide the row from
 * the read and so must keep it from being written (the UPDATE's WHERE holds the policy alone).
 */
async function checkUpdate(database: Database, scope: ReadScope, policy: WritePolicy, request: ReadRequest, id: unknown, idText: string, values: RowValues): Promise<void> {
  const entity = scope.root.entity;
  let refusal: unknown = null;
  try {
    policy.checkUpdate(entity, values);
  } catch (error) {
    refusal = error;
  }
  if (refusal === null && request.filters.length === 0) return;
  const exists = await readRecord(database, scope, { ...request, fields: [[entity.idField.name]], expand: [] }, id);
  if (!exists) throw notFound(`${entity.name} '${idText}' does not exist`);
  if (refusal !== null) throw refusal;
}

export async function updateRecord(database: Database, scope: ReadScope, policy: WritePolicy, idText: string, body: unknown, request: ReadRequest, recorder?: EventRecorder): Promise<JsonRecord> {
  if (!recorder && capturesEvents(scope)) return withEvents(database, scope, (db, r) => updateRecord(db, scope, policy, idText, body, request, r));
  migrationBlocksWrites(scope);
  const { dialect, driver } = database;
  const entity = scope.root.entity;
  const id = parseId(entity, idText);
  const values = validateRow(scope.root, body, 'update', { currentId: id });
  const userFields = [...values.keys()].filter((f) => !f.autoTimestamp);
  if (userFields.length === 0) return readBack(database, scope, request, id, idText);
  await checkUpdate(database, scope, policy, request, id, idText, values);
  const planned = writtenReadOf(scope, request, dialect);
  const plan = planUpdate(scope, id, values);
  try {
    // The UPDATE's WHERE carries the row policy: a row the caller cannot see is not changed (404).
    const rows = await dialect.updateAndRead(driver, compileUpdateParts(plan, dialect, id), planned.read);
    if (rows && recorder && rows.length > 0) await recorder.written('update', id);
    if (rows) return await writtenRecord(database, scope, planned, rows, () => idText);
    const result = await driver.query(render(compileUpdate(plan, dialect), dialect.sql));
    if (result.affectedRows === 0) throw notFound(`${entity.name} '${idText}' does not exist`);
    if (recorder) await recorder.written('update', id);
  } catch (error) {
    throw translateDbError(dialect, entity, error);
  }
  return readBack(database, scope, request, id, idText);
}

export async function deleteRecord(database: Database, scope: ReadScope, idText: string, recorder?: EventRecorder): Promise<void> {
  if (!recorder && capturesEvents(scope)) return withEvents(database, scope, (db, r) => deleteRecord(db, scope, idText, r));
  migrationBlocksWrites(scope);
  const { dialect, driver } = database;
  const entity = scope.root.entity;
  const id = parseId(entity, idText);
  const statement = compileDelete(planRowWrite(scope, id), dialect);
  let affected = 0;
  try {
    if (recorder) await recorder.beforeDelete(id);
    affected = (await driver.query(render(statement, dialect.sql))).affectedRows;
    if (recorder && affected > 0) recorder.deleted(id);
  } catch (error) {
    // On delete a foreign key violation means other rows still point here, not a dangling reference.
    if (dialect.mapError(error)?.kind === 'foreign_key_violation') {
      throw new ApiError('CONFLICT', `${entity.name} '${idText}' is still referenced by other records`);
    }
    throw translateDbError(dialect, entity, error);
  }
  if (affected === 0) throw notFound(`${entity.name} '${idText}' does not exist`);
}
