/** What may be read from a token before it is verified: only its shape and its `iss` (DESIGN §10). */
import { decodeJwt, type JWTPayload } from 'jose';
import { ApiError } from '../../../core/errors.ts';

/**
 * Tokens beyond this size are refused unread (a 100 KB token must not cost a parse). IdP tokens
 * with many group claims reach tens of KB; the HTTP header limit (64 KiB by default,
 * MAX_HEADER_BYTES) bounds what can arrive, so this matches it.
 */
export const MAX_TOKEN_LENGTH = 64 * 1024;

/** Three base64url parts, whatever the length. */
export function hasJwtShape(token: string): boolean {
  return /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/.test(token);
}

export function looksLikeJwt(token: string): boolean {
  return token.length <= MAX_TOKEN_LENGTH && hasJwtShape(token);
}

/** Clock skew allowed between this service and a token's issuer (DESIGN §10). */
export const CLOCK_TOLERANCE_SECONDS = 30;

export const ISSUED_IN_FUTURE = 'token was issued in the future (iat)';

/**
 * jose checks `iat` only together with `maxTokenAge`, so a verified token issued in the future
 * (a wrong clock at the issuer, or a token minted to outlive its stated lifetime) is refused here.
 */
export function refuseFutureIssuedAt(payload: JWTPayload, nowSeconds = Math.floor(Date.now() / 1000)): void {
  if (typeof payload.iat === 'number' && payload.iat > nowSeconds + CLOCK_TOLERANCE_SECONDS) throw new ApiError('UNAUTHORIZED', ISSUED_IN_FUTURE);
}

/** The unverified `iss`, or undefined when the payload cannot be decoded. */
export function unverifiedIssuer(token: string): string | undefined {
  try {
    const iss = decodeJwt(token).iss;
    return typeof iss === 'string' ? iss : undefined;
  } catch {
    return undefined;
  }
}

/** Reads a claim by dotted path (`org.id`), DESIGN §12. */
export function claimAt(claims: Readonly<Record<string, unknown>>, path: string): unknown {
  let value: unknown = claims;
  for (const segment of path.split('.')) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
    value = (value as Record<string, unknown>)[segment];
  }
  return value;
}
