/** @koa/router Routers merged and dispatched as one middleware (server/app.ts, fast-routes.ts). */
import Router, { type RouterMiddleware } from '@koa/router';

/** One router holding the routes of `routers`: a single dispatch instead of one per module. */
export function mergedRouter(routers: readonly Router[]): Router {
  const root = new Router();
  for (const router of routers) root.use(router.routes());
  return root;
}

/** The router's routes, then its 405/501 answers. */
export function dispatchOf(root: Router): RouterMiddleware {
  const routes = root.routes();
  const allowedMethods = root.allowedMethods();
  // As app.use(routes) then app.use(allowedMethods): the second runs only when no route answered.
  return (ctx, next) => routes(ctx, () => allowedMethods(ctx, next));
}
