/** View data query `GET /api/data/{viewSlug}`: the list endpoint read through a named view (or its export); and its aggregates. */
import Router from '@koa/router';
import type { Context } from 'koa';
import { notFound } from '../../core/errors.ts';
import type { QueryParams } from '../../core/query/parse-request.ts';
import type { ReadScope } from '../../core/query/plan.ts';
import { readScope } from '../../core/query/read.ts';
import { aggregateRecords } from '../../core/query/aggregate.ts';
import { parseAggregateRequest } from '../../core/query/aggregate-request.ts';
import type { WorkspaceRuntime } from '../../core/workspace/runtime.ts';
import type { Services } from '../shared/services.ts';
import { dataAccessById, refuseAbsent, requireBearer } from './context.ts';
import { param } from './params.ts';
import { answerList, exportRouteFormat, respondWithExport } from './export.ts';

/** The view named by the path, read by the caller: its workspace runtime and its scope (the view's computed columns). */
async function viewRead(ctx: Context, services: Services): Promise<{ runtime: WorkspaceRuntime; scope: ReadScope }> {
  const token = requireBearer(ctx);
  const slug = param(ctx, 'viewSlug');
  const view = await services.store.findViewBySlug(slug);
  if (!view) return refuseAbsent(ctx, services, notFound(`view '${slug}' does not exist`), token);
  const { runtime, policies } = await dataAccessById(ctx, services, view.workspaceId, false, view.uuid);
  return { runtime, scope: readScope(runtime, view.entity, policies.read, view.uuid) };
}

export function viewDataRoutes(services: Services): Router {
  const router = new Router({ prefix: '/api/data' });
  const options = { estimateThreshold: services.settings.countEstimateThreshold, cursorSecret: services.cursorSecret, maxResponseItems: services.settings.maxResponseItems, responseIdleTimeoutMs: services.settings.responseIdleTimeoutMs };

  router.get('/:viewSlug', async (ctx) => {
    const { runtime, scope } = await viewRead(ctx, services);
    await answerList(ctx, runtime, scope, options);
  });

  router.get('/:viewSlug/export', async (ctx) => {
    const { runtime, scope } = await viewRead(ctx, services);
    await respondWithExport(ctx, runtime, scope, exportRouteFormat(ctx));
  });

  router.get('/:viewSlug/aggregate', async (ctx) => {
    const { runtime, scope } = await viewRead(ctx, services);
    ctx.body = await aggregateRecords(runtime.database, scope, parseAggregateRequest(ctx.query as QueryParams));
  });

  return router;
}
