/**
 * What a job tells afterwards: its state, the report of rejected rows and failed batches, and
 * rejections.csv — the rejected rows with the input's own header, delimiter and columns, so that
 * the file can be fixed and imported again.
 */
import type { FailedBatch, ImportJobStore, JobRecord, StoredField } from './job-store.ts';
import type { RowProblem } from './write-batch.ts';

const PAGE = 1000;

export interface JobBody {
  jobId: string;
  viewUuid: string;
  state: JobRecord['state'];
  totalCount: number;
  successCount: number;
  failureCount: number;
  skippedCount: number;
  batchesDone: number;
  failedBatches: FailedBatch[];
}

export async function jobBody(jobs: ImportJobStore, job: JobRecord): Promise<JobBody> {
  const { jobId, viewUuid, state, totalCount, successCount, failureCount, skippedCount, batchesDone } = job;
  return { jobId, viewUuid, state, totalCount, successCount, failureCount, skippedCount, batchesDone, failedBatches: await jobs.failedBatches(jobId) };
}

async function* rejectedPages(jobs: ImportJobStore, jobId: string): AsyncGenerator<Awaited<ReturnType<ImportJobStore['rejections']>>> {
  let after = 0;
  for (;;) {
    const page = await jobs.rejections(jobId, after, PAGE);
    if (page.length === 0) return;
    yield page;
    after = page[page.length - 1]?.row ?? after;
    if (page.length < PAGE) return;
  }
}

export async function reportBody(jobs: ImportJobStore, job: JobRecord): Promise<{ rows: RowProblem[]; batches: FailedBatch[] }> {
  const rows: RowProblem[] = [];
  for await (const page of rejectedPages(jobs, job.jobId)) {
    for (const rejected of page) for (const p of rejected.problems) rows.push({ row: rejected.row, line: rejected.line, ...p });
  }
  return { rows, batches: await jobs.failedBatches(job.jobId) };
}

/**
 * RFC 4180 quoting: a field with the delimiter, a quote, a line break or edge spaces is quoted; a
 * stored null (the input's `""`) is written `""` again, since an empty cell imports as null.
 */
export function csvLine(fields: readonly StoredField[], delimiter: string): string {
  return fields.map((f) => (f === null ? '""' : f.includes(delimiter) || /["\r\n]/.test(f) || f !== f.trim() ? `"${f.replace(/"/g, '""')}"` : f)).join(delimiter) + '\r\n';
}

export async function* rejectionsCsv(jobs: ImportJobStore, job: JobRecord): AsyncGenerator<string> {
  const delimiter = job.options.delimiter;
  if (job.header) yield csvLine(job.header, delimiter);
  for await (const page of rejectedPages(jobs, job.jobId)) yield page.map((r) => csvLine(r.raw, delimiter)).join('');
}
