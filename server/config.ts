/**
 * The environment, read once and checked whole before anything starts: either
 * typed settings or every problem, one plain line each, naming the variable. Values of secrets
 * are never repeated in a problem.
 */
// The files themselves, not their barrels: main.ts reads the environment before loading the service.
import { IMPORT_LIMIT_BYTES } from '../core/import/csv-source.ts';
import { parseSecretsKey } from '../core/secret-box.ts';
import { DEFAULT_MAX_RESPONSE_ITEMS } from '../core/query/response-bound.ts';
import { DEFAULT_KEY_PREFIX, type RateLimitOptions } from '../plugins/rate-limit/options.ts';
import { DEFAULT_HTTP_LIMITS, type HttpLimits } from './http-server.ts';
import { EXPORT_STATEMENT_TIMEOUT_MS, RESPONSE_IDLE_TIMEOUT_MS, STATEMENT_TIMEOUT_MS } from './shared/statement-limits.ts';
import { dataDirProblem } from './startup-checks.ts';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/**
 * `wda_` and at least 24 more characters. The admin token opens every organization and is kept as
 * an unsalted SHA-256 (docs/auth-and-rls.md: no slow hash, because generated tokens carry 192 bits);
 * a short one could be guessed online or from a copy of the store. 24 characters of base64 or hex
 * are 96 to 144 bits. The prefix is how the service recognises an admin token at all.
 */
export const ADMIN_TOKEN_PATTERN = /^wda_[\x21-\x7e]{24,}$/;

export interface Config {
  readonly port: number;
  readonly host: string;
  readonly logLevel: LogLevel;
  readonly dataDir: string;
  readonly controlDatabaseUrl: string | undefined;
  readonly adminToken: string | undefined;
  readonly publicUrl: string | undefined;
  readonly countEstimateThreshold: number;
  /** MAX_RESPONSE_ITEMS: most rows and array items one page (or one exported row) may hold. */
  readonly maxResponseItems: number;
  readonly importLimitBytes: number;
  /** Seed the demo: the embedded default (no CONTROL_DATABASE_URL) unless DEMO says otherwise. */
  readonly demo: boolean;
  readonly corsOrigins: readonly string[];
  readonly trustProxy: boolean;
  readonly http: HttpLimits;
  /** How long the control database may take to answer at start. */
  readonly controlConnectTimeoutMs: number;
  /** SIGTERM: how long /readyz answers 503 while requests are still served. */
  readonly drainMs: number;
  /** SHUTDOWN_DEADLINE_MS: after the drain, how long open responses may take before they are cut. */
  readonly shutdownDeadlineMs: number;
  /** CONCURRENT_PER_CREDENTIAL: data requests one credential may run at a time on this instance. */
  readonly concurrentPerCredential: number;
  /** RATE_LIMIT_PER_MINUTE, REDIS_URL, REDIS_KEY_PREFIX; undefined: no limit (the default). */
  readonly rateLimit: RateLimitOptions | undefined;
  /** METRICS_TOKEN: GET /metrics asks for it as a bearer token; undefined: /metrics is open. */
  readonly metricsToken: string | undefined;
  /** ADMIN_APP=on|off: serve the admin application at /admin/ (on by default). */
  readonly adminApp: boolean;
  /** IDP_ALLOW_PRIVATE=true: identity-provider URLs may point at private addresses (a self-hosted network). */
  readonly idpAllowPrivate: boolean;
  /** SECRETS_KEY: seals the control store's secrets; required with CONTROL_DATABASE_URL (server/secrets-key.ts). */
  readonly secretsKey: string | undefined;
  /** SECRETS_KEY_PREVIOUS: the key a rotation moves away from. */
  readonly secretsKeyPrevious: string | undefined;
  /** STATEMENT_TIMEOUT_MS, EXPORT_STATEMENT_TIMEOUT_MS, RESPONSE_IDLE_TIMEOUT_MS (DESIGN §11). */
  readonly statementLimits: { readonly statementTimeoutMs: number; readonly exportStatementTimeoutMs: number; readonly responseIdleTimeoutMs: number };
}

export type ConfigResult = { readonly ok: true; readonly config: Config } | { readonly ok: false; readonly problems: readonly string[] };

type Env = Readonly<Record<string, string | undefined>>;

/** Reads one variable after another and collects what is wrong instead of stopping at the first. */
class EnvReader {
  readonly problems: string[] = [];
  constructor(private readonly env: Env) {}

  raw(name: string): string | undefined {
    const value = this.env[name];
    return value === undefined || value.trim() === '' ? undefined : value.trim();
  }

  problem(name: string, text: string): undefined {
    this.problems.push(`${name}: ${text}`);
    return undefined;
  }

  integer(name: string, fallback: number, min: number, max: number): number {
    const value = this.raw(name);
    if (value === undefined) return fallback;
    const parsed = /^-?\d+$/.test(value) ? Number(value) : NaN;
    if (Number.isSafeInteger(parsed) && parsed >= min && parsed <= max) return parsed;
    return this.problem(name, `must be an integer from ${min} to ${max}, got "${value}"`) ?? fallback;
  }

  seconds(name: string, fallbackMs: number, maxSeconds: number): number {
    return this.integer(name, fallbackMs / 1000, 1, maxSeconds) * 1000;
  }

  oneOf<T extends string>(name: string, allowed: readonly T[], fallback: T): T {
    const value = this.raw(name);
    if (value === undefined) return fallback;
    if ((allowed as readonly string[]).includes(value)) return value as T;
    return this.problem(name, `must be one of ${allowed.join(', ')}, got "${value}"`) ?? fallback;
  }

  url(name: string, protocols: readonly string[], what: string): string | undefined {
    const value = this.raw(name);
    if (value === undefined) return undefined;
    let parsed: URL | undefined;
    try {
      parsed = new URL(value);
    } catch {
      parsed = undefined;
    }
    if (parsed && protocols.includes(parsed.protocol) && parsed.hostname !== '') return value;
    return this.problem(name, `must be ${what}`);
  }
}

function corsOrigins(reader: EnvReader): string[] {
  const value = reader.raw('CORS_ORIGINS');
  if (value === undefined) return [];
  const origins = value.split(',').map((o) => o.trim()).filter((o) => o !== '');
  const bad = origins.filter((origin) => {
    try {
      return new URL(origin).origin !== origin;
    } catch {
      return true;
    }
  });
  if (bad.length > 0) reader.problem('CORS_ORIGINS', `each origin must be scheme://host[:port] without a path, got ${bad.map((b) => `"${b}"`).join(', ')}`);
  return origins;
}

function adminToken(reader: EnvReader): string | undefined {
  const value = reader.raw('ADMIN_TOKEN');
  if (value === undefined || ADMIN_TOKEN_PATTERN.test(value)) return value;
  return reader.problem('ADMIN_TOKEN', 'must be "wda_" followed by at least 24 printable characters without spaces (e.g. wda_$(openssl rand -hex 24))');
}

function httpLimits(reader: EnvReader): HttpLimits {
  return {
    headersTimeoutMs: reader.seconds('HEADERS_TIMEOUT_SECONDS', DEFAULT_HTTP_LIMITS.headersTimeoutMs, 300),
    requestTimeoutMs: reader.seconds('REQUEST_TIMEOUT_SECONDS', DEFAULT_HTTP_LIMITS.requestTimeoutMs, 3600),
    bodyIdleTimeoutMs: reader.seconds('BODY_IDLE_TIMEOUT_SECONDS', DEFAULT_HTTP_LIMITS.bodyIdleTimeoutMs, 3600),
    keepAliveTimeoutMs: reader.seconds('KEEP_ALIVE_TIMEOUT_SECONDS', DEFAULT_HTTP_LIMITS.keepAliveTimeoutMs, 600),
    maxHeaderBytes: reader.integer('MAX_HEADER_BYTES', DEFAULT_HTTP_LIMITS.maxHeaderBytes, 16 * 1024, 1024 * 1024),
    maxHeaderCount: DEFAULT_HTTP_LIMITS.maxHeaderCount,
  };
}

/** A Redis key prefix: printable, no spaces, short (it precedes every key). */
const KEY_PREFIX_PATTERN = /^[\x21-\x7e]{1,64}$/;

function rateLimit(reader: EnvReader): RateLimitOptions | undefined {
  const redisUrl = reader.url('REDIS_URL', ['redis:', 'rediss:'], 'a redis:// or rediss:// URL');
  const keyPrefix = reader.raw('REDIS_KEY_PREFIX') ?? DEFAULT_KEY_PREFIX;
  if (!KEY_PREFIX_PATTERN.test(keyPrefix)) reader.problem('REDIS_KEY_PREFIX', `must be 1 to 64 printable characters without spaces, got "${keyPrefix}"`);
  if (reader.raw('RATE_LIMIT_PER_MINUTE') === undefined) return undefined;
  const perMinute = reader.integer('RATE_LIMIT_PER_MINUTE', 0, 1, 1_000_000);
  return { perMinute, keyPrefix, ...(redisUrl ? { redisUrl } : {}) };
}

const SECRETS_KEY_FORMAT = 'must be 32 bytes as 64 hex characters or base64 (e.g. $(openssl rand -hex 32))';

function secretsKey(reader: EnvReader, name: string): string | undefined {
  const value = reader.raw(name);
  if (value === undefined || parseSecretsKey(value)) return value;
  return reader.problem(name, SECRETS_KEY_FORMAT);
}

/**
 * Every instance on a shared control store must seal with the same key, so it comes from the
 * environment; a key generated by one instance would lock the others out of the secrets.
 */
function requireSharedKey(reader: EnvReader, config: Config): void {
  if (config.controlDatabaseUrl === undefined || reader.raw('SECRETS_KEY') !== undefined) return;
  reader.problem('SECRETS_KEY', 'is required with CONTROL_DATABASE_URL (the same key on every instance; e.g. $(openssl rand -hex 32))');
}

function metricsToken(reader: EnvReader): string | undefined {
  const value = reader.raw('METRICS_TOKEN');
  if (value === undefined || /^[\x21-\x7e]{16,}$/.test(value)) return value;
  return reader.problem('METRICS_TOKEN', 'must be at least 16 printable characters without spaces (e.g. $(openssl rand -hex 24))');
}

/** The statement limits; an export's may not be shorter than a plain statement's. */
function statementLimits(reader: EnvReader): Config['statementLimits'] {
  const statementTimeoutMs = reader.integer('STATEMENT_TIMEOUT_MS', STATEMENT_TIMEOUT_MS, 100, 3_600_000);
  const exportStatementTimeoutMs = reader.integer('EXPORT_STATEMENT_TIMEOUT_MS', Math.max(EXPORT_STATEMENT_TIMEOUT_MS, statementTimeoutMs), 100, 86_400_000);
  if (exportStatementTimeoutMs < statementTimeoutMs) reader.problem('EXPORT_STATEMENT_TIMEOUT_MS', `must be at least STATEMENT_TIMEOUT_MS (${statementTimeoutMs}), got "${exportStatementTimeoutMs}"`);
  const responseIdleTimeoutMs = reader.integer('RESPONSE_IDLE_TIMEOUT_MS', RESPONSE_IDLE_TIMEOUT_MS, 100, 3_600_000);
  return { statementTimeoutMs, exportStatementTimeoutMs, responseIdleTimeoutMs };
}

/** `writableDir` checks DATA_DIR (creating it); tests may replace it. */
export function readConfig(env: Env, writableDir: (dir: string) => string | undefined = dataDirProblem): ConfigResult {
  const reader = new EnvReader(env);
  const controlDatabaseUrl = reader.url('CONTROL_DATABASE_URL', ['postgres:', 'postgresql:'], 'a postgres:// or postgresql:// URL');
  const demo = reader.oneOf('DEMO', ['0', '1'], env.CONTROL_DATABASE_URL ? '0' : '1') === '1';
  const config: Config = {
    port: reader.integer('PORT', 8080, 0, 65535),
    host: reader.raw('HOST') ?? '127.0.0.1',
    logLevel: reader.oneOf('LOG_LEVEL', LOG_LEVELS, 'info'),
    dataDir: reader.raw('DATA_DIR') ?? './.data',
    controlDatabaseUrl,
    adminToken: adminToken(reader),
    publicUrl: reader.url('PUBLIC_URL', ['http:', 'https:'], 'an absolute http:// or https:// URL (the issuer of internal tokens)'),
    countEstimateThreshold: reader.integer('COUNT_ESTIMATE_THRESHOLD', 10_000, 0, Number.MAX_SAFE_INTEGER),
    maxResponseItems: reader.integer('MAX_RESPONSE_ITEMS', DEFAULT_MAX_RESPONSE_ITEMS, 1000, Number.MAX_SAFE_INTEGER),
    importLimitBytes: reader.integer('IMPORT_LIMIT_BYTES', IMPORT_LIMIT_BYTES, 1, IMPORT_LIMIT_BYTES),
    demo,
    corsOrigins: corsOrigins(reader),
    trustProxy: reader.oneOf('TRUST_PROXY', ['true', 'false'], 'false') === 'true',
    http: httpLimits(reader),
    controlConnectTimeoutMs: reader.seconds('CONTROL_CONNECT_TIMEOUT_SECONDS', 10_000, 300),
    drainMs: reader.integer('SHUTDOWN_DRAIN_SECONDS', 5, 0, 300) * 1000,
    shutdownDeadlineMs: reader.integer('SHUTDOWN_DEADLINE_MS', 20_000, 0, 3_600_000),
    concurrentPerCredential: reader.integer('CONCURRENT_PER_CREDENTIAL', 4, 1, 10_000),
    rateLimit: rateLimit(reader),
    metricsToken: metricsToken(reader),
    adminApp: reader.oneOf('ADMIN_APP', ['on', 'off'], 'on') === 'on',
    idpAllowPrivate: reader.oneOf('IDP_ALLOW_PRIVATE', ['true', 'false'], 'false') === 'true',
    secretsKey: secretsKey(reader, 'SECRETS_KEY'),
    secretsKeyPrevious: secretsKey(reader, 'SECRETS_KEY_PREVIOUS'),
    statementLimits: statementLimits(reader),
  };
  requireSharedKey(reader, config);
  const dirProblem = writableDir(config.dataDir);
  if (dirProblem) reader.problems.push(dirProblem);
  return reader.problems.length > 0 ? { ok: false, problems: reader.problems } : { ok: true, config };
}
