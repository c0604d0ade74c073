/**
 * Bulk insert with upsert (spec "Bulk insert", DESIGN §8, §12): rows are validated one by one,
 * failing rows are reported and left out, the rest is written in one transaction through the
 * dialect's upsert. A database refusal rolls everything back and answers with the counts.
 */
import { ApiError, type FieldProblem } from '../errors.ts';
import type { ReadScope } from '../query/plan.ts';
import type { Entity, Field } from '../schema/model.ts';
import type { BoundDialect, ConflictAction, Database, Executor, UpsertOutcome } from '../../dialects/dialect.ts';
import { readBulkRequest, type BulkError, type BulkRequest, type BulkResult, type ValidRow } from './bulk-request.ts';
import { hiddenConflicts } from './bulk-visibility.ts';
import { translateDbError } from '../workspace/db-errors.ts';
import { migrationBlocksWrites, type WritePolicy } from './records.ts';
import { checkRow, type RowValues } from './validate.ts';
import { refuseUncapturedBulk } from '../events/capture.ts';

function rowProblems(index: number, problems: readonly FieldProblem[]): BulkError[] {
  return problems.map((p) => ({ row: index, field: p.field, code: 'VALIDATION_FAILED', message: `${p.field} ${p.message}` }));
}

/** Read-only fields make the whole request wrong, not one row (DESIGN §12 "Bad input"). */
function refuseReadOnly(problems: Map<number, FieldProblem[]>): void {
  const readOnly = [...problems.entries()].flatMap(([row, list]) => list.filter((p) => p.rule === 'readOnly').map((p) => ({ row, ...p })));
  if (readOnly.length > 0) {
    throw new ApiError('VALIDATION_FAILED', `rows write read-only fields: ${[...new Set(readOnly.map((p) => p.field))].join(', ')}`, readOnly);
  }
}

type RowCheck = { valid: ValidRow } | { errors: BulkError[]; problems?: FieldProblem[] };

/** One row: the policy fills its rule columns, then the shared validation, then the policy's check. */
function checkBulkRow(scope: ReadScope, policy: WritePolicy, row: unknown, index: number, allowGeneratedId: boolean): RowCheck {
  if (typeof row !== 'object' || row === null || Array.isArray(row)) {
    return { errors: [{ row: index, code: 'VALIDATION_FAILED', message: 'a row must be a JSON object' }] };
  }
  const entity = scope.root.entity;
  try {
    const body = policy.completeCreate(entity, row as Record<string, unknown>);
    const { values, problems } = checkRow(scope.root, body, 'create', { allowGeneratedId });
    if (problems.length > 0) return { errors: rowProblems(index, problems), problems };
    policy.prepareCreate(entity, values);
    return { valid: { index, values } };
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return { errors: [{ row: index, code: error.code, message: error.message }] };
  }
}

/** Validation only, no database: rows to write and rows refused (the import re-checks committed batches with it). */
export function validateRows(scope: ReadScope, policy: WritePolicy, request: BulkRequest): { valid: ValidRow[]; errors: BulkError[] } {
  const allowGeneratedId = request.action !== 'ERROR' && request.conflictFields.includes(scope.root.entity.idField.name);
  const valid: ValidRow[] = [];
  const errors: BulkError[] = [];
  const problemsByRow = new Map<number, FieldProblem[]>();
  request.rows.forEach((row, index) => {
    const checked = checkBulkRow(scope, policy, row, index, allowGeneratedId);
    if ('valid' in checked) {
      valid.push(checked.valid);
      return;
    }
    errors.push(...checked.errors);
    if (checked.problems) problemsByRow.set(index, checked.problems);
  });
  refuseReadOnly(problemsByRow);
  return { valid, errors };
}

function conflictKey(row: ValidRow, fields: readonly Field[]): string | null {
  if (fields.length === 1) {
    const value = row.values.get(fields[0] as Field);
    return value === undefined || value === null ? null : String(value);
  }
  const parts = fields.map((f) => row.values.get(f));
  return parts.some((p) => p === undefined || p === null) ? null : JSON.stringify(parts.map(String));
}

/** Rows sharing a conflict key: the last one wins, the others are skipped (one statement may not touch a row twice). */
function dedupe(rows: readonly ValidRow[], fields: readonly Field[], action: ConflictAction): { kept: ValidRow[]; skipped: number } {
  if (action === 'ERROR') return { kept: [...rows], skipped: 0 };
  const keys = rows.map((row) => conflictKey(row, fields));
  const lastIndex = new Map<string, number>();
  keys.forEach((key, i) => key !== null && lastIndex.set(key, i));
  const kept = rows.filter((_, i) => keys[i] === null || lastIndex.get(keys[i] as string) === i);
  return { kept, skipped: rows.length - kept.length };
}

function columnsKey(values: RowValues): string {
  let key = '';
  for (const field of values.keys()) key += `${field.column}\u0000`;
  return key;
}

function groupByColumns(rows: readonly ValidRow[]): ValidRow[][] {
  const groups = new Map<string, ValidRow[]>();
  for (const row of rows) {
    const key = columnsKey(row.values);
    const group = groups.get(key);
    if (group) group.push(row);
    else groups.set(key, [row]);
  }
  return [...groups.values()];
}

async function writeGroup(dialect: BoundDialect, tx: Executor, entity: Entity, rows: ValidRow[], request: BulkRequest): Promise<UpsertOutcome> {
  const fields = [...(rows[0]?.values.keys() ?? [])];
  const conflictColumns = request.conflictFields.map((name) => entity.fieldsByName.get(name)?.column ?? name);
  const updateColumns = fields.filter((f) => !conflictColumns.includes(f.column) && f.autoTimestamp !== 'create').map((f) => f.column);
  const perStatement = Math.max(1, Math.floor(dialect.capabilities.maxParams / Math.max(1, fields.length)));
  const total = { inserted: 0, updated: 0, ignored: 0 };
  for (let start = 0; start < rows.length; start += perStatement) {
    const chunk = rows.slice(start, start + perStatement);
    const outcome = await dialect.upsert(tx, {
      table: entity.table,
      columns: fields.map((f) => f.column),
      columnTypes: fields.map((f) => f.type),
      rows: chunk.map((row) => fields.map((f) => dialect.sql.encodeValue(f.type, row.values.get(f)))),
      returning: entity.idField.column,
      conflictColumns,
      action: request.action,
      updateColumns,
    });
    total.inserted += outcome.inserted;
    total.updated += outcome.updated;
    total.ignored += outcome.ignored;
  }
  return total;
}

/** True when the rows go out as one statement with no visibility check before it. */
function isSingleStatement(dialect: BoundDialect, scope: ReadScope, groups: readonly ValidRow[][], request: BulkRequest): boolean {
  if (request.action === 'UPDATE' && scope.policy.rowPredicates(scope.root.entity).length > 0) return false;
  const only = groups[0];
  return groups.length === 1 && only !== undefined && only.length * Math.max(1, only[0]?.values.size ?? 1) <= dialect.capabilities.maxParams;
}

/** Other unique keys the vendor may match on: only those whose fields some row actually carries. */
function warningsOf(dialect: BoundDialect, entity: Entity, request: BulkRequest, rows: readonly ValidRow[]): string[] | undefined {
  if (!dialect.capabilities.upsertMatchesAnyUniqueKey || request.action === 'ERROR') return undefined;
  const carried = (name: string): boolean => rows.some((row) => [...row.values.entries()].some(([f, v]) => f.name === name && v !== null && v !== undefined));
  const others = entity.uniqueKeys.filter((k) => k.fields.join() !== request.conflictFields.join() && k.fields.every(carried));
  if (others.length === 0) return undefined;
  return [`on ${dialect.name} a row also matches an existing row through the unique key(s) ${others.map((k) => `[${k.fields.join(', ')}]`).join(', ')}`];
}

function refused(error: unknown, result: BulkResult, dialect: BoundDialect, entity: Entity): unknown {
  const translated = translateDbError(dialect, entity, error);
  if (!(translated instanceof ApiError)) return translated;
  // A lost connection may have cut the COMMIT: whether anything was written is not known. The
  // driver's error stays the cause, so that the import can tell this case apart.
  if (dialect.mapError(error)?.kind === 'connection_lost') return Object.assign(translated, { cause: error });
  const message = translated.code === 'CONFLICT' ? `the database refused the batch: ${translated.message}; nothing was written` : `${translated.message}; nothing was written`;
  return new ApiError(translated.code, message, translated.details, { result: { ...result, successCount: 0, skippedCount: 0, failureCount: result.totalCount } });
}

export async function bulkInsert(database: Database, scope: ReadScope, policy: WritePolicy, viewUuid: string, body: unknown): Promise<BulkResult> {
  migrationBlocksWrites(scope);
  return writeBulkRows(database, scope, policy, viewUuid, readBulkRequest(body, scope.root.entity));
}

function settleErrors(result: BulkResult): void {
  result.errors.sort((a, b) => a.row - b.row);
  result.failureCount = new Set(result.errors.map((e) => e.row)).size;
}

/**
 * The engine behind bulk insert and each CSV import batch: validates, dedupes and upserts
 * `request.rows` in one transaction. No row-count limit here; callers bound their batches.
 * A database refusal throws ApiError carrying `extra.result`, and nothing is written.
 * `inTransaction` runs last inside the same transaction with the final counts (the import's
 * batch marker); with it the rows always go out in a transaction, even as one statement.
 */
export async function writeBulkRows(
  database: Database, scope: ReadScope, policy: WritePolicy, viewUuid: string, request: BulkRequest,
  inTransaction?: (tx: Executor, result: BulkResult) => Promise<void>,
): Promise<BulkResult> {
  refuseUncapturedBulk(scope);
  const { dialect, driver } = database;
  const entity = scope.root.entity;
  const { valid, errors } = validateRows(scope, policy, request);
  const conflictFields = request.conflictFields.map((name) => entity.fieldsByName.get(name)).filter((f): f is Field => f !== undefined);
  const { kept, skipped } = dedupe(valid, conflictFields, request.action);
  const warnings = warningsOf(dialect, entity, request, kept);
  const groups = groupByColumns(kept);
  const result: BulkResult = {
    viewUuid, totalCount: request.rows.length, successCount: 0, failureCount: 0, skippedCount: skipped, errors,
    ...(warnings ? { warnings } : {}),
  };
  const write = async (db: Executor): Promise<void> => {
    const { writable, hidden } = await hiddenConflicts(dialect, db, scope, kept, conflictFields, request.action);
    errors.push(...hidden);
    // `groups` holds `kept`; only when the visibility check removed rows must the rest be regrouped.
    for (const group of hidden.length === 0 ? groups : groupByColumns(writable)) {
      const outcome = await writeGroup(dialect, db, entity, group, request);
      result.successCount += outcome.inserted + outcome.updated;
      result.skippedCount += outcome.ignored;
    }
    if (inTransaction) {
      settleErrors(result);
      await inTransaction(db, result);
    }
  };
  try {
    // One statement is atomic by itself: BEGIN and COMMIT would only add two round trips.
    if (!inTransaction && isSingleStatement(dialect, scope, groups, request)) await write(driver);
    else await driver.transaction(write);
  } catch (error) {
    throw refused(error, result, dialect, entity);
  }
  settleErrors(result);
  return result;
}
