/**
 * Liveness and readiness (DESIGN §11); not enveloped, no credential, never rate limited.
 *
 * Readiness answers from the process: not draining, and the control store answers a ping within
 * CONTROL_PING_BOUND_MS (every instance needs it to load workspaces and keys). Workspace pools are
 * never asked: one workspace whose pool is held or whose database is down must not make a
 * balancer drop the instance, and with it every other workspace.
 */
import Router from '@koa/router';
import type { Services } from '../shared/services.ts';

/** How long /readyz waits for the control store before it says unavailable. */
export const CONTROL_PING_BOUND_MS = 2000;

/**
 * The control store's answer within the bound. A ping still out is shared by the probes that come
 * meanwhile, so a store that does not answer is not sent one more query per probe.
 */
function controlStoreCheck(services: Services): () => Promise<boolean> {
  let pending: Promise<boolean> | undefined;
  return () => {
    pending ??= services.store.ping().then(
      () => true,
      () => false,
    ).finally(() => (pending = undefined));
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), CONTROL_PING_BOUND_MS)));
    return Promise.race([pending, bound]).finally(() => clearTimeout(timer));
  };
}

export function healthRoutes(services: Services): Router {
  const router = new Router();
  const controlStoreAnswers = controlStoreCheck(services);
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
    if (await controlStoreAnswers()) {
      ctx.body = { status: 'ready' };
      return;
    }
    ctx.status = 503;
    ctx.body = { status: 'unavailable' };
  });
  return router;
}
