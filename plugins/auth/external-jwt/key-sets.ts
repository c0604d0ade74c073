/**
 * JWKS per identity provider: the configured URI, or the one discovered from
 * `{issuer}/.well-known/openid-configuration`. jose's remote key set caches keys, refetches on an
 * unknown `kid` and rate-limits those refetches (cooldown), so key rotation needs no restart.
 */
import { createRemoteJWKSet } from 'jose';
import { ApiError } from '../../../core/errors.ts';

export const DISCOVERY_FAILED = 'failed to discover JWKS endpoint for issuer';

type KeySet = ReturnType<typeof createRemoteJWKSet>;

const DISCOVERY_TTL_MS = 10 * 60 * 1000;
const FETCH_TIMEOUT_MS = 5000;

export function discoveryUrl(issuer: string): string {
  return `${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`;
}

async function discoverJwksUri(issuer: string): Promise<string> {
  try {
    const response = await fetch(discoveryUrl(issuer), { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS), redirect: 'error' });
    if (!response.ok) throw new Error(`status ${response.status}`);
    const document = (await response.json()) as { jwks_uri?: unknown };
    if (typeof document.jwks_uri !== 'string') throw new Error('no jwks_uri');
    return new URL(document.jwks_uri).toString();
  } catch {
    throw new ApiError('UNAUTHORIZED', DISCOVERY_FAILED);
  }
}

export class KeySetCache {
  private readonly keySets = new Map<string, KeySet>();
  private readonly discoveries = new Map<string, { uri: string; at: number }>();

  async forProvider(issuer: string, jwksUri: string | null): Promise<KeySet> {
    const uri = jwksUri ?? (await this.discover(issuer));
    let keySet = this.keySets.get(uri);
    if (!keySet) {
      keySet = createRemoteJWKSet(new URL(uri), { timeoutDuration: FETCH_TIMEOUT_MS, cooldownDuration: 30_000, cacheMaxAge: DISCOVERY_TTL_MS });
      this.keySets.set(uri, keySet);
    }
    return keySet;
  }

  private async discover(issuer: string): Promise<string> {
    const cached = this.discoveries.get(issuer);
    if (cached && Date.now() - cached.at < DISCOVERY_TTL_MS) return cached.uri;
    const uri = await discoverJwksUri(issuer);
    this.discoveries.set(issuer, { uri, at: Date.now() });
    return uri;
  }
}
