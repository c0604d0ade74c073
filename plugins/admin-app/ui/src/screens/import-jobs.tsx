/**
 * Interrupted imports of the workspace (Import screen): the jobs `GET /api/imports` lists
 * as INTERRUPTED or FAILED, from any tab or session, each with Resume. Resuming sends the same
 * file again; the service skips the batches it has already committed.
 */
import { api } from '../lib/api.ts';
import { useLoad } from '../lib/use-load.ts';
import { ErrorNote } from '../components/field.tsx';

export interface ListedJob {
  readonly jobId: string;
  readonly viewUuid: string;
  readonly entity: string | null;
  readonly viewName: string | null;
  readonly state: string;
  readonly createdBy: string;
  readonly createdAt: string;
  readonly totalCount: number;
  readonly successCount: number;
  readonly failureCount: number;
  readonly error: { readonly message: string } | null;
}

interface Props {
  readonly org: string;
  readonly ws: string;
  /** Changes when an import or a resume ends, so that the list is read again. */
  readonly refresh: string;
  readonly onResume: (jobId: string, file: File) => void;
}

const when = (iso: string): string => new Date(iso).toLocaleString();

function JobLine({ job, onResume }: { readonly job: ListedJob; readonly onResume: Props['onResume'] }) {
  const short = job.jobId.slice(0, 8);
  return (
    <li>
      <strong>{job.state}</strong> <code title={job.jobId}>{short}</code> into {job.viewName ?? '(a deleted view)'} ({job.entity ?? '?'}), started by <code>{job.createdBy}</code> on {when(job.createdAt)}:{' '}
      {job.totalCount} rows read, {job.successCount} imported, {job.failureCount} rejected{job.error ? ` — ${job.error.message}` : ''}.{' '}
      <label>
        Resume job {short} with the same file{' '}
        <input type="file" accept=".csv,.tsv,.txt" onChange={(e) => e.currentTarget.files?.[0] && onResume(job.jobId, e.currentTarget.files[0])} />
      </label>
    </li>
  );
}

export function InterruptedJobs({ org, ws, refresh, onResume }: Props) {
  const params = new URLSearchParams({ org, ws, state: 'INTERRUPTED,FAILED', size: '20' });
  const jobs = useLoad(async () => (await api<ListedJob[]>('GET', `/api/imports?${params}`)).data, [org, ws, refresh]);
  if (jobs.error) return <ErrorNote error={`The interrupted imports could not be listed: ${jobs.error}`} />;
  if (!jobs.value || jobs.value.length === 0) return null;
  return (
    <section class="panel" aria-labelledby="jobs-title">
      <h2 id="jobs-title">Interrupted imports</h2>
      <ul>
        {jobs.value.map((job) => (
          <JobLine key={job.jobId} job={job} onResume={onResume} />
        ))}
      </ul>
    </section>
  );
}
