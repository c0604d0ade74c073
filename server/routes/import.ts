/**
 * CSV import (DESIGN §9, §12): `POST /api/data/import/{viewUuid}` streams the raw file and answers
 * NDJSON events; `/api/imports?org=…&ws=…` lists a workspace's jobs; `/api/imports/{jobId}` (+
 * `/report`, `/rejections.csv`, `/resume`) show and continue a job; `/api/views/{viewUuid}/import-mappings` keeps saved mappings.
 */
import { PassThrough, Readable } from 'node:stream';
import Router from '@koa/router';
import type { Context } from 'koa';
import type { ViewRecord } from '../../core/workspace/types.ts';
import { ApiError, notFound } from '../../core/errors.ts';
import {
  ImportJobStore,
  checkDeletable,
  jobBody,
  jobListItem,
  optionsOfJob,
  prepareImport,
  readImportOptions,
  readJobListQuery,
  readNewMapping,
  rejectionsCsv,
  reportBody,
  visibleTo,
  type ImportContext,
  type ImportEvent,
  type ImportOptions,
  type ImportQuery,
  type JobRecord,
  type PreparedImport,
} from '../../core/import/index.ts';
import { isOwnerCredential, mayAccessOwnResource } from '../../plugins/auth/authorize.ts';
import { jsonBody } from '../middleware/json-body.ts';
import type { Services } from '../shared/services.ts';
import { dataAccess, dataAccessById, refuseAbsent, requireBearer, viewByUuid, type DataAccess } from './context.ts';
import { param } from './params.ts';

const MEDIA_TYPES = ['text/csv', 'text/tab-separated-values', 'text/plain'];


/** Size and type are checked from the headers, before a byte of the body is read. */
function checkBody(ctx: Context, limit: number): void {
  const length = Number(ctx.get('content-length') || 0);
  if (length > limit) throw new ApiError('PAYLOAD_TOO_LARGE', `the file is larger than the import limit of ${limit} bytes`);
  if (!ctx.is(MEDIA_TYPES)) throw new ApiError('UNSUPPORTED_MEDIA_TYPE', `the import body must be the raw file as ${MEDIA_TYPES.join(', ')}`);
}

function importContext(ctx: Context, services: Services, access: DataAccess, view: ViewRecord, jobs: ImportJobStore, limit: number): ImportContext {
  return {
    runtime: access.runtime,
    policy: access.policies,
    view,
    subject: access.principal.subject,
    jobs,
    limitBytes: limit,
    refresh: () => services.workspaces.byId(view.workspaceId),
    connectionLost: () => ctx.req.destroyed && !ctx.req.complete,
    logError: (error) => services.logger.error({ err: error, requestId: ctx.state.requestId }, 'import stopped'),
    ...(services.importObserver ? { observer: services.importObserver } : {}),
  };
}

/** Answers 200 with the `started` event at once, then one line per event as the batches go. */
function streamEvents(ctx: Context, prepared: PreparedImport): void {
  const out = new PassThrough();
  out.on('error', () => undefined);
  const emit = (event: ImportEvent): void => {
    if (!out.destroyed && !out.writableEnded) out.write(`${JSON.stringify(event)}\n`);
  };
  ctx.status = 200;
  ctx.type = 'application/x-ndjson';
  ctx.set('Cache-Control', 'no-store');
  ctx.body = out;
  emit(prepared.started);
  void prepared.run(emit).finally(() => {
    if (!out.destroyed) out.end();
  });
}

export function importRoutes(services: Services): Router {
  const router = new Router();
  const jobs = ImportJobStore.of(services.store, services.importLease);
  const limit = services.settings.importLimitBytes;
  const body = jsonBody(services.settings.jsonLimitBytes);

  async function savedMappingFor(ctx: Context, view: ViewRecord, subject: string) {
    const id = typeof ctx.query.mapping === 'string' && ctx.query.mapping !== '' ? ctx.query.mapping : undefined;
    if (id === undefined) return undefined;
    const saved = await jobs.findMapping(id);
    if (!saved || saved.viewUuid !== view.uuid || !visibleTo(saved, subject)) throw notFound(`saved mapping '${id}' does not exist on this view`);
    return saved;
  }

  router.post('/api/data/import/:viewUuid', async (ctx) => {
    const view = await viewByUuid(ctx, services, param(ctx, 'viewUuid'));
    const access = await dataAccessById(ctx, services, view.workspaceId, true, view.uuid);
    checkBody(ctx, limit);
    const saved = await savedMappingFor(ctx, view, access.principal.subject);
    const options: ImportOptions = readImportOptions(ctx.query as ImportQuery, ctx.get('x-import-mapping') || undefined, saved);
    const prepared = await prepareImport(importContext(ctx, services, access, view, jobs, limit), ctx.req, options);
    streamEvents(ctx, prepared);
  });

  // The job's workspace is checked before its view is looked up: a caller of another workspace
  // learns nothing, and one of this workspace learns that the job's view is gone (404).
  async function jobFor(ctx: Context, write: boolean): Promise<{ job: JobRecord; access: DataAccess; view: ViewRecord }> {
    const token = requireBearer(ctx);
    const job = await jobs.findJob(param(ctx, 'jobId'));
    if (!job) return refuseAbsent(ctx, services, notFound(`import job '${param(ctx, 'jobId')}' does not exist`), token);
    const access = await dataAccessById(ctx, services, job.workspaceId, write, job.viewUuid);
    if (!mayAccessOwnResource(access.principal, job.createdBy)) throw notFound(`import job '${job.jobId}' does not exist`);
    const view = await services.workspaces.findView(job.viewUuid);
    if (!view) throw notFound(`view '${job.viewUuid}' does not exist`);
    return { job, access, view };
  }

  router.get('/api/imports', async (ctx) => {
    requireBearer(ctx);
    const query = readJobListQuery(ctx.query);
    const access = await dataAccess(ctx, services, query.org, query.ws, false);
    const mine = isOwnerCredential(access.principal) ? {} : { createdBy: access.principal.subject };
    const listed = await jobs.listJobs(access.runtime.workspace.id, { ...mine, ...(query.states ? { states: query.states } : {}), limit: query.size });
    ctx.body = { data: listed.map(jobListItem), meta: { totalElements: listed.length, size: query.size } };
  });

  router.get('/api/imports/:jobId', async (ctx) => {
    const { job } = await jobFor(ctx, false);
    ctx.body = { data: await jobBody(jobs, job) };
  });

  router.get('/api/imports/:jobId/report', async (ctx) => {
    const { job } = await jobFor(ctx, false);
    ctx.body = { data: await reportBody(jobs, job) };
  });

  router.get('/api/imports/:jobId/rejections.csv', async (ctx) => {
    const { job } = await jobFor(ctx, false);
    ctx.type = 'text/csv; charset=utf-8';
    ctx.set('Content-Disposition', `attachment; filename="import-${job.jobId}-rejections.csv"`);
    ctx.body = Readable.from(rejectionsCsv(jobs, job));
  });

  router.post('/api/imports/:jobId/resume', async (ctx) => {
    const { job, access, view } = await jobFor(ctx, true);
    checkBody(ctx, limit);
    if (job.state === 'DONE') throw new ApiError('CONFLICT', 'the import is already done');
    if (job.state === 'RUNNING') throw new ApiError('CONFLICT', 'the import is still running');
    const claimed = await jobs.claimForResume(job);
    if (!claimed) throw new ApiError('CONFLICT', 'the import is being resumed by another request');
    let prepared: PreparedImport;
    try {
      prepared = await prepareImport(importContext(ctx, services, access, view, jobs, limit), ctx.req, optionsOfJob(claimed), claimed);
    } catch (error) {
      const reason = error instanceof ApiError ? { code: error.code, message: error.message } : { code: 'INTERNAL_ERROR', message: 'resume failed' };
      await jobs.finishJob(job.jobId, job.state, job, reason);
      throw error;
    }
    streamEvents(ctx, prepared);
  });

  router.get('/api/views/:viewUuid/import-mappings', async (ctx) => {
    const view = await viewByUuid(ctx, services, param(ctx, 'viewUuid'));
    const access = await dataAccessById(ctx, services, view.workspaceId, false, view.uuid);
    const mappings = await jobs.listMappings(view.uuid, access.principal.subject);
    ctx.body = { data: mappings, meta: { totalElements: mappings.length } };
  });

  router.post('/api/views/:viewUuid/import-mappings', body, async (ctx) => {
    const view = await viewByUuid(ctx, services, param(ctx, 'viewUuid'));
    const access = await dataAccessById(ctx, services, view.workspaceId, true, view.uuid);
    const entity = access.runtime.entity(view.entity);
    const columns = access.runtime.columnsByView.get(view.uuid) ?? [];
    ctx.body = { data: await jobs.insertMapping(readNewMapping(ctx.request.body, view, entity, columns, access.principal.subject)) };
    ctx.status = 201;
  });

  router.delete('/api/views/:viewUuid/import-mappings/:id', async (ctx) => {
    const view = await viewByUuid(ctx, services, param(ctx, 'viewUuid'));
    const access = await dataAccessById(ctx, services, view.workspaceId, true, view.uuid);
    const mapping = await jobs.findMapping(param(ctx, 'id'));
    if (!mapping || mapping.viewUuid !== view.uuid || !visibleTo(mapping, access.principal.subject)) throw notFound(`saved mapping '${param(ctx, 'id')}' does not exist on this view`);
    checkDeletable(mapping, access.principal.subject, isOwnerCredential(access.principal));
    await jobs.deleteMapping(mapping.id);
    ctx.status = 204;
  });

  return router;
}
