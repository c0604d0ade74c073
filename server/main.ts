/**
 * `npm start`: reads and checks the environment (server/config.ts), starts the service, prints the
 * banner, and drains on SIGTERM. Whatever goes wrong at start is one plain line per problem on
 * stderr and a non-zero exit, never a stack trace.
 */
import pino from 'pino';
import { readConfig, type Config } from './config.ts';
import { listenEarly } from './early-server.ts';
import { DEFAULT_HTTP_LIMITS } from './http-server.ts';
import type { RunningService } from './start.ts';
import { StartupError } from './startup-checks.ts';

const EXIT_CONFIG = 78; // EX_CONFIG (sysexits.h): the operator's configuration is wrong

function fail(lines: readonly string[], code: number): never {
  process.stderr.write(`${lines.join('\n')}\n`);
  process.exit(code);
}

/** The admin token is printed only to a terminal, and only when this instance generated it. */
function adminTokenLine(config: Config, service: RunningService): string {
  if (config.adminToken) return '(set by ADMIN_TOKEN)';
  const token = service.adminToken ?? service.demo?.adminToken;
  if (token && process.stdout.isTTY) return token;
  if (service.credentialsFile) return `in ${service.credentialsFile}`;
  return '(generated at first start and shown then; set ADMIN_TOKEN to choose one)';
}

function banner(config: Config, service: RunningService): string {
  const lines = [`Workspace Data API listening on ${service.url}`, `  admin token:        ${adminTokenLine(config, service)}`];
  if (config.adminApp) lines.push(`  admin app:          ${service.url}/admin/ (sign in with the admin token or an API key)`);
  if (service.demo) {
    lines.push(
      `  demo API key:       ${service.demo.apiKey}`,
      `  try:                curl -H "Authorization: Bearer ${service.demo.apiKey}" "${service.url}/api/v1/demo/demo/orders?expand=customer&size=5"`,
    );
  }
  return `${lines.join('\n')}\n`;
}

const result = readConfig(process.env);
if (!result.ok) fail(result.problems, EXIT_CONFIG);
const { config } = result;
const logger = pino({ level: config.logLevel });

/**
 * The service's modules, a few large parts at a time: a module graph is evaluated in one
 * synchronous run, and the whole service's (Koa, pg, chevrotain and its grammar) holds the event
 * loop for about a second on a slow machine; between the parts /healthz is answered.
 */
async function loadInSteps(): Promise<typeof import('./start.ts')> {
  await import('../core/formula/chevrotain.ts');
  await import('../core/formula/parse.ts');
  await import('../dialects/postgres/index.ts');
  // The app's graph alone held the loop for 190–340 ms on a loaded 2-core machine: its largest
  // packages come first, one at a time.
  await import('koa');
  await import('jose');
  await import('./app.ts');
  await import('prom-client');
  return import('./start.ts');
}

let service: RunningService;
try {
  // Listen before loading the rest of the service: /healthz answers while modules load and the
  // embedded database opens (server/early-server.ts); /readyz says 503 until the banner.
  const early = await listenEarly({ port: config.port, host: config.host, limits: { ...DEFAULT_HTTP_LIMITS, ...config.http }, logger });
  const { startService } = await loadInSteps();
  service = await startService({
    early,
    dataDir: config.dataDir,
    ...(config.controlDatabaseUrl ? { controlDatabaseUrl: config.controlDatabaseUrl } : {}),
    ...(config.adminToken ? { adminToken: config.adminToken } : {}),
    ...(config.secretsKey ? { secretsKey: config.secretsKey } : {}),
    ...(config.secretsKeyPrevious ? { secretsKeyPrevious: config.secretsKeyPrevious } : {}),
    ...(config.publicUrl ? { publicUrl: config.publicUrl } : {}),
    settings: { countEstimateThreshold: config.countEstimateThreshold, maxResponseItems: config.maxResponseItems, importLimitBytes: config.importLimitBytes, idpAllowPrivate: config.idpAllowPrivate, ...config.statementLimits },
    port: config.port,
    host: config.host,
    logger,
    demo: config.demo,
    http: config.http,
    corsOrigins: config.corsOrigins,
    trustProxy: config.trustProxy,
    controlConnectTimeoutMs: config.controlConnectTimeoutMs,
    ...(config.rateLimit ? { rateLimit: config.rateLimit } : {}),
    ...(config.metricsToken ? { metricsToken: config.metricsToken } : {}),
    concurrentPerCredential: config.concurrentPerCredential,
    adminApp: config.adminApp,
    // Never this thread, whatever the environment: the loop must stay free while PGlite opens.
    embeddedThread: 'worker',
  });
} catch (error) {
  if (error instanceof StartupError) fail([error.message], 1);
  const code = (error as NodeJS.ErrnoException).code;
  // No stack: the operator gets the reason in one line; PORT in use is the usual one.
  fail([`start failed: ${code === 'EADDRINUSE' ? `${config.host}:${config.port} is already in use (PORT, HOST)` : error instanceof Error ? error.message : String(error)}`], 1);
}
process.stdout.write(banner(config, service));

let stopping = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'stop requested');
    service.close(signal === 'SIGTERM' ? config.drainMs : 0, config.shutdownDeadlineMs).then(() => process.exit(0), () => process.exit(1));
  });
}
