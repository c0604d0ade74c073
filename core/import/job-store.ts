/**
 * Import jobs, their batches and rejected rows, and saved mappings, in the control store
 * (DESIGN §2, §9). Kept apart from core/control/store.ts; it runs on the same executor.
 */
import { randomUUID } from 'node:crypto';
import type { ControlStore } from '../workspace/store.ts';
import { controlRows, controlTable, isUuid, jsonb } from '../workspace/control-sql.ts';
import { join, raw, sql, type Sql } from '../sql.ts';
import type { Executor } from '../../dialects/dialect.ts';
import type { SourceRow } from './batches.ts';
import { heartbeatOnlyLease, type OwnerLease } from './owner-lease.ts';
import type { ImportMethod, MappingInput } from './mapping.ts';
import type { RowProblem } from './write-batch.ts';

type Row = Record<string, unknown>;

export type JobState = 'RUNNING' | 'DONE' | 'FAILED' | 'INTERRUPTED';

/** A RUNNING job whose heartbeat is older than this belongs to a process that died. */
export const HEARTBEAT_STALE_SECONDS = 30;

export interface JobOptions {
  readonly method: ImportMethod;
  readonly header: boolean;
  readonly delimiter: string;
  /** `{csvColumn: fieldName}` actually used (positions "1", "2", … without a header). */
  readonly mapping: Record<string, string>;
  readonly onConflict: 'ERROR' | 'IGNORE' | 'UPDATE';
  readonly conflictFields: readonly string[];
}

export interface JobCounts {
  totalCount: number;
  successCount: number;
  failureCount: number;
  skippedCount: number;
  batchesDone: number;
}

export interface FailedBatch {
  readonly batch: number;
  readonly fromRow: number;
  readonly toRow: number;
  readonly code: string;
  readonly message: string;
}

export interface JobRecord extends JobCounts {
  readonly jobId: string;
  readonly workspaceId: string;
  readonly viewUuid: string;
  readonly createdBy: string;
  readonly state: JobState;
  readonly options: JobOptions;
  readonly header: string[] | null;
  /** Instance id of the process that runs (or last ran) the job. */
  readonly owner: string | null;
}

/** A job as the workspace's job list shows it. */
export interface ListedJob extends JobRecord {
  readonly entity: string | null;
  readonly viewName: string | null;
  readonly createdAt: string;
  readonly finishedAt: string | null;
  readonly error: { readonly code: string; readonly message: string } | null;
}

export interface BatchRecord {
  readonly batch: number;
  readonly fromRow: number;
  readonly toRow: number;
  readonly fingerprint: string;
  readonly failure?: { readonly code: string; readonly message: string };
}

export interface SavedMapping {
  readonly id: string;
  readonly viewUuid: string;
  readonly name: string;
  readonly visibility: 'PRIVATE' | 'SHARED';
  readonly mapping: MappingInput;
  readonly header: boolean;
  readonly method: ImportMethod;
  readonly createdBy: string;
}

const t = controlTable;

const EFFECTIVE_STATE = raw(`CASE WHEN state = 'RUNNING' AND heartbeat_at < now() - interval '${HEARTBEAT_STALE_SECONDS} seconds' THEN 'INTERRUPTED' ELSE state END`);

function toJob(row: Row): JobRecord {
  return {
    jobId: String(row.id),
    workspaceId: String(row.workspace_id),
    viewUuid: String(row.view_uuid),
    createdBy: String(row.created_by),
    state: row.effective_state as JobState,
    options: row.options as JobOptions,
    header: (row.header as string[] | null) ?? null,
    owner: typeof row.owner_instance === 'string' ? row.owner_instance : null,
    totalCount: Number(row.total_count),
    successCount: Number(row.success_count),
    failureCount: Number(row.failure_count),
    skippedCount: Number(row.skipped_count),
    batchesDone: Number(row.batches_done),
  };
}

function toMapping(row: Row): SavedMapping {
  return {
    id: String(row.id),
    viewUuid: String(row.view_uuid),
    name: String(row.name),
    visibility: row.visibility as SavedMapping['visibility'],
    mapping: row.mapping as MappingInput,
    header: row.header === true,
    method: row.method as ImportMethod,
    createdBy: String(row.created_by),
  };
}

function counts(c: JobCounts): Sql {
  return sql`total_count = ${c.totalCount}, success_count = ${c.successCount}, failure_count = ${c.failureCount}, skipped_count = ${c.skippedCount}, batches_done = ${c.batchesDone}`;
}

/** A rejected record's field as stored: null is a field written `""` (an empty string, not an empty cell). */
export type StoredField = string | null;

function storedFields(row: SourceRow): StoredField[] {
  return row.fields.map((field, i) => (row.emptyQuoted?.includes(i) ? null : field));
}

export class ImportJobStore {
  private constructor(private readonly db: Executor, private readonly lease: OwnerLease) {}

  /**
   * This module's tables live in the control database; its queries stay out of core/control/store.ts.
   * Without a lease, a job's owner counts as alive until its heartbeat goes stale.
   */
  static of(store: ControlStore, lease: OwnerLease = heartbeatOnlyLease()): ImportJobStore {
    return new ImportJobStore(store.executor, lease);
  }

  /** A RUNNING job whose owning process is gone is INTERRUPTED now, not when its heartbeat goes stale. */
  private async withLiveness(job: JobRecord): Promise<JobRecord> {
    if (job.state !== 'RUNNING' || job.owner === null || (await this.lease.isAlive(job.owner))) return job;
    return { ...job, state: 'INTERRUPTED' };
  }

  private async rows(fragment: Sql): Promise<Row[]> {
    return controlRows(this.db, fragment);
  }

  async createJob(job: { workspaceId: string; viewUuid: string; createdBy: string; options: JobOptions; header: string[] | null }): Promise<string> {
    const id = randomUUID();
    await this.rows(sql`INSERT INTO ${t('import_jobs')} (id, workspace_id, view_uuid, created_by, state, options, header, owner_instance)
      VALUES (${id}, ${job.workspaceId}, ${job.viewUuid}, ${job.createdBy}, 'RUNNING', ${jsonb(job.options)}, ${jsonb(job.header)}, ${this.lease.instanceId})`);
    return id;
  }

  async findJob(id: string): Promise<JobRecord | undefined> {
    if (!isUuid(id)) return undefined;
    const row = (await this.rows(sql`SELECT *, ${EFFECTIVE_STATE} AS effective_state FROM ${t('import_jobs')} WHERE id = ${id}`))[0];
    return row ? this.withLiveness(toJob(row)) : undefined;
  }

  /**
   * A workspace's jobs, newest first, with the view each was imported into (absent when the view is
   * gone). `createdBy` narrows to one user's jobs; `states` matches the state after the liveness
   * check, so a RUNNING job of a dead process is found as INTERRUPTED.
   */
  async listJobs(workspaceId: string, filter: { createdBy?: string; states?: readonly JobState[]; limit: number }): Promise<ListedJob[]> {
    // EFFECTIVE_STATE names state and heartbeat_at unqualified: the joined views table has neither.
    const conditions = [sql`j.workspace_id = ${workspaceId}`];
    if (filter.createdBy !== undefined) conditions.push(sql`j.created_by = ${filter.createdBy}`);
    // A RUNNING row may turn out INTERRUPTED below: it is read whenever INTERRUPTED is asked for.
    const states = filter.states?.includes('INTERRUPTED') ? [...filter.states, 'RUNNING'] : filter.states;
    if (states !== undefined) conditions.push(sql`(${EFFECTIVE_STATE}) IN (${join(states.map((state) => sql`${state}`))})`);
    const rows = await this.rows(sql`SELECT j.*, ${EFFECTIVE_STATE} AS effective_state,
        v.entity AS view_entity, v.name AS view_name
      FROM ${t('import_jobs')} j LEFT JOIN ${t('views')} v ON v.uuid = j.view_uuid
      WHERE ${join(conditions, ' AND ')} ORDER BY j.created_at DESC, j.id LIMIT ${filter.limit}`);
    const listed = await Promise.all(rows.map(async (row) => ({
      ...(await this.withLiveness(toJob(row))),
      entity: typeof row.view_entity === 'string' ? row.view_entity : null,
      viewName: typeof row.view_name === 'string' ? row.view_name : null,
      createdAt: new Date(row.created_at as string).toISOString(),
      finishedAt: row.finished_at === null || row.finished_at === undefined ? null : new Date(row.finished_at as string).toISOString(),
      error: (row.error as { code: string; message: string } | null) ?? null,
    })));
    return filter.states === undefined ? listed : listed.filter((job) => filter.states?.includes(job.state));
  }

  /**
   * Takes a stopped job back to RUNNING for this process; undefined when it is not resumable (or
   * another resume won). `job` as read before: a RUNNING job found dead is claimed only while it
   * still names the same dead owner, so that two resumes cannot both win.
   */
  async claimForResume(job: JobRecord): Promise<JobRecord | undefined> {
    const deadOwner = job.state === 'INTERRUPTED' ? job.owner : null;
    const row = (await this.rows(sql`UPDATE ${t('import_jobs')} SET state = 'RUNNING', heartbeat_at = now(), finished_at = NULL, error = NULL,
        owner_instance = ${this.lease.instanceId}
      WHERE id = ${job.jobId} AND ((${EFFECTIVE_STATE}) IN ('FAILED', 'INTERRUPTED') OR (state = 'RUNNING' AND owner_instance = ${deadOwner}))
      RETURNING *, 'RUNNING' AS effective_state`))[0];
    return row ? toJob(row) : undefined;
  }

  async heartbeat(id: string): Promise<void> {
    await this.rows(sql`UPDATE ${t('import_jobs')} SET heartbeat_at = now() WHERE id = ${id} AND state = 'RUNNING'`);
  }

  /** The batch, its rejected rows and the job's cumulative counts, in one statement (atomic without a transaction). */
  async recordBatch(jobId: string, batch: BatchRecord, rejected: readonly SourceRow[], problems: readonly RowProblem[], totals: JobCounts): Promise<void> {
    const insertBatch = sql`INSERT INTO ${t('import_batches')} (job_id, batch, from_row, to_row, committed, code, message, fingerprint)
      VALUES (${jobId}, ${batch.batch}, ${batch.fromRow}, ${batch.toRow}, ${batch.failure === undefined}, ${batch.failure?.code ?? null}, ${batch.failure?.message ?? null}, ${batch.fingerprint})`;
    const parts = [sql`b AS (${insertBatch})`];
    if (rejected.length > 0) {
      const byRow = new Map<number, Omit<RowProblem, 'row' | 'line'>[]>();
      for (const { row, line: _line, ...rest } of problems) byRow.set(row, [...(byRow.get(row) ?? []), rest]);
      const values = rejected.map((r) => sql`(${jobId}::uuid, ${r.row}::integer, ${r.line}::integer, ${batch.batch}::integer, ${jsonb(storedFields(r))}, ${jsonb(byRow.get(r.row) ?? [])})`);
      parts.push(sql`r AS (INSERT INTO ${t('import_rejections')} (job_id, row_number, line, batch, raw, problems) VALUES ${join(values)})`);
    }
    await this.rows(sql`WITH ${join(parts)} UPDATE ${t('import_jobs')} SET ${counts(totals)}, heartbeat_at = now() WHERE id = ${jobId}`);
  }

  async finishJob(id: string, state: Exclude<JobState, 'RUNNING'>, totals: JobCounts, error?: { code: string; message: string }): Promise<void> {
    await this.rows(sql`UPDATE ${t('import_jobs')} SET state = ${state}, ${counts(totals)}, error = ${jsonb(error ?? null)}, finished_at = now(), heartbeat_at = now() WHERE id = ${id}`);
  }

  async batchFingerprints(jobId: string): Promise<Map<number, string>> {
    const rows = await this.rows(sql`SELECT batch, fingerprint FROM ${t('import_batches')} WHERE job_id = ${jobId}`);
    return new Map(rows.map((r) => [Number(r.batch), String(r.fingerprint)]));
  }

  async failedBatches(jobId: string): Promise<FailedBatch[]> {
    const rows = await this.rows(sql`SELECT batch, from_row, to_row, code, message FROM ${t('import_batches')} WHERE job_id = ${jobId} AND NOT committed ORDER BY batch`);
    return rows.map((r) => ({ batch: Number(r.batch), fromRow: Number(r.from_row), toRow: Number(r.to_row), code: String(r.code), message: String(r.message) }));
  }

  /** Rejected rows after `afterRow`, in row order, a page at a time (rejections.csv streams them). */
  async rejections(jobId: string, afterRow: number, limit: number): Promise<{ row: number; line: number; raw: StoredField[]; problems: Omit<RowProblem, 'row' | 'line'>[] }[]> {
    const rows = await this.rows(sql`SELECT row_number, line, raw, problems FROM ${t('import_rejections')}
      WHERE job_id = ${jobId} AND row_number > ${afterRow} ORDER BY row_number LIMIT ${limit}`);
    return rows.map((r) => ({ row: Number(r.row_number), line: Number(r.line), raw: r.raw as StoredField[], problems: r.problems as Omit<RowProblem, 'row' | 'line'>[] }));
  }

  // ── saved mappings ───────────────────────────────────────────────────────────

  async listMappings(viewUuid: string, subject: string): Promise<SavedMapping[]> {
    const rows = await this.rows(sql`SELECT * FROM ${t('import_mappings')} WHERE view_uuid = ${viewUuid}
      AND (visibility = 'SHARED' OR created_by = ${subject}) ORDER BY name, created_at`);
    return rows.map(toMapping);
  }

  async findMapping(id: string): Promise<SavedMapping | undefined> {
    if (!isUuid(id)) return undefined;
    const row = (await this.rows(sql`SELECT * FROM ${t('import_mappings')} WHERE id = ${id}`))[0];
    return row ? toMapping(row) : undefined;
  }

  async insertMapping(mapping: Omit<SavedMapping, 'id'>): Promise<SavedMapping> {
    const id = randomUUID();
    await this.rows(sql`INSERT INTO ${t('import_mappings')} (id, view_uuid, name, visibility, mapping, header, method, created_by)
      VALUES (${id}, ${mapping.viewUuid}, ${mapping.name}, ${mapping.visibility}, ${jsonb(mapping.mapping)}, ${mapping.header}, ${mapping.method}, ${mapping.createdBy})`);
    return { id, ...mapping };
  }

  async deleteMapping(id: string): Promise<void> {
    await this.rows(sql`DELETE FROM ${t('import_mappings')} WHERE id = ${id}`);
  }
}
