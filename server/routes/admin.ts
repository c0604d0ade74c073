/** Admin API (DESIGN §10, §12). Thin: payload checks and logic live in core/control. */
import Router from '@koa/router';
import type { Context } from 'koa';
import type { Logger } from 'pino';
import { applyEntityOptions } from '../../core/control/entity-options.ts';
import { identityProviderWarnings, readIdentityProvider, refusePrivateHosts } from '../../core/control/identity-provider.ts';
import { migrationFlagBody, readMigrationFlag } from '../../core/control/migration-flag.ts';
import type { WorkspaceRuntime } from '../../core/workspace/runtime.ts';
import { syncById } from '../../core/control/workspaces.ts';
import { createView } from '../../core/control/views.ts';
import { notFound } from '../../core/errors.ts';
import { describeSchema } from '../../core/control/describe.ts';
import { jsonBody } from '../middleware/json-body.ts';
import type { Services } from '../shared/services.ts';
import { addApiKeyRoutes } from './admin-api-keys.ts';
import { addWorkspaceRoutes } from './admin-workspaces.ts';
import { lookedUp, ownerAccess } from './context.ts';
import { param } from './params.ts';
import type { IdentityProviderConfig } from '../../core/workspace/types.ts';

/** Saved, but open wider than the owner may think: said in the answer's `meta.warnings` and in the log. */
function warnOnSave(ctx: Context, logger: Logger, config: IdentityProviderConfig): { meta?: { warnings: string[] } } {
  const warnings = identityProviderWarnings(config);
  if (warnings.length === 0) return {};
  for (const warning of warnings) logger.warn({ requestId: ctx.state.requestId, org: param(ctx, 'org'), ws: param(ctx, 'ws'), setting: 'audience' }, warning);
  return { meta: { warnings } };
}

async function ownedWorkspace(ctx: Context, services: Services): Promise<WorkspaceRuntime> {
  const [org, ws] = [param(ctx, 'org'), param(ctx, 'ws')];
  const runtime = await lookedUp(ctx, services, () => services.workspaces.bySlug(org, ws));
  await ownerAccess(ctx, services, runtime.workspace.id);
  return runtime;
}

export function adminRoutes(services: Services): Router {
  const router = new Router({ prefix: '/api/admin/v1' });
  const body = jsonBody(services.settings.jsonLimitBytes);
  const { store, workspaces } = services;
  const ws = '/orgs/:org/workspaces/:ws';
  addWorkspaceRoutes(router, services, body);
  addApiKeyRoutes(router, services, body);

  router.post(`${ws}/sync`, async (ctx) => {
    const runtime = await ownedWorkspace(ctx, services);
    ctx.body = { data: await syncById(workspaces, runtime.workspace) };
  });

  router.get(`${ws}/schema`, async (ctx) => {
    const runtime = await ownedWorkspace(ctx, services);
    ctx.body = { data: describeSchema(runtime) };
  });

  router.patch(`${ws}/entities/:entity`, body, async (ctx) => {
    const runtime = await ownedWorkspace(ctx, services);
    const entity = runtime.entity(param(ctx, 'entity'));
    const options = applyEntityOptions(runtime.entityRecord(entity.name).options, ctx.request.body, entity, runtime.model);
    await workspaces.change(runtime.workspace.id, (tx) => tx.saveEntityOptions(runtime.workspace.id, entity.name, options));
    ctx.body = { data: { name: entity.name, table: entity.table, ...options } };
  });

  // The flag as this instance applies it (changes reach every instance within a second, DESIGN §12).
  router.get(`${ws}/entities/:entity/migration`, async (ctx) => {
    const runtime = await ownedWorkspace(ctx, services);
    const entity = runtime.entity(param(ctx, 'entity'));
    ctx.body = { data: migrationFlagBody(entity.name, runtime.entityRecord(entity.name).migration) };
  });

  router.put(`${ws}/entities/:entity/migration`, body, async (ctx) => {
    const runtime = await ownedWorkspace(ctx, services);
    const entity = runtime.entity(param(ctx, 'entity'));
    const flag = readMigrationFlag(ctx.request.body);
    await workspaces.change(runtime.workspace.id, (tx) => tx.saveMigration(runtime.workspace.id, entity.name, flag));
    ctx.body = { data: { entity: entity.name, ...flag } };
  });

  router.delete(`${ws}/entities/:entity/migration`, async (ctx) => {
    const runtime = await ownedWorkspace(ctx, services);
    const entity = runtime.entity(param(ctx, 'entity'));
    await workspaces.change(runtime.workspace.id, (tx) => tx.saveMigration(runtime.workspace.id, entity.name, null));
    ctx.status = 204;
  });

  router.put(`${ws}/identity-provider`, body, async (ctx) => {
    const runtime = await ownedWorkspace(ctx, services);
    const allowPrivate = services.settings.idpAllowPrivate;
    const config = readIdentityProvider(ctx.request.body, allowPrivate);
    await refusePrivateHosts(config, allowPrivate);
    await workspaces.change(runtime.workspace.id, (tx) => tx.saveIdentityProvider(runtime.workspace.id, config));
    ctx.body = { data: config, ...warnOnSave(ctx, services.logger, config) };
  });

  router.get(`${ws}/identity-provider`, async (ctx) => {
    const runtime = await ownedWorkspace(ctx, services);
    const config = await store.getIdentityProvider(runtime.workspace.id);
    if (!config) throw notFound('no identity provider is configured for this workspace');
    ctx.body = { data: config };
  });

  router.get(`${ws}/views`, async (ctx) => {
    const runtime = await ownedWorkspace(ctx, services);
    const views = await store.listViews(runtime.workspace.id);
    ctx.body = { data: views.map(({ workspaceId: _w, ...view }) => view), meta: { totalElements: views.length } };
  });

  router.post(`${ws}/views`, body, async (ctx) => {
    const runtime = await ownedWorkspace(ctx, services);
    const view = await workspaces.change(runtime.workspace.id, (tx) => createView(tx, runtime, ctx.request.body));
    const { workspaceId: _w, ...record } = view;
    ctx.body = { data: record };
    ctx.status = 201;
  });

  return router;
}
