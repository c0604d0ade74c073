/** What may be read from a token before it is verified: only its shape and its `iss` (DESIGN §10). */
import { decodeJwt } from 'jose';

/**
 * Tokens beyond this size are refused unread (a 100 KB token must not cost a parse). IdP tokens
 * with many group claims reach tens of KB; the HTTP header limit (64 KiB by default,
 * MAX_HEADER_BYTES) bounds what can arrive, so this matches it.
 */
export const MAX_TOKEN_LENGTH = 64 * 1024;

export function looksLikeJwt(token: string): boolean {
  return token.length <= MAX_TOKEN_LENGTH && /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/.test(token);
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
