/** Everything a route needs, built once at start-up (server/start.ts). */
import type { Logger } from 'pino';
import type { ControlStore } from '../../core/workspace/store.ts';
import type { WorkspaceCache } from '../../core/workspace/cache.ts';
import type { DialectRegistry } from '../../dialects/dialect.ts';
import type { OwnerLease } from '../../core/import/owner-lease.ts';
import type { ImportObserver } from '../../core/import/index.ts';
import type { AuthPlugin } from '../../plugins/auth/shared/auth-plugin.ts';
import type { ApiKeyCache } from '../../plugins/auth/api-key/key-cache.ts';
import type { InternalIssuer } from '../../plugins/auth/internal-oauth/internal-oauth-plugin.ts';
import type { ConcurrentRequests } from '../../plugins/rate-limit/concurrent.ts';
import type { RequestLimiter } from '../../plugins/rate-limit/limiter.ts';

export interface ServiceSettings {
  /** Row count above which count=estimated uses the planner's estimate. */
  readonly countEstimateThreshold: number;
  /** Most rows and array items a page may hold (MAX_RESPONSE_ITEMS, core/query/response-bound.ts). */
  readonly maxResponseItems: number;
  /** JSON body limit in bytes. */
  readonly jsonLimitBytes: number;
  /** CSV import body limit in bytes (IMPORT_LIMIT_BYTES; at most 100 MiB). */
  readonly importLimitBytes: number;
  /**
   * IDP_ALLOW_PRIVATE: identity-provider URLs may point at loopback, link-local and private
   * addresses (a self-hosted network); off, they are refused (core/outbound-address.ts).
   */
  readonly idpAllowPrivate: boolean;
  /** STATEMENT_TIMEOUT_MS: one statement's time limit; past it 503 QUERY_TIMEOUT. */
  readonly statementTimeoutMs: number;
  /** EXPORT_STATEMENT_TIMEOUT_MS: a streamed export's statement limit. */
  readonly exportStatementTimeoutMs: number;
  /** RESPONSE_IDLE_TIMEOUT_MS: a streamed answer whose client takes nothing for this long is cut. */
  readonly responseIdleTimeoutMs: number;
}

/** What the process is doing; read by /readyz and the response headers. */
export interface Lifecycle {
  /** Set on SIGTERM: readiness fails so balancers move away while requests are still served. */
  draining: boolean;
}

export interface Services {
  readonly store: ControlStore;
  readonly workspaces: WorkspaceCache;
  readonly dialects: DialectRegistry;
  readonly authPlugins: readonly AuthPlugin[];
  /** API keys as this instance checks them; revoking here drops from it (plugins/auth/api-key/key-cache.ts). */
  readonly apiKeys: ApiKeyCache;
  /** The instance as an OAuth issuer (internal tokens). */
  readonly issuer: InternalIssuer;
  readonly logger: Logger;
  readonly settings: ServiceSettings;
  /** Signs paging cursors; the same on every instance of the deployment (control store). */
  readonly cursorSecret: string;
  /** This process's instance id and who else is alive, for import jobs (absent: the only process). */
  readonly importLease?: OwnerLease;
  readonly lifecycle: Lifecycle;
  /** RATE_LIMIT_PER_MINUTE: absent, requests are not limited. */
  readonly rateLimiter?: RequestLimiter;
  /** CONCURRENT_PER_CREDENTIAL: data requests of one credential at a time; absent, not limited. */
  readonly concurrentRequests?: ConcurrentRequests;
  /** Told about every import batch written (metrics). */
  readonly importObserver?: ImportObserver;
}
