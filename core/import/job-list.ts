/**
 * `GET /api/imports?org=…&ws=…` (Import screen): a workspace's import jobs, newest first,
 * so that an interrupted one can be resumed from any tab or session. Owner credentials see every
 * job of the workspace; an external user sees the jobs it started (like `GET /api/imports/{jobId}`).
 */
import { badRequest } from '../errors.ts';
import { QueryReader, type QueryParams } from '../query/query-params.ts';
import type { JobState, ListedJob } from './job-store.ts';

export const DEFAULT_JOB_LIST_SIZE = 50;
export const MAX_JOB_LIST_SIZE = 200;
const STATES: readonly JobState[] = ['RUNNING', 'DONE', 'FAILED', 'INTERRUPTED'];

export interface JobListQuery {
  readonly org: string;
  readonly ws: string;
  readonly states?: readonly JobState[];
  readonly size: number;
}

function required(query: QueryReader, name: string): string {
  const value = query.single(name);
  if (value === undefined || value === '') throw badRequest(`query parameter '${name}' is required`);
  return value;
}

function readStates(text: string | undefined): JobState[] | undefined {
  if (text === undefined || text === '') return undefined;
  const states = text.split(',').map((s) => s.trim().toUpperCase());
  const unknown = states.filter((s) => !(STATES as readonly string[]).includes(s));
  if (unknown.length > 0) throw badRequest(`'state' must be a comma-separated list of ${STATES.join(', ')}; unknown: ${unknown.join(', ')}`);
  return states as JobState[];
}

function readSize(text: string | undefined): number {
  if (text === undefined || text === '') return DEFAULT_JOB_LIST_SIZE;
  const size = Number(text);
  if (!/^\d+$/.test(text) || size < 1 || size > MAX_JOB_LIST_SIZE) throw badRequest(`'size' must be an integer from 1 to ${MAX_JOB_LIST_SIZE}`);
  return size;
}

export function readJobListQuery(params: QueryParams): JobListQuery {
  const query = new QueryReader(params, { single: ['org', 'ws', 'state', 'size'] });
  const states = readStates(query.single('state'));
  return { org: required(query, 'org'), ws: required(query, 'ws'), ...(states ? { states } : {}), size: readSize(query.single('size')) };
}

/** One job of the list: what the job route answers, without failed batches, plus who, when and where. */
export function jobListItem(job: ListedJob): Record<string, unknown> {
  const { jobId, viewUuid, entity, viewName, state, createdBy, createdAt, finishedAt, totalCount, successCount, failureCount, skippedCount, batchesDone, error } = job;
  return { jobId, viewUuid, entity, viewName, state, createdBy, createdAt, finishedAt, totalCount, successCount, failureCount, skippedCount, batchesDone, error };
}
