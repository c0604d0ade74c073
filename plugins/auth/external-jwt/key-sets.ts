/**
 * JWKS per identity provider: the configured URI, or the one discovered from
 * `{issuer}/.well-known/openid-configuration`. jose's remote key set caches keys, refetches on an
 * unknown `kid` and rate-limits those refetches (cooldown), so key rotation needs no restart.
 *
 * Every outbound request (discovery and key set) goes through one FailureGate: concurrent callers
 * share one request, and a failed one is not retried before its backoff has passed, so anonymous
 * tokens can cause at most one request per issuer (and per key set) per interval.
 */
import { createRemoteJWKSet, customFetch, type FetchImplementation } from 'jose';
import { ApiError } from '../../../core/errors.ts';
import { FailureGate, type BackoffOptions } from './failure-gate.ts';
import { FETCH_TIMEOUT_MS, FetchFailed, fetchJsonDocument } from './fetch-json.ts';

export const DISCOVERY_FAILED = 'failed to discover JWKS endpoint for issuer';

/** After a failed discovery or key set fetch: 5 s, doubling per failure in a row, at most 5 min. */
export const FAILURE_BACKOFF: BackoffOptions = { initialMs: 5000, maxMs: 5 * 60 * 1000 };

type KeySet = ReturnType<typeof createRemoteJWKSet>;

const DISCOVERY_TTL_MS = 10 * 60 * 1000;

export function discoveryUrl(issuer: string): string {
  return `${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`;
}

async function discoverJwksUri(issuer: string, allowPrivate: boolean): Promise<string> {
  try {
    const document = (await fetchJsonDocument(discoveryUrl(issuer), { allowPrivate })) as { jwks_uri?: unknown } | null;
    if (typeof document?.jwks_uri !== 'string') throw new FetchFailed('no jwks_uri');
    return new URL(document.jwks_uri).toString();
  } catch {
    throw new ApiError('UNAUTHORIZED', DISCOVERY_FAILED);
  }
}

function isKeySetDocument(value: unknown): boolean {
  const keys = (value as { keys?: unknown } | null)?.keys;
  return Array.isArray(keys) && keys.every((k) => typeof k === 'object' && k !== null && !Array.isArray(k));
}

async function fetchKeySet(url: string, headers: Headers, allowPrivate: boolean): Promise<unknown> {
  const document = await fetchJsonDocument(url, { allowPrivate, headers });
  if (!isKeySetDocument(document)) throw new FetchFailed('not a JSON Web Key Set');
  return document;
}

export class KeySetCache {
  private readonly keySets = new Map<string, KeySet>();
  private readonly discoveries = new Map<string, { uri: string; at: number }>();
  private readonly gate: FailureGate;

  /** `allowPrivate`: IDP_ALLOW_PRIVATE, the private-address rule's opt-in (core/outbound-address.ts). */
  constructor(
    private readonly allowPrivate: boolean,
    backoff: BackoffOptions = FAILURE_BACKOFF,
  ) {
    this.gate = new FailureGate(backoff);
  }

  async forProvider(issuer: string, jwksUri: string | null): Promise<KeySet> {
    const uri = jwksUri ?? (await this.discover(issuer));
    let keySet = this.keySets.get(uri);
    if (!keySet) {
      keySet = createRemoteJWKSet(new URL(uri), {
        timeoutDuration: FETCH_TIMEOUT_MS,
        cooldownDuration: 30_000,
        cacheMaxAge: DISCOVERY_TTL_MS,
        [customFetch]: this.gatedKeySetFetch,
      });
      this.keySets.set(uri, keySet);
    }
    return keySet;
  }

  /**
   * jose fetches the key set through this: a validated document becomes a fresh 200 response per
   * caller; junk, a redirect, a timeout or an error status is a failure the gate remembers.
   */
  private readonly gatedKeySetFetch: FetchImplementation = async (url, options) => {
    const document = await this.gate.run(`jwks ${url}`, () => fetchKeySet(url, options.headers, this.allowPrivate));
    return new Response(JSON.stringify(document), { status: 200, headers: { 'content-type': 'application/json' } });
  };

  private async discover(issuer: string): Promise<string> {
    const cached = this.discoveries.get(issuer);
    if (cached && Date.now() - cached.at < DISCOVERY_TTL_MS) return cached.uri;
    const uri = await this.gate.run(`discovery ${issuer}`, () => discoverJwksUri(issuer, this.allowPrivate));
    this.discoveries.set(issuer, { uri, at: Date.now() });
    return uri;
  }
}
