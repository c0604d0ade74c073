/** Bulk insert `POST /api/data/bulk/{viewUuid}/insert` (spec "Bulk insert"). */
import Router from '@koa/router';
import { readScope } from '../../core/query/read.ts';
import { bulkInsert } from '../../core/write/bulk.ts';
import { jsonBody } from '../middleware/json-body.ts';
import type { Services } from '../shared/services.ts';
import { dataAccessById, viewByUuid } from './context.ts';
import { param } from './params.ts';

export function bulkRoutes(services: Services): Router {
  const router = new Router({ prefix: '/api/data/bulk' });
  const body = jsonBody(services.settings.jsonLimitBytes);

  router.post('/:viewUuid/insert', body, async (ctx) => {
    const view = await viewByUuid(ctx, services, param(ctx, 'viewUuid'));
    const { runtime, policies } = await dataAccessById(ctx, services, view.workspaceId, true, view.uuid);
    const scope = readScope(runtime, view.entity, policies.read, view.uuid);
    ctx.body = { data: await bulkInsert(runtime.database, scope, policies.write, view.uuid, ctx.request.body) };
    ctx.status = 201;
  });

  return router;
}
