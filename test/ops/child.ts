/** `server/main.ts` in a child process, as an operator starts it, with an environment of the test's choosing. */
import { spawn, type ChildProcess } from 'node:child_process';

const ROOT = new URL('../..', import.meta.url).pathname;

/** Variables of the service that the test runner's own environment must not leak into a child. */
const SERVICE_VARIABLES = [
  'PORT', 'HOST', 'DATA_DIR', 'CONTROL_DATABASE_URL', 'ADMIN_TOKEN', 'PUBLIC_URL', 'LOG_LEVEL', 'DEMO',
  'COUNT_ESTIMATE_THRESHOLD', 'IMPORT_LIMIT_BYTES', 'CORS_ORIGINS', 'SHUTDOWN_DRAIN_SECONDS', 'SHUTDOWN_DEADLINE_MS', 'CONCURRENT_PER_CREDENTIAL', 'BODY_IDLE_TIMEOUT_SECONDS', 'TRUST_PROXY', 'CONTROL_CONNECT_TIMEOUT_SECONDS',
  'SECRETS_KEY', 'SECRETS_KEY_PREVIOUS', 'IDP_ALLOW_PRIVATE', 'METRICS_TOKEN',
  // vitest.config.ts keeps PGlite in the test process; a started service runs it as `npm start` does, in its worker.
  'WDAPI_EMBEDDED_THREAD',
];

export interface Child {
  readonly process: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code. */
  exited(): Promise<number | null>;
}

export function runMain(env: Record<string, string>): Child {
  const base: Record<string, string | undefined> = { ...process.env };
  for (const name of SERVICE_VARIABLES) delete base[name];
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: ROOT,
    // Any free port unless the test names one: the service binds it before it reaches its control
    // store, so children started side by side on the default 8080 would fail on the port instead.
    env: { ...base, PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { process: child, stdout: () => out, stderr: () => err, exited: () => exited };
}

/** Waits until the banner's first line and returns the base URL it names. */
export async function listeningUrl(child: Child, timeoutMs = 90_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const match = /listening on (http:\/\/\S+)/.exec(child.stdout());
    if (match?.[1]) return match[1];
    if (child.process.exitCode !== null) throw new Error(`exited early: ${child.stdout()}${child.stderr()}`);
    if (Date.now() > deadline) throw new Error(`no banner: ${child.stdout()}${child.stderr()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Lines of output that look like a stack trace. */
export function stackLines(text: string): string[] {
  return text.split('\n').filter((line) => /^\s+at\s/.test(line));
}

/** The JSON log lines (pino) of an output. */
export function logLines(text: string): Record<string, unknown>[] {
  return text
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/**
 * `npm start` as a user runs it on `dataDir`: the embedded control store and the demo, no admin
 * token or control database from the runner's environment; stdout and stderr in one text.
 */
export function spawnEmbeddedStart(dataDir: string, port: number): { child: ChildProcess; output: () => string } {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'warn', ADMIN_TOKEN: '', CONTROL_DATABASE_URL: '', DEMO: '', SHUTDOWN_DRAIN_SECONDS: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (out += chunk.toString()));
  return { child, output: () => out };
}
