/** Liveness and readiness (DESIGN §11); not enveloped, no credential. */
import Router from '@koa/router';
import type { Services } from '../services.ts';

export function healthRoutes(services: Services): Router {
  const router = new Router();
  router.get('/healthz', (ctx) => {
    ctx.body = { status: 'ok' };
  });
  router.get('/readyz', async (ctx) => {
    try {
      await services.store.ping();
      await services.workspaces.pingAll();
      ctx.body = { status: 'ready' };
    } catch {
      ctx.status = 503;
      ctx.body = { status: 'unavailable' };
    }
  });
  return router;
}
