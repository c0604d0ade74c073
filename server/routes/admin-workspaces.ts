/**
 * Organizations and workspaces (DESIGN §10: the instance admin token for organizations and
 * workspaces). Creating, listing, changing and deleting are the instance admin's; a workspace
 * owner (its API key) may read its own workspace's record, which never carries a password.
 */
import type Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import type { OrgRecord } from '../../core/workspace/types.ts';
import { PayloadReader, SLUG } from '../../core/payload.ts';
import type { WorkspaceSummary } from '../../core/workspace/store.ts';
import { createWorkspace, deleteWorkspace, describeWorkspace, updateWorkspace } from '../../core/control/workspaces.ts';
import { notFound } from '../../core/errors.ts';
import { authorizeInstanceAdmin } from '../../plugins/auth/authorize.ts';
import type { Services } from '../shared/services.ts';
import { lookedUp, ownerAccess, principalOf } from './context.ts';
import { param } from './params.ts';

async function requireInstanceAdmin(ctx: Context, services: Services): Promise<void> {
  authorizeInstanceAdmin(await principalOf(ctx, services));
}

async function orgOf(ctx: Context, services: Services): Promise<OrgRecord> {
  const org = await services.store.findOrg(param(ctx, 'org'));
  if (!org) throw notFound(`organization '${param(ctx, 'org')}' does not exist`);
  return org;
}

async function findSummary(services: Services, org: string, ws: string): Promise<WorkspaceSummary> {
  const workspace = await services.store.findWorkspaceSummary(org, ws);
  if (!workspace) throw notFound(`workspace '${org}/${ws}' does not exist`);
  return workspace;
}

function workspaceOf(ctx: Context, services: Services): Promise<WorkspaceSummary> {
  return findSummary(services, param(ctx, 'org'), param(ctx, 'ws'));
}

/**
 * The workspace's record for its owner or the instance admin. Read from the control store, not the
 * workspace runtime, so that it answers while the workspace database is down.
 */
export async function ownedWorkspaceRecord(ctx: Context, services: Services): Promise<WorkspaceSummary> {
  const [org, ws] = [param(ctx, 'org'), param(ctx, 'ws')];
  const workspace = await lookedUp(ctx, services, () => findSummary(services, org, ws));
  await ownerAccess(ctx, services, workspace.id);
  return workspace;
}

/** The record as stored now, with the sync result when there was one (as creation answers). */
async function workspaceBody(services: Services, org: string, ws: string, sync: object | null): Promise<Record<string, unknown>> {
  return { ...describeWorkspace(await findSummary(services, org, ws)), ...(sync ?? {}) };
}

export function addWorkspaceRoutes(router: Router, services: Services, body: Middleware): void {
  const { store, workspaces, dialects } = services;
  const ws = '/orgs/:org/workspaces/:ws';

  router.get('/orgs', async (ctx) => {
    await requireInstanceAdmin(ctx, services);
    const orgs = await store.listOrgs();
    ctx.body = { data: orgs, meta: { totalElements: orgs.length } };
  });

  router.post('/orgs', body, async (ctx) => {
    await requireInstanceAdmin(ctx, services);
    const reader = new PayloadReader(ctx.request.body, ['slug', 'name']);
    const slug = reader.string('slug', { required: true, pattern: SLUG, patternText: 'lower-case letters, digits and dashes' });
    const name = reader.string('name');
    reader.done();
    ctx.body = { data: await store.createOrg(slug ?? '', name ?? slug ?? '') };
    ctx.status = 201;
  });

  router.get('/orgs/:org', async (ctx) => {
    await requireInstanceAdmin(ctx, services);
    ctx.body = { data: await orgOf(ctx, services) };
  });

  router.get('/orgs/:org/workspaces', async (ctx) => {
    await requireInstanceAdmin(ctx, services);
    const list = await store.listWorkspaces((await orgOf(ctx, services)).id);
    ctx.body = { data: list.map(describeWorkspace), meta: { totalElements: list.length } };
  });

  router.post('/orgs/:org/workspaces', body, async (ctx) => {
    await requireInstanceAdmin(ctx, services);
    const org = await orgOf(ctx, services);
    const { workspace, sync } = await createWorkspace(workspaces, dialects, org, ctx.request.body);
    ctx.body = { data: await workspaceBody(services, org.slug, workspace.slug, sync) };
    ctx.status = 201;
  });

  router.get(ws, async (ctx) => {
    ctx.body = { data: describeWorkspace(await ownedWorkspaceRecord(ctx, services)) };
  });

  router.patch(ws, body, async (ctx) => {
    await requireInstanceAdmin(ctx, services);
    const current = await store.findWorkspace(param(ctx, 'org'), param(ctx, 'ws'));
    if (!current) throw notFound(`workspace '${param(ctx, 'org')}/${param(ctx, 'ws')}' does not exist`);
    const { sync } = await updateWorkspace(workspaces, dialects, current, ctx.request.body);
    ctx.body = { data: await workspaceBody(services, current.orgSlug, current.slug, sync) };
  });

  router.delete(ws, async (ctx) => {
    await requireInstanceAdmin(ctx, services);
    const workspaceId = (await workspaceOf(ctx, services)).id;
    await deleteWorkspace(workspaces, workspaceId);
    // Its keys are refused here from the next request on (other instances: on the notice).
    services.apiKeys.hear({ kind: 'workspace', workspaceId });
    ctx.status = 204;
  });
}
