/** View data query `GET /api/data/{viewSlug}`: the list endpoint read through a named view. */
import Router from '@koa/router';
import { notFound } from '../../core/errors.ts';
import { LIST_QUERY, parseReadRequest, type QueryParams } from '../../core/query/parse-request.ts';
import { listRecords, readScope } from '../../core/query/read.ts';
import type { Services } from '../shared/services.ts';
import { dataAccessById, requireBearer } from './context.ts';
import { param } from './params.ts';
import { exportFormat, listQuery, respondWithExport } from './export.ts';

export function viewDataRoutes(services: Services): Router {
  const router = new Router({ prefix: '/api/data' });
  const options = { estimateThreshold: services.settings.countEstimateThreshold, cursorSecret: services.cursorSecret };

  router.get('/:viewSlug', async (ctx) => {
    requireBearer(ctx);
    const slug = param(ctx, 'viewSlug');
    const view = await services.store.findViewBySlug(slug);
    if (!view) throw notFound(`view '${slug}' does not exist`);
    const { runtime, policies } = await dataAccessById(ctx, services, view.workspaceId, false, view.uuid);
    const scope = readScope(runtime, view.entity, policies.read, view.uuid);
    const format = exportFormat(ctx);
    if (format) return respondWithExport(ctx, runtime, scope, format);
    ctx.body = await listRecords(runtime.database, scope, parseReadRequest(listQuery(ctx) as QueryParams, LIST_QUERY), options);
  });

  return router;
}
