/** RLS rules of a view: `/api/views/{viewUuid}/rls-rules` (DESIGN §10, §12). */
import Router from '@koa/router';
import type { Context } from 'koa';
import { readNewRule, readRuleChanges } from '../../core/control/rls-rules.ts';
import { notFound } from '../../core/errors.ts';
import { jsonBody } from '../middleware/json-body.ts';
import type { Services } from '../shared/services.ts';
import { ownedView } from './views.ts';
import { param } from './params.ts';

export function rlsRuleRoutes(services: Services): Router {
  const router = new Router({ prefix: '/api/views/:viewUuid/rls-rules' });
  const body = jsonBody(services.settings.jsonLimitBytes);
  const { store, workspaces } = services;

  async function ruleOf(ctx: Context) {
    const view = await ownedView(ctx, services, param(ctx, 'viewUuid'));
    const rule = await store.findRule(param(ctx, 'ruleId'));
    if (!rule || rule.viewUuid !== view.uuid) throw notFound(`rule '${param(ctx, 'ruleId')}' does not exist on this view`);
    const runtime = await workspaces.byId(view.workspaceId);
    return { view, rule, entity: runtime.entity(view.entity) };
  }

  router.get('/', async (ctx) => {
    const view = await ownedView(ctx, services, param(ctx, 'viewUuid'));
    const rules = await store.listRules(view.uuid);
    ctx.body = { data: rules, meta: { totalElements: rules.length } };
  });

  router.post('/', body, async (ctx) => {
    const view = await ownedView(ctx, services, param(ctx, 'viewUuid'));
    const runtime = await workspaces.byId(view.workspaceId);
    const rule = await workspaces.change(view.workspaceId, (tx) => tx.insertRule(readNewRule(ctx.request.body, runtime.entity(view.entity), view.uuid)));
    ctx.body = { data: rule };
    ctx.status = 201;
  });

  router.patch('/:ruleId', body, async (ctx) => {
    const { view, rule, entity } = await ruleOf(ctx);
    const updated = readRuleChanges(ctx.request.body, entity, rule);
    await workspaces.change(view.workspaceId, (tx) => tx.updateRule(updated));
    ctx.body = { data: updated };
  });

  router.delete('/:ruleId', async (ctx) => {
    const { view, rule } = await ruleOf(ctx);
    await workspaces.change(view.workspaceId, (tx) => tx.deleteRule(rule.id));
    ctx.status = 204;
  });

  return router;
}
