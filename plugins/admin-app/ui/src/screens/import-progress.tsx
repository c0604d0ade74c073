/**
 * The import's progress (the NDJSON events of `POST /api/data/import/…` and `…/resume`), its report
 * and rejections download, and the jobs this tab started that were interrupted, with Resume.
 */
import { useEffect, useState } from 'preact/hooks';
import { api, call, message } from '../lib/api.ts';
import { ErrorNote } from '../components/field.tsx';

export interface Progress {
  jobId?: string;
  batchesDone: number;
  rowsRead: number;
  successCount: number;
  errorCount: number;
  done?: { totalCount: number; successCount: number; failureCount: number; skippedCount: number };
  error?: string;
}

/** Reads the NDJSON answer line by line and hands each event over as it arrives. */
export async function readEvents(response: Response, onEvent: (event: Record<string, unknown>) => void): Promise<void> {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffered += value;
    const lines = buffered.split('\n');
    buffered = lines.pop() ?? '';
    for (const line of lines) if (line.trim()) onEvent(JSON.parse(line) as Record<string, unknown>);
  }
  if (buffered.trim()) onEvent(JSON.parse(buffered) as Record<string, unknown>);
}

export function applyEvent(progress: Progress, event: Record<string, unknown>): Progress {
  switch (event.event) {
    case 'started':
      return { ...progress, jobId: String(event.jobId) };
    case 'progress':
      return { ...progress, batchesDone: Number(event.batchesDone), rowsRead: Number(event.rowsRead), successCount: Number(event.successCount), errorCount: Number(event.errorCount) };
    case 'done':
      return {
        ...progress,
        done: { totalCount: Number(event.totalCount), successCount: Number(event.successCount), failureCount: Number(event.failureCount), skippedCount: Number(event.skippedCount) },
      };
    case 'error':
      return { ...progress, error: String(event.message) };
    default:
      return progress;
  }
}

async function download(path: string, filename: string): Promise<void> {
  const blob = await (await call('GET', path, { headers: { Accept: 'text/csv' } })).blob();
  const link = document.createElement('a');
  link.href = URL.createObjectURL(blob);
  link.download = filename;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
}

export function ProgressView({ progress, estimatedRows }: { readonly progress: Progress; readonly estimatedRows: number }) {
  const done = progress.done;
  const [report, setReport] = useState<unknown>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    if (done && progress.jobId) void api('GET', `/api/imports/${progress.jobId}/report`).then((answer) => setReport(answer.data), (e: unknown) => setError(message(e)));
  }, [done, progress.jobId]);
  const read = done ? done.totalCount : progress.rowsRead;
  const max = done ? Math.max(done.totalCount, 1) : Math.max(estimatedRows, read, 1);
  return (
    <section class="panel" aria-label="Import progress">
      <h2>Progress</h2>
      <label for="import-progress">Rows processed</label> <progress id="import-progress" max={max} value={read} />
      <p role="status" id="import-counts">
        {done
          ? `Done: ${done.totalCount} rows, ${done.successCount} imported, ${done.failureCount} rejected, ${done.skippedCount} skipped.`
          : `${progress.batchesDone} batches, ${progress.rowsRead} rows read, ${progress.successCount} imported, ${progress.errorCount} rejected…`}
      </p>
      <ErrorNote error={progress.error ?? error} />
      {done && progress.jobId && (
        <div class="toolbar">
          <button type="button" onClick={() => void download(`/api/imports/${progress.jobId}/rejections.csv`, `import-${progress.jobId}-rejections.csv`).catch((e: unknown) => setError(message(e)))}>
            Download rejections CSV
          </button>
        </div>
      )}
      {report !== undefined && (
        <details>
          <summary>Report</summary>
          <pre>{JSON.stringify(report, null, 2)}</pre>
        </details>
      )}
    </section>
  );
}
