/** `GET /api/v1/{org}/{ws}/openapi.json`: not enveloped (DESIGN §12); needs read access to the workspace. */
import Router from '@koa/router';
import { viewShape } from '../../core/query/shape.ts';
import { buildOpenApi } from '../openapi/openapi.ts';
import type { Services } from '../shared/services.ts';
import { dataAccess } from './context.ts';
import { param } from './params.ts';

export function openApiRoutes(services: Services): Router {
  const router = new Router();
  router.get('/api/v1/:org/:ws/openapi.json', async (ctx) => {
    const org = param(ctx, 'org');
    const ws = param(ctx, 'ws');
    const { runtime } = await dataAccess(ctx, services, org, ws, false);
    const base = services.issuer.issuer().replace(/\/+$/, '');
    ctx.body = buildOpenApi({
      title: `${org}/${ws} Workspace Data API`,
      org,
      ws,
      serverUrl: base,
      basePath: `/api/v1/${org}/${ws}`,
      tokenUrl: `${base}/oauth/token`,
      views: [...runtime.model.entities.keys()].map((name) => viewShape(runtime, name)),
      dataViews: runtime.views.filter((view) => runtime.model.entities.has(view.entity)).map((view) => ({ slug: view.slug, name: view.name, shape: viewShape(runtime, view.entity, view.uuid) })),
    });
  });
  return router;
}
