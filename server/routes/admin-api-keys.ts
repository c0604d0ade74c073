/**
 * API keys of a workspace (DESIGN §10, §12): issue (shown once), list (never the secret or its
 * hash), revoke. Owners of the workspace and the instance admin; read from the control store, so
 * keys can be managed while the workspace database is down.
 */
import type Router from '@koa/router';
import type { Middleware } from 'koa';
import { PayloadReader } from '../../core/payload.ts';
import { notFound } from '../../core/errors.ts';
import { issueApiKey, isApiKeyId, revokeApiKey } from '../../plugins/auth/api-key/api-key-plugin.ts';
import type { Services } from '../shared/services.ts';
import { ownedWorkspaceRecord } from './admin-workspaces.ts';
import { param } from './params.ts';

export function addApiKeyRoutes(router: Router, services: Services, body: Middleware): void {
  const { store } = services;
  const keys = '/orgs/:org/workspaces/:ws/api-keys';

  router.post(keys, body, async (ctx) => {
    const workspace = await ownedWorkspaceRecord(ctx, services);
    const reader = new PayloadReader(ctx.request.body ?? {}, ['name']);
    const name = reader.string('name') ?? null;
    reader.done();
    ctx.body = { data: await issueApiKey(store, workspace.id, name) };
    ctx.status = 201;
  });

  router.get(keys, async (ctx) => {
    const workspace = await ownedWorkspaceRecord(ctx, services);
    const list = await store.listApiKeys(workspace.id);
    ctx.body = { data: list, meta: { totalElements: list.length } };
  });

  // Refused here from the next request on; on other instances once the store's notice arrives.
  router.delete(`${keys}/:id`, async (ctx) => {
    const workspace = await ownedWorkspaceRecord(ctx, services);
    const id = param(ctx, 'id');
    if (!isApiKeyId(id) || !(await revokeApiKey(store, services.apiKeys, workspace.id, id))) throw notFound(`API key '${id}' does not exist in this workspace`);
    ctx.status = 204;
  });
}
