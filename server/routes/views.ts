/** View routes outside the admin prefix (DESIGN §12): columns of a view, and checking a formula before it is saved. */
import Router from '@koa/router';
import type { Context } from 'koa';
import type { ViewRecord } from '../../core/workspace/types.ts';
import { checkComputedFormula } from '../../core/control/computed.ts';
import { PayloadReader } from '../../core/payload.ts';
import { jsonBody } from '../middleware/json-body.ts';
import type { Services } from '../shared/services.ts';
import { ownerAccess, viewByUuid } from './context.ts';
import { param } from './params.ts';

export async function ownedView(ctx: Context, services: Services, uuid: string): Promise<ViewRecord> {
  const view = await viewByUuid(ctx, services, uuid);
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

  // The admin application's formula editor: gate 1, the checker and gate 2 as saving a computed
  // column runs them, nothing saved, and the values on the view's first rows.
  router.post('/:viewUuid/formula-check', jsonBody(services.settings.jsonLimitBytes), async (ctx) => {
    const view = await ownedView(ctx, services, param(ctx, 'viewUuid'));
    const reader = new PayloadReader(ctx.request.body, ['formula', 'previewRows']);
    const formula = reader.string('formula', { required: true }) ?? '';
    const previewRows = reader.integer('previewRows', 0, 100) ?? 5;
    reader.done();
    const runtime = await services.workspaces.byId(view.workspaceId);
    ctx.body = { data: await checkComputedFormula(runtime, view, formula, previewRows) };
  });
  return router;
}
