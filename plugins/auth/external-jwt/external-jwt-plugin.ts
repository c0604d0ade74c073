/**
 * External identity provider tokens (spec "Authentication" rules 3-4, DESIGN §10): RSA/EC/EdDSA
 * signatures only, exact issuer match, audience only when configured, `sub` and `exp` required,
 * 30 s clock tolerance. Messages are the spec's 401 messages.
 */
import { errors, jwtVerify, type JWTPayload } from 'jose';
import type { IdentityProviderConfig } from '../../../core/workspace/types.ts';
import { ApiError } from '../../../core/errors.ts';
import { NO_SUCH_WORKSPACE, type AuthPlugin, type AuthRequest, type Principal } from '../shared/auth-plugin.ts';
import { CLOCK_TOLERANCE_SECONDS, hasJwtShape, looksLikeJwt, refuseFutureIssuedAt, unverifiedIssuer } from '../shared/jwt-shape.ts';
import { KeySetCache } from './key-sets.ts';

export const MESSAGES = {
  notConfigured: 'no external identity provider configured for this workspace',
  issuer: 'token issuer does not match configured identity provider',
  audience: 'token audience does not match configured audience',
  expired: 'token has expired',
  invalid: 'invalid token',
  jwtExpected: 'a JWT access token from the identity provider (or an API key) is expected',
} as const;

/** Prefixes of this service's own credentials: their plugins give their own messages. */
const OWN_CREDENTIAL_PREFIXES = ['wdk_', 'wda_'];

const ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];

export type IdentityProviderLookup = (workspaceId: string) => Promise<IdentityProviderConfig | null>;

const unauthorized = (message: string): ApiError => new ApiError('UNAUTHORIZED', message);

function translate(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof errors.JWTExpired) return unauthorized(MESSAGES.expired);
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.reason === 'missing' && (error.claim === 'sub' || error.claim === 'exp')) return unauthorized(`token is missing required claim: ${error.claim}`);
    if (error.claim === 'aud') return unauthorized(MESSAGES.audience);
    if (error.claim === 'iss') return unauthorized(MESSAGES.issuer);
  }
  return unauthorized(MESSAGES.invalid);
}

function checkClaims(payload: JWTPayload): void {
  if (typeof payload.sub !== 'string' || payload.sub === '') throw unauthorized('token is missing required claim: sub');
  refuseFutureIssuedAt(payload);
}

/**
 * An opaque bearer (a session id, another service's token) on a workspace whose users sign in at
 * an identity provider: say what is expected instead of "unknown credential".
 */
function isForeignOpaqueToken(token: string): boolean {
  return !hasJwtShape(token) && !OWN_CREDENTIAL_PREFIXES.some((prefix) => token.startsWith(prefix));
}

/**
 * Verified tokens are remembered (as PostgREST does) until they expire, for at most a minute, and
 * only under the identity provider configuration they were verified with.
 */
const VERIFIED_TTL_MS = 60_000;
const VERIFIED_LIMIT = 10_000;

interface Verified {
  readonly principal: Principal;
  readonly until: number;
  readonly config: IdentityProviderConfig;
}

export function externalJwtPlugin(providerOf: IdentityProviderLookup, keySets: KeySetCache): AuthPlugin {
  const verified = new Map<string, Verified>();
  // A workspace that does not exist answers as one without an identity provider.
  const lookup = async (workspaceId: string) => (workspaceId === NO_SUCH_WORKSPACE ? null : providerOf(workspaceId));
  return {
    name: 'external-jwt',
    async authenticate(request: AuthRequest): Promise<Principal | null> {
      if (!request.workspaceId) return null;
      if (isForeignOpaqueToken(request.token)) {
        const config = await lookup(request.workspaceId);
        if (config?.enabled) throw unauthorized(MESSAGES.jwtExpected);
        return null;
      }
      if (!looksLikeJwt(request.token)) return null;
      const config = await lookup(request.workspaceId);
      if (!config || !config.enabled) throw unauthorized(MESSAGES.notConfigured);
      const cacheKey = `${request.workspaceId} ${request.token}`;
      const hit = verified.get(cacheKey);
      if (hit && hit.config === config && Date.now() < hit.until) return hit.principal;
      const principal = await verify(request.token, request.workspaceId, config, keySets);
      const exp = typeof principal.claims.exp === 'number' ? principal.claims.exp * 1000 : 0;
      if (verified.size >= VERIFIED_LIMIT) verified.clear();
      verified.set(cacheKey, { principal, config, until: Math.min(exp, Date.now() + VERIFIED_TTL_MS) });
      return principal;
    },
  };
}

async function verify(token: string, workspaceId: string, config: IdentityProviderConfig, keySets: KeySetCache): Promise<Principal & { kind: 'external' }> {
  // Only `iss` is read before verification, and only to fail fast with the spec's message.
  if (unverifiedIssuer(token) !== config.issuerUrl) throw unauthorized(MESSAGES.issuer);
  try {
    const keys = await keySets.forProvider(config.issuerUrl, config.jwksUri);
    const { payload } = await jwtVerify(token, keys, {
      issuer: config.issuerUrl,
      ...(config.audience ? { audience: config.audience } : {}),
      algorithms: ALGORITHMS,
      clockTolerance: CLOCK_TOLERANCE_SECONDS,
      requiredClaims: ['sub', 'exp'],
    });
    checkClaims(payload);
    return { kind: 'external', workspaceId, subject: payload.sub as string, claims: payload, permissions: config.defaultPermissions };
  } catch (error) {
    throw translate(error);
  }
}
