/** Who may do what (spec "Authentication", DESIGN §10). Routes call these; they never inspect tokens. */
import { ApiError } from '../../core/errors.ts';
import type { AuthPlugin, AuthRequest, Principal } from './shared/auth-plugin.ts';

export const READ_ONLY_MESSAGE = 'external users have READ_ONLY permissions; modifications are not allowed';

export function bearerToken(header: string | undefined): string {
  const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  if (!match?.[1]) throw new ApiError('UNAUTHORIZED', 'missing bearer token: send Authorization: Bearer <token>');
  return match[1];
}

/**
 * The principal the first plugin that recognises `token` (see bearerToken) finds; a promise only
 * when a plugin answers with one. Throws (or rejects with) UNAUTHORIZED when none recognises it.
 */
export function authenticate(plugins: readonly AuthPlugin[], token: string, workspaceId?: string): Principal | Promise<Principal> {
  return recognisedFrom(plugins, 0, workspaceId ? { token, workspaceId } : { token });
}

function recognisedFrom(plugins: readonly AuthPlugin[], first: number, request: AuthRequest): Principal | Promise<Principal> {
  for (let i = first; i < plugins.length; i++) {
    const answer = plugins[i]?.authenticate(request);
    if (answer instanceof Promise) return answer.then((principal) => principal ?? recognisedFrom(plugins, i + 1, request));
    if (answer) return answer;
  }
  throw new ApiError('UNAUTHORIZED', 'invalid or unknown credential');
}

/** Data access to a workspace: its owners, the instance admin, and its external users. */
export function authorizeData(principal: Principal, workspaceId: string, write: boolean): void {
  if (principal.kind === 'admin') return;
  if (principal.workspaceId !== workspaceId) throw new ApiError('FORBIDDEN', 'this credential belongs to another workspace');
  if (write && principal.kind === 'external' && principal.permissions === 'READ_ONLY') throw new ApiError('FORBIDDEN', READ_ONLY_MESSAGE);
}

/** Admin routes inside a workspace: owners and the instance admin; external users never. */
export function authorizeOwner(principal: Principal, workspaceId: string): void {
  if (principal.kind === 'admin') return;
  if (principal.kind === 'external') throw new ApiError('FORBIDDEN', 'external users cannot use admin routes');
  if (principal.workspaceId !== workspaceId) throw new ApiError('FORBIDDEN', 'this credential belongs to another workspace');
}

export function authorizeInstanceAdmin(principal: Principal): void {
  if (principal.kind !== 'admin') throw new ApiError('FORBIDDEN', 'this route needs the instance admin token');
}

/** Owner credentials (API key, internal token, instance admin) act for the whole workspace. */
export function isOwnerCredential(principal: Principal): boolean {
  return principal.kind !== 'external';
}

/** A resource made by one user (an import job): owners see all of them, external users their own. */
export function mayAccessOwnResource(principal: Principal, createdBy: string): boolean {
  return isOwnerCredential(principal) || createdBy === principal.subject;
}
