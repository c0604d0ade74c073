/**
 * What the in-process scenarios share, and the way a subject is measured against its floor: the
 * service, the Koa floor and the raw pg pool on the bench data set; a subject that answers non-2xx,
 * or not what its floor answers, is reported as failed and the floors are still measured.
 */
import { isDeepStrictEqual } from 'node:util';
import type pg from 'pg';
import type { KoaFloor } from '../floors/koa.ts';
import { send } from '../harness/capture-sql.ts';
import type { Comparison } from '../harness/report-comparison.ts';
import type { BenchService } from '../harness/service.ts';
import { measureSides, type HttpRequest, type HttpTarget, type Side, type Timing } from '../harness/sides.ts';

export interface InProcessBench {
  readonly service: BenchService;
  readonly floor: KoaFloor;
  readonly pool: pg.Pool;
  /** The bench database's URL (the export's COPY floor and the cluster's instances open their own connections). */
  readonly databaseUrl: string;
  readonly connections: number;
  readonly timing: Timing;
  log(message: string): void;
}

/** The sides of a comparison before they are measured. */
export interface ComparisonPlan {
  readonly label: string;
  readonly subject: Side;
  readonly floor: Side;
  /** Measured and printed for context, not judged. */
  readonly beside: Side[];
  readonly failure: string | null;
}

export const getRequest = (bench: InProcessBench, path: string): HttpRequest => ({ method: 'GET', path: bench.service.records(path) });

/** The service and the Koa floor as HTTP targets. */
export function httpTargets(bench: InProcessBench): { http: HttpTarget; koa: HttpTarget } {
  const http = { url: bench.service.url, apiKey: bench.service.apiKey, connections: bench.connections };
  return { http, koa: { ...http, url: bench.floor.url } };
}

/** `failed: HTTP …` for a non-2xx answer, else null. */
export function httpFailure(answer: { status: number; body: unknown }): string | null {
  if (answer.status >= 200 && answer.status < 300) return null;
  const error = (answer.body as { error?: { message?: string } } | null)?.error;
  return `failed: HTTP ${answer.status} ${error?.message ?? JSON.stringify(answer.body)}`;
}

/** Why the service cannot be measured on `path`, or null when it answers 2xx like the floor (if one is given). */
export async function subjectFailure(bench: InProcessBench, path: string, floorUrl: string | null): Promise<string | null> {
  const request = getRequest(bench, path);
  const ours = await send(bench.service, request);
  const failed = httpFailure(ours);
  if (failed || floorUrl === null) return failed;
  const theirs = await send({ ...bench.service, url: floorUrl }, request);
  if (isDeepStrictEqual(ours.body, theirs.body)) return null;
  bench.log(`${path}: service and floor differ\nservice: ${JSON.stringify(ours.body)}\nfloor:   ${JSON.stringify(theirs.body)}`);
  return 'failed: the answer differs from the floor\'s (both printed on stderr)';
}

/** The planned sides in interleaved rounds (the subject only when it did not fail). */
export async function measureAgainstFloor<Id extends string>(bench: InProcessBench, id: Id, planned: ComparisonPlan, timing = bench.timing): Promise<Comparison<Id>> {
  if (planned.failure) bench.log(`${id}: ${planned.failure}; measuring the floors only`);
  const sides = [...(planned.failure ? [] : [planned.subject]), planned.floor, ...planned.beside];
  const measured = await measureSides(sides, timing, (m) => bench.log(`${id} ${m}`));
  const subject = planned.failure ? null : (measured.shift() ?? null);
  const [floor, ...beside] = measured;
  if (!floor) throw new Error(`${id}: the floor was not measured`);
  return { id, label: planned.label, subjectLabel: planned.subject.label, subject, floor, beside, failure: planned.failure };
}
