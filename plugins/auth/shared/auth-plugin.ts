/**
 * The authentication plugin interface. Plugins are registered once at start-up, in order;
 * the first that recognises a bearer token decides. Routes never look at tokens themselves.
 */

/** Who is calling. Owners and the instance admin bypass row-level security; external users do not. */
export type Principal =
  | { readonly kind: 'admin'; readonly subject: 'admin' }
  | { readonly kind: 'owner'; readonly workspaceId: string; readonly subject: string }
  | {
      readonly kind: 'external';
      readonly workspaceId: string;
      readonly subject: string;
      readonly claims: Readonly<Record<string, unknown>>;
      readonly permissions: 'READ_ONLY' | 'READ_WRITE';
    };

/**
 * The `workspaceId` of a request whose path names something that does not exist (an unknown
 * workspace, view or import job). Its credential is still checked, as on a workspace without an
 * identity provider, so that the answer does not tell whether the target exists (docs/security.md).
 */
export const NO_SUCH_WORKSPACE = '(no such workspace)';

export interface AuthRequest {
  /** The bearer token, without the scheme. */
  readonly token: string;
  /** The workspace the request addresses, when its path names one (NO_SUCH_WORKSPACE: none exists). */
  readonly workspaceId?: string;
}

/**
 * A plugin's answer: at once when it can tell without waiting (a key it already holds: no promise
 * and no turn of the microtask queue on every request), or later.
 */
export type AuthAnswer = Principal | null | Promise<Principal | null>;

export interface AuthPlugin {
  /** Name for logs and errors. */
  readonly name: string;
  /**
   * Returns the principal when the token is this plugin's kind and valid, null when the token
   * is not this plugin's kind; throws UNAUTHORIZED when it is this plugin's kind but invalid.
   */
  authenticate(request: AuthRequest): AuthAnswer;
}
