/**
 * The import pipeline (DESIGN §9): open the CSV, read the header and settle the mapping (problems
 * are a plain 400 before anything is imported), record a job, then stream batches of 500 through
 * the writer, one transaction each, reporting progress as NDJSON events. Parsing of the next batch
 * overlaps the write of the current one, and the job-store record of a batch overlaps the write of
 * the next; at most two batches are in memory (and the rejected rows of a third).
 */
import type { ViewRecord } from '../workspace/types.ts';
import type { WorkspaceRuntime } from '../workspace/runtime.ts';
import { ApiError, badRequest } from '../errors.ts';
import type { ReadScope } from '../query/plan.ts';
import { readScope } from '../query/read.ts';
import { readConflictOptions } from '../write/bulk-request.ts';
import { migrationBlocksWrites, type WritePolicy } from '../write/records.ts';
import { batchesOfGroups, compileRowBody, type Batch, type SourceRow } from './batches.ts';
import { openCsv, type CsvRecord } from './csv-source.ts';
import type { BatchRecord, FailedBatch, ImportJobStore, JobCounts, JobOptions, JobRecord } from './job-store.ts';
import { autoMapping, checkMapping, explicitMapping, importableColumns, positionalMapping, type ImportMapping } from './mapping.ts';
import { dropMarkers, ensureMarkerTable, MARKER_TABLE, readMarkers, type BatchMarker } from './markers.ts';
import type { ImportOptions } from './options.ts';
import { recheckBatch, writeBatch, type BatchWriter, type RowProblem } from './write-batch.ts';

export type ImportEvent =
  | { event: 'started'; jobId: string; mapping: Record<string, string>; skippedColumns: string[] }
  | { event: 'progress'; batch: number; batchesDone: number; rowsRead: number; successCount: number; errorCount: number }
  | { event: 'done'; jobId: string; totalCount: number; successCount: number; failureCount: number; skippedCount: number; failedBatches: FailedBatch[] }
  | { event: 'error'; code: string; message: string; details?: unknown };

/** Told about every batch this process wrote (metrics); core knows no metrics library. */
export interface ImportObserver {
  batchWritten(rows: { readonly success: number; readonly failure: number; readonly skipped: number }): void;
}

export interface ImportContext {
  readonly runtime: WorkspaceRuntime;
  readonly policy: { readonly read: ReadScope['policy']; readonly write: WritePolicy };
  readonly view: ViewRecord;
  readonly subject: string;
  readonly jobs: ImportJobStore;
  /** Body size limit in bytes (100 MiB unless configured lower). */
  readonly limitBytes: number;
  /** The workspace as it is now (migration flags move while an import runs). */
  refresh(): Promise<WorkspaceRuntime>;
  /** True once the client's connection is gone. */
  connectionLost(): boolean;
  logError(error: unknown): void;
  readonly observer?: ImportObserver;
}

export interface PreparedImport {
  readonly jobId: string;
  readonly started: ImportEvent;
  /** Runs the batches; never throws: a stop becomes an `error` event and the job records it. */
  run(emit: (event: ImportEvent) => void): Promise<void>;
}

const HEARTBEAT_MS = 10_000;

/** The first group of records; the rest stay in the stream. */
async function firstGroup(groups: AsyncGenerator<CsvRecord[], void, undefined>): Promise<[CsvRecord, ...CsvRecord[]]> {
  const first = await groups.next();
  const group = first.done ? [] : first.value;
  if (group.length === 0) throw badRequest('the file is empty');
  return group as [CsvRecord, ...CsvRecord[]];
}

async function* prepend(first: CsvRecord[], rest: AsyncGenerator<CsvRecord[], void, undefined>): AsyncGenerator<CsvRecord[], void, undefined> {
  if (first.length > 0) yield first;
  yield* rest;
}

function settleMapping(ctx: ImportContext, scope: ReadScope, options: ImportOptions, header: string[] | null, width: number): ImportMapping {
  const entity = scope.root.entity;
  const columns = importableColumns(entity, ctx.runtime.columnsByView.get(ctx.view.uuid) ?? [], options.method);
  let mapping: ImportMapping;
  if (options.mapping) mapping = explicitMapping(options.mapping, header, width, columns, entity);
  else mapping = header ? autoMapping(header, columns) : positionalMapping(width, columns);
  checkMapping(mapping, entity, options.method, columns);
  return mapping;
}

function conflictOf(scope: ReadScope, options: ImportOptions): BatchWriter['conflict'] {
  const entity = scope.root.entity;
  if (options.method === 'UPDATE') return { action: 'UPDATE', conflictFields: [entity.idField.name] };
  return readConflictOptions(entity, options.onConflict, options.conflictColumns);
}

/** A resumed job imports the re-sent file with the options it started with. */
export function optionsOfJob(job: JobRecord): ImportOptions {
  const o = job.options;
  return { method: o.method, header: o.header, delimiter: o.delimiter, mapping: o.mapping, onConflict: o.onConflict, conflictColumns: [...o.conflictFields] };
}

export async function prepareImport(ctx: ImportContext, body: AsyncIterable<Buffer>, options: ImportOptions, resumed?: JobRecord): Promise<PreparedImport> {
  const scope = readScope(ctx.runtime, ctx.view.entity, ctx.policy.read, ctx.view.uuid);
  migrationBlocksWrites(scope);
  const conflict = conflictOf(scope, options);
  const source = await openCsv(body, { limitBytes: ctx.limitBytes, ...(options.delimiter !== undefined ? { delimiter: options.delimiter } : {}) });
  const [first, ...others] = await firstGroup(source.groups);
  if (options.header && first.problem !== undefined) throw badRequest(`the header line ${first.problem.replace(/;.*$/, '')}`);
  const header = options.header ? first.fields : null;
  const records = prepend(options.header ? others : [first, ...others], source.groups);
  if (resumed && resumed.header !== null && JSON.stringify(resumed.header) !== JSON.stringify(header)) {
    throw badRequest('the header differs from the one of the original import; resume needs the same file');
  }
  const mapping = settleMapping(ctx, scope, options, header, first.fields.length);
  const jobOptions: JobOptions = {
    method: options.method, header: options.header, delimiter: source.delimiter, mapping: mapping.mapping,
    onConflict: conflict.action, conflictFields: conflict.conflictFields,
  };
  const jobId = resumed?.jobId ?? await ctx.jobs.createJob({ workspaceId: ctx.runtime.workspace.id, viewUuid: ctx.view.uuid, createdBy: ctx.subject, options: jobOptions, header });
  const writer: BatchWriter = { jobId, database: ctx.runtime.database, scope, policy: ctx.policy.write, viewUuid: ctx.view.uuid, mapping, method: options.method, conflict, body: compileRowBody(mapping, options.method) };
  return {
    jobId,
    started: { event: 'started', jobId, mapping: mapping.mapping, skippedColumns: mapping.skippedColumns },
    run: (emit) => new ImportRun(ctx, writer, jobId, resumed).run(batchesOfGroups(records), emit),
  };
}

/** One run of a job over one request body; a resume is a second run of the same job. */
class ImportRun {
  private readonly totals: JobCounts;
  /** Batches the job store has recorded: a resume checks them against the re-sent file and skips them. */
  private readonly recorded: number;
  private readonly resuming: boolean;
  /** Batches committed in the workspace database but not recorded (the service died or lost the answer). */
  private unrecorded = new Map<number, BatchMarker>();
  /**
   * The job-store record of the last written batch, in flight while the next batch is written:
   * its marker already says it committed, so a record that never lands is adopted on resume.
   * Settles to the error that stopped it, if any; records go one at a time, in batch order.
   */
  private recording: Promise<unknown> = Promise.resolve(null);

  constructor(
    private readonly ctx: ImportContext,
    private readonly writer: BatchWriter,
    private readonly jobId: string,
    resumed: JobRecord | undefined,
  ) {
    this.totals = {
      totalCount: resumed?.totalCount ?? 0,
      successCount: resumed?.successCount ?? 0,
      failureCount: resumed?.failureCount ?? 0,
      skippedCount: resumed?.skippedCount ?? 0,
      batchesDone: resumed?.batchesDone ?? 0,
    };
    this.recorded = resumed?.batchesDone ?? 0;
    this.resuming = resumed !== undefined;
  }

  /** The marker table exists before the first batch; a resume learns which later batches committed. */
  private async readCommitted(): Promise<void> {
    try {
      await ensureMarkerTable(this.writer.database);
    } catch (error) {
      this.ctx.logError(error);
      throw new ApiError('SERVICE_UNAVAILABLE', `the import could not create its table ${MARKER_TABLE} in the workspace database (the database user needs permission to create it)`);
    }
    if (this.resuming) this.unrecorded = await readMarkers(this.writer.database, this.jobId, this.recorded);
  }

  /** The last batch the re-sent file must reach: recorded or committed. */
  private get skipThrough(): number {
    return Math.max(this.recorded, ...this.unrecorded.keys());
  }

  async run(batches: AsyncGenerator<Batch, void, undefined>, emit: (event: ImportEvent) => void): Promise<void> {
    const heartbeat = setInterval(() => void this.ctx.jobs.heartbeat(this.jobId).catch(() => undefined), HEARTBEAT_MS);
    heartbeat.unref();
    // The write of batch N runs while batch N+1 is parsed; `pending` settles to the error that stopped it, if any.
    let pending: Promise<unknown> = Promise.resolve(null);
    try {
      await this.readCommitted();
      const fingerprints = this.recorded > 0 ? await this.ctx.jobs.batchFingerprints(this.jobId) : new Map<number, string>();
      const skipThrough = this.skipThrough;
      let seen = 0;
      for await (const batch of batches) {
        seen = batch.batch;
        if (batch.batch <= this.recorded) {
          this.checkSameFile(batch, fingerprints.get(batch.batch));
          continue;
        }
        const marker = this.unrecorded.get(batch.batch);
        if (marker) {
          await this.rethrow(pending);
          pending = this.adopt(batch, marker, emit).then(() => null, (error: unknown) => error);
          continue;
        }
        await this.rethrow(pending);
        await this.checkWritesAllowed();
        pending = this.process(batch, emit).then(() => null, (error: unknown) => error);
      }
      await this.rethrow(pending);
      await this.rethrow(this.recording);
      if (seen < skipThrough) throw badRequest(`the file has fewer rows than the ${skipThrough} batch(es) already imported; resume needs the same file`);
      await this.ctx.jobs.finishJob(this.jobId, 'DONE', this.totals);
      await dropMarkers(this.writer.database, this.jobId).catch((e: unknown) => this.ctx.logError(e));
      emit({ event: 'done', jobId: this.jobId, ...this.counts(), failedBatches: await this.ctx.jobs.failedBatches(this.jobId) });
    } catch (error) {
      await pending;
      // The job's final counts must not be overwritten by a record still on its way.
      await this.recording;
      await this.stop(error, emit);
    } finally {
      clearInterval(heartbeat);
      await batches.return(undefined).catch(() => undefined);
    }
  }

  private counts(): Omit<JobCounts, 'batchesDone'> {
    const { totalCount, successCount, failureCount, skippedCount } = this.totals;
    return { totalCount, successCount, failureCount, skippedCount };
  }

  private async rethrow(pending: Promise<unknown>): Promise<void> {
    const error = await pending;
    if (error !== null) throw error;
  }

  private checkSameFile(batch: Batch, fingerprint: string | undefined): void {
    if (fingerprint !== batch.fingerprint) {
      throw badRequest(`rows ${batch.fromRow}–${batch.toRow} (batch ${batch.batch}) differ from the original import; resume needs the same file`);
    }
  }

  /** An entity whose migration blocks writes stops the import at the next batch boundary. */
  private async checkWritesAllowed(): Promise<void> {
    const fresh = await this.ctx.refresh();
    migrationBlocksWrites(readScope(fresh, this.ctx.view.entity, this.ctx.policy.read, this.ctx.view.uuid));
  }

  private async process(batch: Batch, emit: (event: ImportEvent) => void): Promise<void> {
    const outcome = await writeBatch(this.writer, batch);
    this.add(batch, outcome);
    this.ctx.observer?.batchWritten({ success: outcome.successCount, failure: outcome.failureCount, skipped: outcome.skippedCount });
    const record = { batch: batch.batch, fromRow: batch.fromRow, toRow: batch.toRow, fingerprint: batch.fingerprint, ...(outcome.failure ? { failure: outcome.failure } : {}) };
    await this.record(batch, record, outcome.rejected, outcome.problems, emit);
  }

  /**
   * Records the batch in the job store and then reports its progress, off the write path: the
   * next batch is written meanwhile. Waits only for the previous record (one in flight at most).
   */
  private async record(batch: Batch, record: BatchRecord, rejected: SourceRow[], problems: RowProblem[], emit: (event: ImportEvent) => void): Promise<void> {
    await this.rethrow(this.recording);
    const t = { ...this.totals };
    // The progress event keeps two numbers, not the batch: its rows can go while the record is on its way.
    const { batch: number, toRow } = batch;
    this.recording = this.ctx.jobs.recordBatch(this.jobId, record, rejected, problems, t).then(() => {
      emit({ event: 'progress', batch: number, batchesDone: t.batchesDone, rowsRead: toRow, successCount: t.successCount, errorCount: t.failureCount });
      return null;
    }, (error: unknown) => error);
  }

  /**
   * A batch the workspace database committed (its marker is there) that the job store lacks: it is
   * recorded with the marker's counts and not written again. Its rejected rows are found again by
   * validation alone (see recheckBatch); the counts are the marker's.
   */
  private async adopt(batch: Batch, marker: BatchMarker, emit: (event: ImportEvent) => void): Promise<void> {
    this.checkSameFile(batch, marker.fingerprint);
    const { problems, rejected } = recheckBatch(this.writer, batch);
    this.add(batch, marker);
    await this.record(batch, { batch: batch.batch, fromRow: batch.fromRow, toRow: batch.toRow, fingerprint: batch.fingerprint }, rejected, problems, emit);
  }

  private add(batch: Batch, outcome: { successCount: number; failureCount: number; skippedCount: number }): void {
    const t = this.totals;
    t.totalCount += batch.rows.length;
    t.successCount += outcome.successCount;
    t.failureCount += outcome.failureCount;
    t.skippedCount += outcome.skippedCount;
    t.batchesDone += 1;
  }

  private async stop(error: unknown, emit: (event: ImportEvent) => void): Promise<void> {
    const lost = this.ctx.connectionLost() && !(error instanceof ApiError);
    const known = error instanceof ApiError ? error : null;
    if (!known && !lost) this.ctx.logError(error);
    const reason = known
      ? { code: known.code, message: known.message }
      : lost
        ? { code: 'INTERRUPTED', message: 'the connection was lost; committed batches stay imported and the job can be resumed' }
        : { code: 'INTERNAL_ERROR', message: 'the import stopped on an internal error; committed batches stay imported and the job can be resumed' };
    await this.ctx.jobs.finishJob(this.jobId, lost ? 'INTERRUPTED' : 'FAILED', this.totals, reason).catch((e: unknown) => this.ctx.logError(e));
    // Details tell a client what to do (SCHEMA_OUT_OF_SYNC names what is missing); the job keeps code and message.
    emit({ event: 'error', ...reason, ...(known?.details !== undefined ? { details: known.details } : {}) });
  }
}
