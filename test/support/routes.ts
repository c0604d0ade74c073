/**
 * Every route the service serves, as `METHOD /path/{param}` (HEAD left out: @koa/router answers
 * it with GET), read from the routers the app mounts (server/app.ts `serviceRouters`). The routers
 * are built with inert services: building one only reads settings.
 */
import type { ServiceMetrics } from '../../plugins/metrics/registry.ts';
import { serviceRouters } from '../../server/app.ts';
import type { Services } from '../../server/shared/services.ts';

/** Any member of it is another such object and may be called: enough to build a router with. */
function inert(): any {
  const target = () => undefined;
  return new Proxy(target, { get: (_t, key) => (key === 'then' ? undefined : inert()), apply: () => inert() });
}

export function routeList(): string[] {
  const { dataApi, others } = serviceRouters(inert() as Services, { metrics: inert() as ServiceMetrics });
  const routes: string[] = [];
  for (const router of [...others, ...dataApi]) {
    for (const layer of router.stack) {
      for (const method of layer.methods.filter((m) => m !== 'HEAD')) routes.push(`${method} ${String(layer.path).replace(/:(\w+)/g, '{$1}')}`);
    }
  }
  return routes;
}
