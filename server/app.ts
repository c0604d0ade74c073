/** createApp: the Koa application with its middleware and routes, no listening. */
import type Router from '@koa/router';
import type { RouterMiddleware } from '@koa/router';
import Koa from 'koa';
import { adminAppMiddleware } from '../plugins/admin-app/serve.ts';
import { requestMetrics } from '../plugins/metrics/request-observer.ts';
import { recordPools } from '../plugins/metrics/observers.ts';
import type { ServiceMetrics } from '../plugins/metrics/registry.ts';
import { metricsRoutes } from '../plugins/metrics/route.ts';
import { rateLimitMiddleware } from '../plugins/rate-limit/middleware.ts';
import { errorMiddleware } from './middleware/errors.ts';
import { requestLog } from './middleware/request-log.ts';
import { corsFor, responseHeaders } from './middleware/response-headers.ts';
import { adminRoutes } from './routes/admin.ts';
import { bulkRoutes } from './routes/bulk.ts';
import { columnRoutes } from './routes/columns.ts';
import { fastRoutes } from './routes/fast-routes.ts';
import { healthRoutes } from './routes/health.ts';
import { importRoutes } from './routes/import.ts';
import { oauthRoutes } from './routes/oauth.ts';
import { openApiRoutes } from './routes/openapi.ts';
import { recordRoutes } from './routes/records.ts';
import { changesRoutes } from './routes/changes.ts';
import { dispatchOf, mergedRouter } from './routes/router-dispatch.ts';
import { rlsRuleRoutes } from './routes/rls-rules.ts';
import { viewDataRoutes } from './routes/view-data.ts';
import { viewRoutes } from './routes/views.ts';
import type { Services } from './shared/services.ts';

export interface AppOptions {
  /** Origins allowed by CORS; empty: no CORS. */
  readonly corsOrigins?: readonly string[];
  /** Trust X-Forwarded-* (TRUST_PROXY). */
  readonly trustProxy?: boolean;
  /** GET /metrics and the request metrics; absent: neither. */
  readonly metrics?: ServiceMetrics;
  /** METRICS_TOKEN: the bearer token /metrics asks for; absent: /metrics is open. */
  readonly metricsToken?: string;
  /** Serve the admin application at /admin/ (ADMIN_APP); absent: served. */
  readonly adminApp?: boolean;
}

/** Every route of openApiRoutes and recordRoutes starts with this, and no other route does. */
const DATA_API_PREFIX = '/api/v1/';

/**
 * Every router of the service, in the order they are tried: the data API's (/api/v1/…) apart,
 * since it is matched on its own (below). The one list the app mounts and the route-coverage test
 * reads (test/support/routes.ts), so a new router cannot be served undocumented.
 */
export function serviceRouters(services: Services, options: Pick<AppOptions, 'metrics' | 'metricsToken'> = {}): { dataApi: Router[]; others: Router[] } {
  const metrics = options.metrics;
  return {
    dataApi: [openApiRoutes(services), changesRoutes(services), recordRoutes(services)],
    others: [
      healthRoutes(services),
      ...(metrics ? [metricsRoutes(metrics, options.metricsToken, () => recordPools(metrics, services.workspaces))] : []),
      adminRoutes(services),
      oauthRoutes(services, services.issuer),
      viewRoutes(services),
      rlsRuleRoutes(services),
      columnRoutes(services),
      bulkRoutes(services),
      importRoutes(services),
      viewDataRoutes(services),
    ],
  };
}

export function createApp(services: Services, options: AppOptions = {}): Koa {
  const app = new Koa();
  app.proxy = options.trustProxy ?? process.env.TRUST_PROXY === 'true';
  // The client address is the last X-Forwarded-For entry, the one the proxy in front appended;
  // entries before it are whatever the client sent, and would let it choose its rate-limit budget.
  app.maxIpsCount = 1;
  app.silent = true;
  app.use(responseHeaders(services.lifecycle));
  const metrics = options.metrics;
  app.use(requestLog(services.logger, metrics ? [requestMetrics(metrics)] : []));
  const cors = corsFor(options.corsOrigins ?? []);
  if (cors) app.use(cors);
  app.use(errorMiddleware());
  if (services.rateLimiter) app.use(rateLimitMiddleware(services.rateLimiter));
  // The data API (/api/v1/…) has its own router: its requests, nearly all of the load, are matched
  // against its few routes, by find-my-way first (fast-routes.ts), instead of every route of the
  // service (a regular expression each).
  const routers = serviceRouters(services, options);
  const dataApi = fastRoutes(mergedRouter(routers.dataApi));
  const others = dispatchOf(mergedRouter(routers.others));
  // The admin application's files are looked for only off the data API's paths.
  const admin = (options.adminApp ?? true) ? adminAppMiddleware() : undefined;
  const elsewhere: RouterMiddleware = admin ? (ctx, next) => admin(ctx, () => others(ctx, next)) : others;
  const byPrefix: RouterMiddleware = (ctx, next) => (ctx.path.startsWith(DATA_API_PREFIX) ? dataApi : elsewhere)(ctx, next);
  app.use(byPrefix);
  return app;
}
