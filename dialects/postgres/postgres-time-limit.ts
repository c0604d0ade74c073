/** The time limit a statement runs under, and the server's timeout turned into core's QUERY_TIMEOUT. */
import { queryTimeout } from '../../core/errors.ts';
import { mapPostgresError } from './postgres-errors.ts';

/** A limit named by the setting that sets it, so the 503's message tells an operator what to raise. */
export interface TimeLimit {
  readonly setting: string;
  readonly ms: number | undefined;
}

export const NO_LIMIT: TimeLimit = { setting: 'STATEMENT_TIMEOUT_MS', ms: undefined };

/** `error`, or QUERY_TIMEOUT naming `limit` when the server stopped the statement at statement_timeout. */
export function timedOut(error: unknown, limit: TimeLimit): unknown {
  return mapPostgresError(error)?.kind === 'statement_timeout' ? queryTimeout(limit.setting, limit.ms, error) : error;
}
