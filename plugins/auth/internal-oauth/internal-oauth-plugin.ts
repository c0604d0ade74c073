/**
 * Internal OAuth 2.0 (DESIGN §10): client_credentials with an API key's id and secret gives a
 * short-lived ES256 JWT whose `iss` is the instance's issuer URL. Such tokens are owner credentials.
 */
import { createLocalJWKSet, jwtVerify, SignJWT, errors } from 'jose';
import { ApiError } from '../../../core/errors.ts';
import { apiKeyIsLive, verifyApiKey } from '../api-key/api-key-plugin.ts';
import type { ApiKeySource } from '../api-key/key-cache.ts';
import type { AuthPlugin, AuthRequest, Principal } from '../shared/auth-plugin.ts';
import { CLOCK_TOLERANCE_SECONDS, looksLikeJwt, refuseFutureIssuedAt, unverifiedIssuer } from '../shared/jwt-shape.ts';
import type { SigningKey } from './signing-key.ts';

export const TOKEN_LIFETIME_SECONDS = 3600;
const WORKSPACE_CLAIM = 'wdapi_ws';

export interface InternalIssuer {
  /** The issuer URL (PUBLIC_URL, or the listening URL). */
  issuer(): string;
  readonly key: SigningKey;
}

export interface TokenGrant {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
}

export async function issueAccessToken(keys: ApiKeySource, issuer: InternalIssuer, clientId: string, clientSecret: string): Promise<TokenGrant | null> {
  const verified = await verifyApiKey(keys, clientSecret);
  if (!verified || verified.id !== clientId) return null;
  const token = await new SignJWT({ [WORKSPACE_CLAIM]: verified.workspaceId })
    .setProtectedHeader({ alg: 'ES256', kid: issuer.key.kid, typ: 'JWT' })
    .setIssuer(issuer.issuer())
    .setSubject(verified.id)
    .setIssuedAt()
    .setExpirationTime(`${TOKEN_LIFETIME_SECONDS}s`)
    .sign(issuer.key.privateKey);
  return { access_token: token, token_type: 'Bearer', expires_in: TOKEN_LIFETIME_SECONDS };
}

export function jwksDocument(issuer: InternalIssuer): { keys: unknown[] } {
  return { keys: [issuer.key.publicJwk] };
}

/**
 * A token is refused once the API key it was issued for is revoked (or its workspace deleted):
 * its key is checked through the same key cache as the key itself, under the same rule.
 */
export function internalOAuthPlugin(issuer: InternalIssuer, apiKeys: ApiKeySource): AuthPlugin {
  const keys = createLocalJWKSet(jwksDocument(issuer) as Parameters<typeof createLocalJWKSet>[0]);
  return {
    name: 'internal-oauth',
    async authenticate(request: AuthRequest): Promise<Principal | null> {
      if (!looksLikeJwt(request.token) || unverifiedIssuer(request.token) !== issuer.issuer()) return null;
      try {
        const { payload } = await jwtVerify(request.token, keys, { issuer: issuer.issuer(), algorithms: ['ES256'], clockTolerance: CLOCK_TOLERANCE_SECONDS, requiredClaims: ['sub', 'exp'] });
        refuseFutureIssuedAt(payload);
        const workspaceId = payload[WORKSPACE_CLAIM];
        if (typeof workspaceId !== 'string' || typeof payload.sub !== 'string') throw new ApiError('UNAUTHORIZED', 'invalid token');
        if (!(await apiKeyIsLive(apiKeys, payload.sub, workspaceId))) throw new ApiError('UNAUTHORIZED', 'the API key this token was issued for has been revoked');
        return { kind: 'owner', workspaceId, subject: payload.sub };
      } catch (error) {
        if (error instanceof ApiError) throw error;
        if (error instanceof errors.JWTExpired) throw new ApiError('UNAUTHORIZED', 'token has expired');
        throw new ApiError('UNAUTHORIZED', 'invalid token');
      }
    },
  };
}
