/**
 * What a pasted token says about itself (its claims, unverified) and which of the service's
 * checks its refusal names. Only the service verifies: this reads, it never trusts.
 */
export interface TokenClaims {
  readonly iss?: unknown;
  readonly aud?: unknown;
  readonly exp?: unknown;
  readonly sub?: unknown;
  readonly [claim: string]: unknown;
}

export function decodeClaims(token: string): TokenClaims | undefined {
  const payload = token.split('.')[1];
  if (!payload) return undefined;
  try {
    const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(payload.length / 4) * 4, '='));
    const claims = JSON.parse(decodeURIComponent(escape(json))) as unknown;
    return claims && typeof claims === 'object' ? (claims as TokenClaims) : undefined;
  } catch {
    return undefined;
  }
}

export const TOKEN_CHECKS = ['signature', 'iss', 'aud', 'exp', 'sub'] as const;
export type TokenCheck = (typeof TOKEN_CHECKS)[number];

/** The check a 401 message of the external-token plugin names; anything else is the signature (or the token's form). */
export function failedCheck(message: string): TokenCheck {
  if (/issuer/.test(message)) return 'iss';
  if (/audience/.test(message)) return 'aud';
  if (/expired|claim: exp/.test(message)) return 'exp';
  if (/claim: sub/.test(message)) return 'sub';
  return 'signature';
}

/** The identity provider a token is checked against (the form's saved values). */
export interface ExpectedIssuer {
  readonly issuerUrl: string;
  readonly audience: string;
}

/**
 * What a check the service did not reach says when read from the token's own claims: the service
 * stops at the first failing check, but iss, aud, exp and sub can still be read. Unverified, so it
 * says "from its claims"; the signature only the service can tell (null).
 */
export function claimCheck(check: TokenCheck, claims: TokenClaims | undefined, expected: ExpectedIssuer, nowSeconds: number): 'passes' | 'fails' | null {
  if (!claims || check === 'signature') return null;
  if (check === 'iss') return typeof claims.iss === 'string' && claims.iss.replace(/\/+$/, '') === expected.issuerUrl.replace(/\/+$/, '') ? 'passes' : 'fails';
  if (check === 'aud') {
    if (!expected.audience) return 'passes';
    const audiences = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
    return audiences.includes(expected.audience) ? 'passes' : 'fails';
  }
  // The service allows 30 s of clock difference.
  if (check === 'exp') return typeof claims.exp === 'number' && claims.exp + 30 > nowSeconds ? 'passes' : 'fails';
  return typeof claims.sub === 'string' && claims.sub !== '' ? 'passes' : 'fails';
}
