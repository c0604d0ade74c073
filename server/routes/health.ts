/** Liveness and readiness (DESIGN §11); not enveloped, no credential. */
import Router from '@koa/router';
import type { Services } from '../shared/services.ts';

export function healthRoutes(services: Services): Router {
  const router = new Router();
  router.get('/healthz', (ctx) => {
    ctx.body = { status: 'ok' };
  });
  router.get('/readyz', async (ctx) => {
    // Draining on SIGTERM: not ready, so a balancer stops sending; requests are still served.
    if (services.lifecycle.draining) {
      ctx.status = 503;
      ctx.body = { status: 'draining' };
      return;
    }
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
