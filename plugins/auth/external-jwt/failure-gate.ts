/**
 * Single-flight with failure backoff, per key (an issuer's discovery URL, a JWKS URL).
 *
 * Anonymous traffic picks the issuer an outbound fetch goes to (a workspace owner
 * may point `issuerUrl` anywhere, and every unsigned token carrying that `iss` used to fetch it
 * again). So concurrent callers share one attempt, and a failed attempt is remembered: until its
 * backoff has passed every caller gets the same failure without a request. The backoff doubles
 * with each failure in a row, up to a maximum; one success forgets the failures.
 */
export interface BackoffOptions {
  /** Wait after the first failure. */
  readonly initialMs: number;
  /** Upper bound of the doubling wait. */
  readonly maxMs: number;
  /** Clock, replaceable in tests. */
  readonly now?: () => number;
}

interface GateEntry {
  pending?: Promise<unknown>;
  failures: number;
  retryAt: number;
  error?: unknown;
}

/** Keys come from workspace configuration; this only guards against unbounded growth. */
const MAX_ENTRIES = 10_000;

export class FailureGate {
  private readonly entries = new Map<string, GateEntry>();
  private readonly now: () => number;

  constructor(private readonly options: BackoffOptions) {
    this.now = options.now ?? Date.now;
  }

  /** Runs `attempt` unless one for `key` is under way (joined) or failed within its backoff (its error again). */
  run<T>(key: string, attempt: () => Promise<T>): Promise<T> {
    const entry = this.entries.get(key) ?? { failures: 0, retryAt: 0 };
    if (entry.pending) return entry.pending as Promise<T>;
    if (this.now() < entry.retryAt) return Promise.reject(entry.error);
    const pending = attempt().then(
      (value) => {
        this.entries.delete(key);
        return value;
      },
      (error: unknown) => {
        this.remember(key, entry.failures + 1, error);
        throw error;
      },
    );
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(key, { ...entry, pending });
    return pending;
  }

  private remember(key: string, failures: number, error: unknown): void {
    const wait = Math.min(this.options.initialMs * 2 ** (failures - 1), this.options.maxMs);
    this.entries.set(key, { failures, retryAt: this.now() + wait, error });
  }
}
