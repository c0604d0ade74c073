/** Per-request resolution shared by the data routes: credential, workspace, access, policies. */
import type { Context } from 'koa';
import type { WorkspaceRuntime } from '../../core/control/runtime.ts';
import { authenticate, authorizeData } from '../../plugins/auth/authorize.ts';
import type { Principal } from '../../plugins/auth/auth-plugin.ts';
import { policiesFor, type Policies } from '../../plugins/rls/policy.ts';
import type { Services } from '../services.ts';

export interface DataAccess {
  readonly principal: Principal;
  readonly runtime: WorkspaceRuntime;
  readonly policies: Policies;
}

export async function principalOf(ctx: Context, services: Services, workspaceId?: string): Promise<Principal> {
  const principal = await authenticate(services.authPlugins, ctx.get('authorization') || undefined, workspaceId);
  ctx.state.principal = principal;
  return principal;
}

export async function dataAccess(ctx: Context, services: Services, org: string, ws: string, write: boolean): Promise<DataAccess> {
  const principal = await principalOf(ctx, services);
  const runtime = await services.workspaces.bySlug(org, ws);
  authorizeData(principal, runtime.workspace.id, write);
  return { principal, runtime, policies: policiesFor(principal, runtime) };
}

export async function dataAccessById(ctx: Context, services: Services, workspaceId: string, write: boolean, known?: Principal): Promise<DataAccess> {
  const principal = known ?? (await principalOf(ctx, services));
  const runtime = await services.workspaces.byId(workspaceId);
  authorizeData(principal, runtime.workspace.id, write);
  return { principal, runtime, policies: policiesFor(principal, runtime) };
}
