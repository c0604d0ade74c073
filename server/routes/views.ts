/** View routes outside the admin prefix (DESIGN §12): columns of a view. */
import Router from '@koa/router';
import type { Context } from 'koa';
import type { ViewRecord } from '../../core/workspace/types.ts';
import { notFound } from '../../core/errors.ts';
import type { Services } from '../shared/services.ts';
import { ownerAccess, requireBearer } from './context.ts';
import { param } from './params.ts';

export async function ownedView(ctx: Context, services: Services, uuid: string): Promise<ViewRecord> {
  requireBearer(ctx);
  const view = await services.store.findView(uuid);
  if (!view) throw notFound(`view '${uuid}' does not exist`);
  await ownerAccess(ctx, services, view.workspaceId);
  return view;
}

export function viewRoutes(services: Services): Router {
  const router = new Router({ prefix: '/api/views' });
  router.get('/:viewUuid/columns', async (ctx) => {
    const view = await ownedView(ctx, services, param(ctx, 'viewUuid'));
    const columns = (await services.store.listColumns(view.uuid)).map(({ broken, formula, members, ...column }) => ({
      ...column,
      ...(formula !== null ? { formula } : {}),
      ...(members !== null ? { members } : {}),
      ...(broken !== null ? { broken } : {}),
    }));
    ctx.body = { data: columns, meta: { totalElements: columns.length } };
  });
  return router;
}
