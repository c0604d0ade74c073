/**
 * Checks that need the outside world before the service starts: a data folder it can write and a
 * control database it can reach. Failures are StartupErrors: one plain line for the operator
 * (server/main.ts prints it), never a stack trace, never a password.
 */
import { accessSync, constants, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Driver } from '../dialects/dialect.ts';

export class StartupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StartupError';
  }
}

/**
 * Creates the folder and its missing parents one level at a time. Node's `recursive: true` never
 * returns for a path under /proc (it retries the parent's ENOENT forever, Node 20); one level at a
 * time the first refusal is thrown.
 */
function makeFolders(dir: string): void {
  const absolute = resolve(dir);
  if (existsSync(absolute)) return;
  const parent = dirname(absolute);
  if (parent !== absolute) makeFolders(parent);
  mkdirSync(absolute);
}

/** Creates the folder if needed and writes a probe file; returns the problem, if any. */
export function dataDirProblem(dir: string): string | undefined {
  try {
    makeFolders(dir);
    accessSync(dir, constants.W_OK);
    const probe = join(dir, `.write-probe-${process.pid}`);
    writeFileSync(probe, '');
    rmSync(probe);
    return undefined;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    return `DATA_DIR: cannot write to '${dir}' (${code})`;
  }
}

/** The part of a database URL that may be printed: host, port and database, no credentials. */
export function describeDatabaseUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname}:${parsed.port || '5432'}${parsed.pathname}`;
  } catch {
    return '(unparsable URL)';
  }
}

const REASONS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host name lookup failed',
  ETIMEDOUT: 'timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  '28P01': 'password authentication failed',
  '28000': 'authentication refused',
  '3D000': 'the database does not exist',
};

function reasonOf(error: unknown): string {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code === 'string') return REASONS[code] ?? code;
  // pg reports a connection the far side dropped (a proxy, a firewall) without a code.
  if (typeof message === 'string' && /terminated|closed/i.test(message)) return 'the connection was closed before the server answered';
  return 'no answer';
}

/**
 * The first query of the start, bounded in time when the control store is a server: an unroutable
 * host would otherwise hang. The embedded database (no `url`) has no host; opening it is CPU work
 * that a loaded machine does slowly, so it is awaited without a bound.
 */
export async function reachControlStore(driver: Driver, url: string | undefined, timeoutMs: number): Promise<void> {
  if (url === undefined) {
    await driver.ping();
    return;
  }
  const where = describeDatabaseUrl(url);
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error('timeout'), { code: `no answer within ${timeoutMs / 1000} s` })), timeoutMs);
  });
  try {
    await Promise.race([driver.ping(), deadline]);
  } catch (error) {
    throw new StartupError(`CONTROL_DATABASE_URL: cannot reach the control database at ${where} (${reasonOf(error)})`);
  } finally {
    clearTimeout(timer);
  }
}
