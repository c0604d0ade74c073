/** View column endpoints (spec "View column endpoints"); logic in core/control/columns.ts. */
import Router from '@koa/router';
import type { Context } from 'koa';
import { columnBody, createColumn, deleteColumn, updateColumn } from '../../core/control/columns.ts';
import { notFound } from '../../core/errors.ts';
import { requireObject } from '../../core/payload.ts';
import { jsonBody } from '../middleware/json-body.ts';
import type { Services } from '../shared/services.ts';
import { refuseAbsent } from './context.ts';
import { ownedView } from './views.ts';
import { param } from './params.ts';

async function ownedColumn(ctx: Context, services: Services) {
  const uuid = param(ctx, 'uuid');
  const column = await services.store.findColumn(uuid);
  if (!column) return refuseAbsent(ctx, services, notFound(`column '${uuid}' does not exist`));
  const view = await ownedView(ctx, services, column.viewUuid);
  return { column, view, runtime: await services.workspaces.byId(view.workspaceId) };
}

export function columnRoutes(services: Services): Router {
  const router = new Router({ prefix: '/api/columns' });
  const body = jsonBody(services.settings.jsonLimitBytes);

  router.post('/', body, async (ctx) => {
    const payload = requireObject(ctx.request.body);
    const viewUuid = typeof payload.viewUuid === 'string' ? payload.viewUuid : '';
    const view = await ownedView(ctx, services, viewUuid);
    const runtime = await services.workspaces.byId(view.workspaceId);
    const column = await createColumn(services.workspaces, runtime, view, payload);
    ctx.body = { data: columnBody(column) };
    ctx.status = 201;
  });

  router.patch('/item/:uuid', body, async (ctx) => {
    const { column, view, runtime } = await ownedColumn(ctx, services);
    const updated = await updateColumn(services.workspaces, runtime, view, column, ctx.request.body);
    ctx.body = { data: columnBody(updated) };
  });

  router.delete('/item/:uuid', async (ctx) => {
    const { column, view, runtime } = await ownedColumn(ctx, services);
    await deleteColumn(services.workspaces, runtime, view, column);
    ctx.status = 204;
  });

  return router;
}
