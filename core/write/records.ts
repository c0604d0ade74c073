/** Create, update (partial PUT) and delete of one record; each answers with the record as it reads back. */
import { ident, join, render, sql } from '../sql.ts';
import type { WorkspaceRuntime } from '../workspace/runtime.ts';
import { ApiError, notFound } from '../errors.ts';
import type { Entity } from '../schema/model.ts';
import type { JsonRecord } from '../query/assemble.ts';
import { predicateSql, type CompileContext } from '../query/compile-read.ts';
import { ROOT_ALIAS } from '../query/joins.ts';
import type { Predicate, ReadScope } from '../query/plan.ts';
import { idPredicate } from '../query/plan-read.ts';
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

function rowCondition(runtime: WorkspaceRuntime, entity: Entity, predicates: readonly Predicate[]) {
  const ctx: CompileContext = { dialect: runtime.dialect, config: runtime.config, root: entity, joins: new Map() };
  return join(predicates.map((p) => sql`(${predicateSql(ctx, p)})`), ' AND ');
}

async function readBack(runtime: WorkspaceRuntime, scope: ReadScope, request: ReadRequest, id: unknown, label: string): Promise<JsonRecord> {
  const record = await readRecord(runtime, scope, request, id);
  if (!record) throw notFound(`${scope.root.entity.name} '${label}' does not exist`);
  return record;
}

export async function createRecord(runtime: WorkspaceRuntime, scope: ReadScope, policy: WritePolicy, body: unknown, request: ReadRequest): Promise<JsonRecord> {
  migrationBlocksWrites(scope);
  const entity = scope.root.entity;
  const values = validateRow(scope.root, policy.completeCreate(entity, requireObject(body)), 'create');
  policy.prepareCreate(entity, values);
  const fields = [...values.keys()];
  let id: unknown;
  try {
    const ids = await runtime.dialect.insert(runtime.driver, {
      table: entity.table,
      columns: fields.map((f) => f.column),
      rows: [fields.map((f) => runtime.dialect.encodeValue(f.type, values.get(f)))],
      returning: entity.idField.column,
    }, runtime.config);
    id = ids[0];
  } catch (error) {
    throw translateDbError(runtime.dialect, entity, error);
  }
  return readBack(runtime, scope, request, id, String(id));
}

export async function updateRecord(runtime: WorkspaceRuntime, scope: ReadScope, policy: WritePolicy, idText: string, body: unknown, request: ReadRequest): Promise<JsonRecord> {
  migrationBlocksWrites(scope);
  const entity = scope.root.entity;
  const id = parseId(entity, idText);
  const values = validateRow(scope.root, body, 'update', { currentId: id });
  const where = [...scope.policy.rowPredicates(entity), idPredicate(entity.idField, id)];
  // Existence is hidden first: another user's row is 404 even when the change would be refused.
  const userFields = [...values.keys()].filter((f) => !f.autoTimestamp);
  if (userFields.length === 0) return readBack(runtime, scope, request, id, idText);
  const exists = await readRecord(runtime, scope, { ...request, fields: [[entity.idField.name]], expand: [] }, id);
  if (!exists) throw notFound(`${entity.name} '${idText}' does not exist`);
  policy.checkUpdate(entity, values);
  const assignments = join([...values.entries()].map(([f, v]) => sql`${ident(f.column)} = ${runtime.dialect.encodeValue(f.type, v)}`));
  const statement = runtime.dialect.updateStatement(runtime.dialect.tableRef(entity.table, runtime.config), ROOT_ALIAS, assignments, rowCondition(runtime, entity, where));
  try {
    const result = await runtime.driver.query(render(statement, runtime.dialect));
    if (result.affectedRows === 0) throw notFound(`${entity.name} '${idText}' does not exist`);
  } catch (error) {
    throw translateDbError(runtime.dialect, entity, error);
  }
  return readBack(runtime, scope, request, id, idText);
}

export async function deleteRecord(runtime: WorkspaceRuntime, scope: ReadScope, idText: string): Promise<void> {
  migrationBlocksWrites(scope);
  const entity = scope.root.entity;
  const id = parseId(entity, idText);
  const where = [...scope.policy.rowPredicates(entity), idPredicate(entity.idField, id)];
  const statement = runtime.dialect.deleteStatement(runtime.dialect.tableRef(entity.table, runtime.config), ROOT_ALIAS, rowCondition(runtime, entity, where));
  let affected = 0;
  try {
    affected = (await runtime.driver.query(render(statement, runtime.dialect))).affectedRows;
  } catch (error) {
    // On delete a foreign key violation means other rows still point here, not a dangling reference.
    if (runtime.dialect.mapError(error)?.kind === 'foreign_key_violation') {
      throw new ApiError('CONFLICT', `${entity.name} '${idText}' is still referenced by other records`);
    }
    throw translateDbError(runtime.dialect, entity, error);
  }
  if (affected === 0) throw notFound(`${entity.name} '${idText}' does not exist`);
}
