/**
 * Boots the service: control store (embedded PGlite under dataDir, or CONTROL_DATABASE_URL),
 * dialects, auth plugins, the demo workspace on first start, and the HTTP server (bound first).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import pino, { type Logger } from 'pino';
import { WorkspaceCache } from '../core/workspace/cache.ts';
import type { ChangeListener } from '../core/workspace/change-listener.ts';
import { ControlStore } from '../core/workspace/store.ts';
import type { Dialect, Driver } from '../dialects/dialect.ts';
import { IMPORT_LIMIT_BYTES } from '../core/import/index.ts';
import { advisoryLease, singleProcessLease } from '../core/import/owner-lease.ts';
import { DEFAULT_MAX_RESPONSE_ITEMS } from '../core/query/response-bound.ts';
import { createEmbeddedDriver, createPgDriver, EmbeddedDatabase, openPgSession, type EmbeddedThread } from '../dialects/postgres/index.ts';
import { createDialectRegistry } from './dialect-registry.ts';
import { adminTokenPlugin } from '../plugins/auth/admin-token/admin-token-plugin.ts';
import { apiKeyPlugin } from '../plugins/auth/api-key/api-key-plugin.ts';
import { ApiKeyCache } from '../plugins/auth/api-key/key-cache.ts';
import { externalJwtPlugin } from '../plugins/auth/external-jwt/external-jwt-plugin.ts';
import { KeySetCache } from '../plugins/auth/external-jwt/key-sets.ts';
import { internalOAuthPlugin, type InternalIssuer } from '../plugins/auth/internal-oauth/internal-oauth-plugin.ts';
import { loadSigningKey } from '../plugins/auth/internal-oauth/signing-key.ts';
import { hashSecret, randomToken } from '../plugins/auth/shared/secrets.ts';
import { cacheObserver, importObserver } from '../plugins/metrics/observers.ts';
import { createServiceMetrics, type ServiceMetrics } from '../plugins/metrics/registry.ts';
import { ConcurrentRequests } from '../plugins/rate-limit/concurrent.ts';
import type { RateLimitOptions, RequestLimiter } from '../plugins/rate-limit/limiter.ts';
import { createApp } from './app.ts';
import { saveAdminToken, seedDemo, type DemoCredentials } from './demo.ts';
import { listenEarly, type EarlyServer } from './early-server.ts';
import { DEFAULT_HTTP_LIMITS, type HttpLimits } from './http-server.ts';
import type { Lifecycle, ServiceSettings, Services } from './shared/services.ts';
import { listenForChanges } from './listen-changes.ts';
import { shutDown } from './shutdown.ts';
import { settingWarnings } from './setting-warnings.ts';
import { reachControlStore, StartupError } from './startup-checks.ts';
import { secretBoxFor } from './secrets-key.ts';
import { SecretsKeyError, type SecretBox } from '../core/secret-box.ts';
import { sealStoredSecrets } from '../core/workspace/seal-secrets.ts';
import { EXPORT_STATEMENT_TIMEOUT_MS, RESPONSE_IDLE_TIMEOUT_MS, STATEMENT_TIMEOUT_MS } from './shared/statement-limits.ts';

export interface StartOptions {
  /** Folder for the embedded database; undefined keeps everything in memory (tests). */
  readonly dataDir?: string;
  readonly controlDatabaseUrl?: string;
  /** Fixed admin token (ADMIN_TOKEN); otherwise one is generated on first start. */
  readonly adminToken?: string;
  /**
   * SECRETS_KEY: seals the control store's secrets (server/secrets-key.ts); required with
   * `controlDatabaseUrl`, otherwise a key file in `dataDir` (or a random key in memory).
   */
  readonly secretsKey?: string;
  /** SECRETS_KEY_PREVIOUS: the key being rotated away from; its values are sealed again at start. */
  readonly secretsKeyPrevious?: string;
  /** Issuer URL of internal tokens (PUBLIC_URL); defaults to the listening URL. */
  readonly publicUrl?: string;
  readonly port?: number;
  readonly host?: string;
  readonly logger?: Logger;
  /** Create the demo org/workspace when the store is empty. */
  readonly demo?: boolean;
  readonly settings?: Partial<ServiceSettings>;
  /** Extra dialects (mysql, mssql) registered beside the Postgres ones. */
  readonly dialects?: readonly Dialect[];
  /** Header size and timeouts of the HTTP server (server/http-server.ts). */
  readonly http?: Partial<HttpLimits>;
  /** Origins allowed by CORS (CORS_ORIGINS); none: no CORS headers at all. */
  readonly corsOrigins?: readonly string[];
  /** Trust X-Forwarded-* headers (TRUST_PROXY). */
  readonly trustProxy?: boolean;
  /** How long the control database may take to answer at start. */
  readonly controlConnectTimeoutMs?: number;
  /** RATE_LIMIT_PER_MINUTE (with REDIS_URL, REDIS_KEY_PREFIX); absent: no limit. */
  readonly rateLimit?: RateLimitOptions;
  /** METRICS_TOKEN: the bearer token GET /metrics asks for; absent: /metrics is open. */
  readonly metricsToken?: string;
  /** CONCURRENT_PER_CREDENTIAL: data requests one credential may run at a time; absent: not limited. */
  readonly concurrentPerCredential?: number;
  /** Serve the admin application at /admin/ (ADMIN_APP); absent: served. */
  readonly adminApp?: boolean;
  /** A server already listening (server/main.ts binds it before loading the service); absent: bound here. */
  readonly early?: EarlyServer;
  /**
   * Where the embedded PGlite runs: a worker thread (`npm start` always), or this thread. Absent:
   * WDAPI_EMBEDDED_THREAD=in-process selects this thread (the test suite's default, vitest.config.ts),
   * anything else the worker.
   */
  readonly embeddedThread?: EmbeddedThread;
}

export interface RunningService {
  readonly url: string;
  readonly port: number;
  readonly services: Services;
  /** The embedded database (opened on first use). */
  readonly embedded: EmbeddedDatabase;
  /** The admin token when it is known in plain text (given, or generated by this start). */
  readonly adminToken: string | undefined;
  readonly demo: DemoCredentials | undefined;
  /** The file that holds the generated admin token, when this data folder keeps one. */
  readonly credentialsFile: string | undefined;
  /** Hears control-store changes made through other instances (PostgreSQL control store only). */
  readonly changes: ChangeListener | undefined;
  /** What GET /metrics reports. */
  readonly metrics: ServiceMetrics;
  /**
   * Stops the service. With `drainMs`, /readyz answers 503 first and requests are still served
   * for that long (a balancer takes the instance out), then it stops accepting, lets in-flight
   * requests finish and closes the pools; what is still open after `deadlineMs` (default
   * SHUTDOWN_DEADLINE_MS's 20 s) is cut (server/shutdown.ts).
   */
  close(drainMs?: number, deadlineMs?: number): Promise<void>;
}

const DEFAULT_SETTINGS: ServiceSettings = {
  countEstimateThreshold: 10_000,
  maxResponseItems: DEFAULT_MAX_RESPONSE_ITEMS,
  jsonLimitBytes: 10 * 1024 * 1024,
  importLimitBytes: IMPORT_LIMIT_BYTES,
  idpAllowPrivate: false,
  statementTimeoutMs: STATEMENT_TIMEOUT_MS,
  exportStatementTimeoutMs: EXPORT_STATEMENT_TIMEOUT_MS,
  responseIdleTimeoutMs: RESPONSE_IDLE_TIMEOUT_MS,
};
const CONTROL_CONNECT_TIMEOUT_MS = 10_000;
const DEFAULT_SHUTDOWN_DEADLINE_MS = 20_000;

async function adminTokenHash(store: ControlStore, given: string | undefined): Promise<{ hash: string; token?: string }> {
  if (given) return { hash: hashSecret(given), token: given };
  const stored = await store.getSetting<string>('adminTokenHash');
  if (stored) return { hash: stored };
  const token = `wda_${randomToken(24)}`;
  await store.setSetting('adminTokenHash', hashSecret(token));
  return { hash: hashSecret(token), token };
}

/**
 * Starts the service. The HTTP server listens first (`options.early`, or bound here) and answers
 * as starting (server/early-server.ts) until everything below is ready; then the app takes over.
 * A failure closes the server again and rejects.
 */
export async function startService(options: StartOptions = {}): Promise<RunningService> {
  const logger = options.logger ?? pino({ level: process.env.LOG_LEVEL ?? 'info' });
  const limits = { ...DEFAULT_HTTP_LIMITS, ...options.http };
  const early = options.early ?? (await listenEarly({ port: options.port ?? 0, host: options.host ?? '127.0.0.1', limits, logger }));
  try {
    return await startBehind(early, options, logger);
  } catch (error) {
    await early.close();
    throw error;
  }
}

async function startBehind(early: EarlyServer, options: StartOptions, logger: Logger): Promise<RunningService> {
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  const secrets = secretBoxFor(options);
  const embedded = new EmbeddedDatabase(options.dataDir ? join(options.dataDir, 'pglite') : undefined, embeddedThreadOf(options));
  const controlDriver: Driver = options.controlDatabaseUrl ? createPgDriver({ vendor: 'postgres', url: options.controlDatabaseUrl }) : createEmbeddedDriver(embedded);
  try {
    await reachControlStore(controlDriver, options.controlDatabaseUrl, options.controlConnectTimeoutMs ?? CONTROL_CONNECT_TIMEOUT_MS);
  } catch (error) {
    void controlDriver.close().catch(() => undefined);
    throw error;
  }
  const store = ControlStore.open(controlDriver, secrets);
  await store.migrate();
  await sealSecrets(store, secrets, logger, async () => {
    await controlDriver.close();
    await embedded.close();
  });
  const controlUrl = options.controlDatabaseUrl;
  // Import jobs name this process as their owner; the lease tells whether another owner is alive.
  const importLease = controlUrl ? await advisoryLease((onLost) => openPgSession(controlUrl, onLost), store.executor) : singleProcessLease();
  const dialects = createDialectRegistry(embedded, options.dialects ?? []);
  const metrics = createServiceMetrics();
  const settings: ServiceSettings = { ...DEFAULT_SETTINGS, ...options.settings };
  const workspaces = new WorkspaceCache(store, dialects, cacheObserver(metrics), settings);
  const changes = controlUrl ? await listenForChanges(controlUrl, workspaces, logger) : undefined;
  changes?.subscribe(() => metrics.changeNotices.inc());
  // The embedded store is changed only through this instance; a shared one also through others.
  const apiKeys = new ApiKeyCache(store, controlUrl ? 'heard' : 'local');
  changes?.follow(apiKeys);
  const rateLimiter = await limiterFor(options.rateLimit, metrics, logger);
  await rateLimiter?.ready();
  const admin = await adminTokenHash(store, options.adminToken);
  const url = early.url;
  const issuer: InternalIssuer = { issuer: () => options.publicUrl ?? url, key: await loadSigningKey(store) };
  const identityProviderOf = async (workspaceId: string) => (await workspaces.byId(workspaceId)).identityProvider;
  const lifecycle: Lifecycle = { draining: false };
  const services: Services = {
    store,
    workspaces,
    dialects,
    issuer,
    apiKeys,
    authPlugins: [adminTokenPlugin(admin.hash), apiKeyPlugin(apiKeys), internalOAuthPlugin(issuer, apiKeys), externalJwtPlugin(identityProviderOf, new KeySetCache(settings.idpAllowPrivate))],
    logger,
    settings,
    cursorSecret: await store.cursorSecret(),
    importLease,
    lifecycle,
    importObserver: importObserver(metrics),
    ...(rateLimiter ? { rateLimiter } : {}),
    ...(options.concurrentPerCredential ? { concurrentRequests: new ConcurrentRequests(options.concurrentPerCredential) } : {}),
  };
  const demo = options.demo ? await seedDemo(services, embedded, options.dataDir, admin.token) : undefined;
  const credentialsFile = keepAdminToken(options.dataDir, admin.token, options.adminToken, demo);
  early.serve(createApp(services, { corsOrigins: options.corsOrigins ?? [], metrics, ...(options.metricsToken ? { metricsToken: options.metricsToken } : {}), ...(options.trustProxy === undefined ? {} : { trustProxy: options.trustProxy }), ...(options.adminApp === undefined ? {} : { adminApp: options.adminApp }) }).callback());
  const { server, port } = early;
  logger.info({ url, pid: process.pid, demo: demo !== undefined, controlStore: options.controlDatabaseUrl ? 'postgres' : 'embedded', ...early.startFigures() }, 'service started');
  const release = async (): Promise<void> => {
    await changes?.close();
    await rateLimiter?.close();
    await workspaces.close();
    await importLease.close();
    await controlDriver.close();
    await embedded.close();
  };
  const trustProxy = options.trustProxy ?? process.env.TRUST_PROXY === 'true';
  for (const { setting, message } of settingWarnings({ trustProxy, metricsToken: options.metricsToken !== undefined, demoKeyPrinted: demo !== undefined })) logger.warn({ setting }, message);
  let closing: Promise<void> | undefined;
  const close = (drainMs = 0, deadlineMs = DEFAULT_SHUTDOWN_DEADLINE_MS): Promise<void> => {
    closing ??= shutDown({ server, lifecycle, logger, release }, drainMs, deadlineMs).then(() => logger.info({ url }, 'service stopped'));
    return closing;
  };
  return { url, port, services, embedded, adminToken: admin.token, demo, credentialsFile, changes, metrics, close };
}

/**
 * A token this start generated is kept in the data folder (the demo's credentials file, or a file
 * of its own without the demo), so the banner can point there instead of printing it. A token the
 * operator supplied is never written anywhere.
 */
function keepAdminToken(dataDir: string | undefined, token: string | undefined, given: string | undefined, demo: DemoCredentials | undefined): string | undefined {
  if (!dataDir || given) return undefined;
  return saveAdminToken(dataDir, token, demo);
}

/** Seals what is clear or under the previous key; a key that opens nothing is one start line, not a stack. */
async function sealSecrets(store: ControlStore, secrets: SecretBox, logger: Logger, closeStore: () => Promise<void>): Promise<void> {
  try {
    const { resealed } = await sealStoredSecrets(store, secrets);
    if (resealed > 0) logger.info({ resealed, keyId: secrets.keyId }, 'control store secrets sealed with the current key');
  } catch (error) {
    await closeStore().catch(() => undefined);
    if (error instanceof SecretsKeyError) throw new StartupError(error.message);
    throw error;
  }
}

/** In process only when asked for: opening PGlite there holds the event loop for up to half a second. */
function embeddedThreadOf(options: StartOptions): EmbeddedThread {
  return options.embeddedThread ?? (process.env.WDAPI_EMBEDDED_THREAD === 'in-process' ? 'in-process' : 'worker');
}

/** The limiter and its libraries (rate-limiter-flexible, ioredis) load only when a limit is set. */
async function limiterFor(options: RateLimitOptions | undefined, metrics: ServiceMetrics, logger: Logger): Promise<RequestLimiter | undefined> {
  if (!options) return undefined;
  const { createRequestLimiter, observedLimiter } = await import('../plugins/rate-limit/limiter.ts');
  return observedLimiter(await createRequestLimiter(options, logger), () => metrics.rateLimitRefusals.inc());
}
