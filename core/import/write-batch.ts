/**
 * One batch into the workspace database, in one transaction. INSERT goes through the bulk
 * engine (validation, dedupe, upsert); UPDATE changes existing rows by primary key, one
 * statement per row so that a key that matches nothing is reported for exactly that row.
 * A refusal only the database can detect fails the whole batch (spec "CSV import" rule 7).
 */
import { ApiError } from '../errors.ts';
import { render } from '../sql.ts';
import type { ReadScope } from '../query/plan.ts';
import type { Database, Executor } from '../../dialects/dialect.ts';
import { compileUpdate } from '../query/compile-write.ts';
import { planUpdate } from '../query/plan-write.ts';
import { validateRows, writeBulkRows } from '../write/bulk.ts';
import type { BulkError, BulkRequest } from '../write/bulk-request.ts';
import { translateDbError } from '../workspace/db-errors.ts';
import type { WritePolicy } from '../write/records.ts';
import { checkRow, type RowValues } from '../write/validate.ts';
import { parseScalar } from '../schema/coerce.ts';
import type { Batch, RowBody, SourceRow } from './batches.ts';
import type { ImportMapping, ImportMethod } from './mapping.ts';
import { writeMarker } from './markers.ts';

export interface RowProblem {
  readonly row: number;
  readonly line: number;
  readonly field?: string;
  readonly code: string;
  readonly message: string;
}

export interface BatchOutcome {
  readonly successCount: number;
  readonly skippedCount: number;
  readonly failureCount: number;
  readonly problems: RowProblem[];
  /** Rows not imported, for rejections.csv (all rows of a failed batch). */
  readonly rejected: SourceRow[];
  /** Set when the database refused the whole batch. */
  readonly failure?: { readonly code: string; readonly message: string };
}

export interface BatchWriter {
  readonly jobId: string;
  readonly database: Database;
  readonly scope: ReadScope;
  readonly policy: WritePolicy;
  readonly viewUuid: string;
  readonly mapping: ImportMapping;
  readonly method: ImportMethod;
  readonly conflict: Omit<BulkRequest, 'rows'>;
  /** The mapping compiled (batches.ts `compileRowBody`): a row as the body the bulk engine validates. */
  readonly body: RowBody;
}

/** Codes that mean "the database refused this batch"; anything else stops the import. */
const BATCH_FAILURES = new Set(['CONFLICT', 'REFERENCE_NOT_FOUND', 'VALIDATION_FAILED', 'FORBIDDEN']);

function widthProblem(row: SourceRow, width: number): RowProblem {
  return { row: row.row, line: row.line, code: 'VALIDATION_FAILED', message: `has ${row.fields.length} field(s); the file's rows have ${width}` };
}

function bytesProblem(row: SourceRow, problem: string): RowProblem {
  return { row: row.row, line: row.line, code: 'VALIDATION_FAILED', message: problem };
}

function toProblems(errors: readonly BulkError[], rows: readonly SourceRow[]): RowProblem[] {
  return errors.map((e) => {
    const source = rows[e.row];
    return { row: source?.row ?? 0, line: source?.line ?? 0, ...(e.field !== undefined ? { field: e.field } : {}), code: e.code, message: e.message };
  });
}

function rejectedRows(rows: readonly SourceRow[], problems: readonly RowProblem[]): SourceRow[] {
  const failed = new Set(problems.map((p) => p.row));
  return rows.filter((r) => failed.has(r.row));
}

/** Writes the batch's marker inside the transaction of its rows. */
type MarkBatch = (tx: Executor, counts: { successCount: number; skippedCount: number; failureCount: number }) => Promise<void>;

/** `earlierFailures`: rows refused before the write (bad bytes, wrong width). */
function markerOf(writer: BatchWriter, batch: Batch, earlierFailures: number): MarkBatch {
  return (tx, counts) => writeMarker(writer.database, tx, writer.jobId, {
    batch: batch.batch, fingerprint: batch.fingerprint,
    successCount: counts.successCount, skippedCount: counts.skippedCount, failureCount: earlierFailures + counts.failureCount,
  });
}

async function insertRows(writer: BatchWriter, bodies: Record<string, unknown>[], mark: MarkBatch): Promise<{ successCount: number; skippedCount: number; errors: BulkError[] }> {
  const result = await writeBulkRows(writer.database, writer.scope, writer.policy, writer.viewUuid, { rows: bodies, ...writer.conflict }, (tx, r) => mark(tx, r));
  return { successCount: result.successCount, skippedCount: result.skippedCount, errors: result.errors };
}

/** True when the connection died during the batch: its COMMIT may or may not have happened. */
function connectionLost(writer: BatchWriter, error: unknown): boolean {
  const cause = error instanceof ApiError ? error.cause : error;
  return writer.database.dialect.mapError(cause)?.kind === 'connection_lost';
}

/** Never "nothing was written" here: the batch's marker tells on resume. */
function outcomeUnknown(batch: Batch): ApiError {
  return new ApiError('SERVICE_UNAVAILABLE', `the connection to the workspace database was lost; the outcome of batch ${batch.batch} is unknown (rows ${batch.fromRow}–${batch.toRow}); resume checks it`);
}

/** Rows refused before any validation (bad bytes, wrong width) apart from the rows to validate. */
function splitRows(writer: BatchWriter, batch: Batch): { sourceProblems: RowProblem[]; rows: SourceRow[] } {
  const sourceProblems: RowProblem[] = [];
  const rows: SourceRow[] = [];
  for (const row of batch.rows) {
    if (row.problem !== undefined) sourceProblems.push(bytesProblem(row, row.problem));
    else if (row.fields.length !== writer.mapping.width) sourceProblems.push(widthProblem(row, writer.mapping.width));
    else rows.push(row);
  }
  return { sourceProblems, rows };
}

/**
 * The rejections of a batch that committed while the service lost the answer, found again without
 * writing: bad bytes, wrong width, validation. Refusals only the database could tell (a key hidden
 * by row-level security, an UPDATE of a missing row) are not among them.
 */
export function recheckBatch(writer: BatchWriter, batch: Batch): { problems: RowProblem[]; rejected: SourceRow[] } {
  const { sourceProblems, rows } = splitRows(writer, batch);
  const bodies = rows.map(writer.body);
  const errors = writer.method === 'INSERT'
    ? validateRows(writer.scope, writer.policy, { rows: bodies, ...writer.conflict }).errors
    : prepareUpdates(writer, bodies).errors;
  const problems = [...sourceProblems, ...toProblems(errors, rows)].sort((a, b) => a.row - b.row);
  return { problems, rejected: rejectedRows(batch.rows, problems) };
}

export async function writeBatch(writer: BatchWriter, batch: Batch): Promise<BatchOutcome> {
  const { sourceProblems, rows } = splitRows(writer, batch);
  const bodies = rows.map(writer.body);
  const mark = markerOf(writer, batch, sourceProblems.length);
  try {
    const written = writer.method === 'INSERT' ? await insertRows(writer, bodies, mark) : await updateRows(writer, bodies, mark);
    const problems = [...sourceProblems, ...toProblems(written.errors, rows)].sort((a, b) => a.row - b.row);
    const rejected = rejectedRows(batch.rows, problems);
    return { successCount: written.successCount, skippedCount: written.skippedCount, failureCount: rejected.length, problems, rejected };
  } catch (error) {
    if (connectionLost(writer, error)) throw outcomeUnknown(batch);
    const translated = translateDbError(writer.database.dialect, writer.scope.root.entity, error);
    if (!(translated instanceof ApiError) || !BATCH_FAILURES.has(translated.code)) throw translated;
    const earlier = (translated.extra?.result as { errors?: BulkError[] } | undefined)?.errors ?? [];
    const problems = [...sourceProblems, ...toProblems(earlier, rows)].sort((a, b) => a.row - b.row);
    return { successCount: 0, skippedCount: 0, failureCount: batch.rows.length, problems, rejected: [...batch.rows], failure: { code: translated.code, message: translated.message } };
  }
}

interface PreparedUpdate {
  readonly index: number;
  readonly id: unknown;
  readonly values: RowValues;
}

function prepareUpdates(writer: BatchWriter, bodies: readonly Record<string, unknown>[]): { ready: PreparedUpdate[]; errors: BulkError[] } {
  const entity = writer.scope.root.entity;
  const idName = entity.idField.name;
  const ready: PreparedUpdate[] = [];
  const errors: BulkError[] = [];
  bodies.forEach((body, index) => {
    const { [idName]: rawId, ...rest } = body;
    const id = rawId === undefined || rawId === null ? null : parseScalar(entity.idField.type, rawId, { fromText: true });
    if (id === null || !id.ok) {
      errors.push({ row: index, field: idName, code: 'VALIDATION_FAILED', message: id === null ? `${idName} is required: UPDATE matches rows on it` : `${idName} ${id.message}` });
      return;
    }
    const { values, problems } = checkRow(writer.scope.root, rest, 'update');
    if (problems.length > 0) {
      errors.push(...problems.map((p) => ({ row: index, field: p.field, code: 'VALIDATION_FAILED', message: `${p.field} ${p.message}` })));
      return;
    }
    try {
      writer.policy.checkUpdate(entity, values);
      ready.push({ index, id: id.value, values });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      errors.push({ row: index, code: error.code, message: error.message });
    }
  });
  return { ready, errors };
}

async function updateOne(writer: BatchWriter, tx: Executor, update: PreparedUpdate): Promise<boolean> {
  const { dialect } = writer.database;
  const statement = compileUpdate(planUpdate(writer.scope, update.id, update.values), dialect);
  return (await tx.query(render(statement, dialect.sql))).affectedRows > 0;
}

/**
 * Method UPDATE: a row whose key matches no row (or only a row hidden from the caller by
 * row-level security) is a failure of that row (NOT_FOUND), never an insert.
 */
async function updateRows(writer: BatchWriter, bodies: readonly Record<string, unknown>[], mark: MarkBatch): Promise<{ successCount: number; skippedCount: number; errors: BulkError[] }> {
  const { ready, errors } = prepareUpdates(writer, bodies);
  const entity = writer.scope.root.entity;
  let successCount = 0;
  const missing: BulkError[] = [];
  await writer.database.driver.transaction(async (tx) => {
    for (const update of ready) {
      if (await updateOne(writer, tx, update)) successCount++;
      else missing.push({ row: update.index, code: 'NOT_FOUND', message: `no ${entity.name} record with ${entity.idField.name} ${String(update.id)} exists; UPDATE changes existing rows only` });
    }
    await mark(tx, { successCount, skippedCount: 0, failureCount: new Set([...errors, ...missing].map((e) => e.row)).size });
  });
  return { successCount, skippedCount: 0, errors: [...errors, ...missing].sort((a, b) => a.row - b.row) };
}
