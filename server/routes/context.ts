/**
 * Per-request resolution shared by the routes: credential, workspace, access, policies.
 * The workspace is resolved before the token is verified because an external token can only be
 * checked against its workspace's identity provider; a missing token is still a 401 first.
 */
import type { Context } from 'koa';
import { ApiError, notFound } from '../../core/errors.ts';
import type { WorkspaceRuntime } from '../../core/workspace/runtime.ts';
import type { ViewRecord } from '../../core/workspace/types.ts';
import { authenticate, authorizeData, authorizeOwner, bearerToken } from '../../plugins/auth/authorize.ts';
import { NO_SUCH_WORKSPACE, type Principal } from '../../plugins/auth/shared/auth-plugin.ts';
import { chargeCredential } from '../../plugins/rate-limit/middleware.ts';
import { policiesFor, type Policies } from '../../plugins/rls/policy.ts';
import type { Services } from '../shared/services.ts';

export interface DataAccess {
  readonly principal: Principal;
  readonly runtime: WorkspaceRuntime;
  readonly policies: Policies;
}

function authorization(ctx: Context): string | undefined {
  return ctx.get('authorization') || undefined;
}

/** Fails with 401 before any lookup when no bearer token is present; the token otherwise. */
export function requireBearer(ctx: Context): string {
  return bearerToken(authorization(ctx));
}

/** `token`: the request's bearer token when the caller has already read it (requireBearer). */
export async function principalOf(ctx: Context, services: Services, workspaceId?: string, token = requireBearer(ctx)): Promise<Principal> {
  const principal = await authenticate(services.authPlugins, token, workspaceId);
  ctx.state.principal = principal;
  // Without a limiter there is nothing to charge, and no await to pay for it.
  if (services.rateLimiter) await chargeCredential(ctx, services.rateLimiter, principal);
  return principal;
}

interface AccessRequest {
  readonly token: string;
  readonly write: boolean;
  readonly viewUuid?: string;
}

async function accessTo(ctx: Context, services: Services, runtime: WorkspaceRuntime, request: AccessRequest): Promise<DataAccess> {
  const principal = await principalOf(ctx, services, runtime.workspace.id, request.token);
  authorizeData(principal, runtime.workspace.id, request.write);
  services.concurrentRequests?.enter(ctx, principal);
  return { principal, runtime, policies: policiesFor(principal, runtime, request.viewUuid) };
}

/**
 * What the path names does not exist (`absent`, a 404). Only a caller entitled to know that is told
 * so: the instance admin. Any other caller gets what its credential gets on a workspace it may not
 * use, the same whether or not the target exists (docs/security.md): 401 when the credential does
 * not verify (an external token is checked as on a workspace without an identity provider), 403
 * when it is valid for another workspace.
 */
export async function refuseAbsent(ctx: Context, services: Services, absent: ApiError, token = requireBearer(ctx)): Promise<never> {
  authorizeData(await principalOf(ctx, services, NO_SUCH_WORKSPACE, token), NO_SUCH_WORKSPACE, false);
  throw absent;
}

/** The view a path names by its uuid; one that does not exist is answered by refuseAbsent. */
export async function viewByUuid(ctx: Context, services: Services, uuid: string): Promise<ViewRecord> {
  const token = requireBearer(ctx);
  return (await services.workspaces.findView(uuid)) ?? refuseAbsent(ctx, services, notFound(`view '${uuid}' does not exist`), token);
}

/** `lookup`'s answer; a NOT_FOUND from it is answered by refuseAbsent. */
export async function lookedUp<T>(ctx: Context, services: Services, lookup: () => Promise<T>, token = requireBearer(ctx)): Promise<T> {
  try {
    return await lookup();
  } catch (error) {
    if (error instanceof ApiError && error.code === 'NOT_FOUND') return refuseAbsent(ctx, services, error, token);
    throw error;
  }
}

export async function dataAccess(ctx: Context, services: Services, org: string, ws: string, write: boolean): Promise<DataAccess> {
  const token = requireBearer(ctx);
  const workspaces = services.workspaces;
  return accessTo(ctx, services, workspaces.knownBySlug(org, ws) ?? (await lookedUp(ctx, services, () => workspaces.bySlug(org, ws), token)), { token, write });
}

export async function dataAccessById(ctx: Context, services: Services, workspaceId: string, write: boolean, viewUuid?: string): Promise<DataAccess> {
  const token = requireBearer(ctx);
  return accessTo(ctx, services, await services.workspaces.byId(workspaceId), { token, write, ...(viewUuid ? { viewUuid } : {}) });
}

/** Owner-only routes of a workspace (admin API, views, columns, rules): never external users. */
export async function ownerAccess(ctx: Context, services: Services, workspaceId: string): Promise<Principal> {
  const principal = await principalOf(ctx, services, workspaceId);
  authorizeOwner(principal, workspaceId);
  return principal;
}
