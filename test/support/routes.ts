/**
 * Every route the service registers (the routers server/app.ts mounts; a new one goes here too), as `METHOD /path/{param}` (HEAD left out: @koa/router answers
 * it with GET). The routers are built with inert services: building one only reads settings.
 */
import type Router from '@koa/router';
import { metricsRoutes } from '../../plugins/metrics/route.ts';
import type { ServiceMetrics } from '../../plugins/metrics/registry.ts';
import { adminRoutes } from '../../server/routes/admin.ts';
import { bulkRoutes } from '../../server/routes/bulk.ts';
import { changesRoutes } from '../../server/routes/changes.ts';
import { columnRoutes } from '../../server/routes/columns.ts';
import { healthRoutes } from '../../server/routes/health.ts';
import { importRoutes } from '../../server/routes/import.ts';
import { oauthRoutes } from '../../server/routes/oauth.ts';
import { openApiRoutes } from '../../server/routes/openapi.ts';
import { recordRoutes } from '../../server/routes/records.ts';
import { rlsRuleRoutes } from '../../server/routes/rls-rules.ts';
import { viewDataRoutes } from '../../server/routes/view-data.ts';
import { viewRoutes } from '../../server/routes/views.ts';
import type { Services } from '../../server/shared/services.ts';

/** Any member of it is another such object and may be called: enough to build a router with. */
function inert(): any {
  const target = () => undefined;
  return new Proxy(target, { get: (_t, key) => (key === 'then' ? undefined : inert()), apply: () => inert() });
}

export function routeList(): string[] {
  const services = inert() as Services;
  const routers: Router[] = [
    healthRoutes(services), metricsRoutes(inert() as ServiceMetrics, undefined, () => undefined), adminRoutes(services), oauthRoutes(services, inert()),
    viewRoutes(services), rlsRuleRoutes(services), columnRoutes(services), bulkRoutes(services), importRoutes(services), viewDataRoutes(services), openApiRoutes(services), changesRoutes(services), recordRoutes(services),
  ];
  const routes: string[] = [];
  for (const router of routers) {
    for (const layer of router.stack) {
      for (const method of layer.methods.filter((m) => m !== 'HEAD')) routes.push(`${method} ${String(layer.path).replace(/:(\w+)/g, '{$1}')}`);
    }
  }
  return routes;
}
