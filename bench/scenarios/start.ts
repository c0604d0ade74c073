/**
 * Start time: `node --import tsx server/main.ts` (what `npm start` runs, without
 * npm's own start-up) as a child process with the embedded control store and the demo, first on a
 * fresh data folder with tsx's transform cache off (as on a fresh clone), then again on the same
 * folder (a restart). GET /healthz is polled every 20 ms from the spawn on.
 *
 * Printed for each: the time to the first /healthz 200, the time to the banner (ready), the
 * slowest /healthz answer once one came (a blocked event loop shows there), and the service's own
 * figure: the longest event-loop delay it measured while listening before ready (its
 * 'service started' log line). Targets: first ≤ 10 s, restart ≤ 4 s, no block over 200 ms.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../test/support/free-port.ts';

export const TARGETS_START = { firstMs: 10_000, restartMs: 4_000, blockMs: 200 } as const;

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const POLL_MS = 20;
const GIVE_UP_MS = 180_000;

export interface StartRun {
  readonly label: string;
  readonly firstHealthzMs: number | null;
  readonly readyMs: number;
  /** The slowest /healthz answer between the first one and the banner. */
  readonly slowestHealthzMs: number;
  /** The service's own measure (monitorEventLoopDelay while listening, up to ready). */
  readonly eventLoopMaxDelayMs: number | null;
}

export interface StartResult {
  readonly first: StartRun;
  readonly restart: StartRun;
  readonly pass: boolean;
}

/** Milliseconds the /healthz answer took; null while nothing listens. */
async function healthz(port: number): Promise<number | null> {
  const started = performance.now();
  try {
    const res = await fetch(`http://127.0.0.1:${port}/healthz`);
    await res.arrayBuffer();
    return res.status === 200 ? performance.now() - started : null;
  } catch {
    return null;
  }
}

function startedLine(output: string): { eventLoopMaxDelayMs?: number } | undefined {
  for (const line of output.split('\n')) {
    if (!line.includes('"service started"')) continue;
    try {
      return JSON.parse(line) as { eventLoopMaxDelayMs?: number };
    } catch {
      return undefined;
    }
  }
  return undefined;
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

async function measureStart(label: string, dataDir: string, env: Record<string, string>): Promise<StartRun> {
  const port = await freePort();
  const spawned = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, ...env, DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'info', ADMIN_TOKEN: '', CONTROL_DATABASE_URL: '', DEMO: '', SHUTDOWN_DRAIN_SECONDS: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  let firstHealthzMs: number | null = null;
  let slowest = 0;
  try {
    while (!output.includes('demo API key')) {
      if (child.exitCode !== null) throw new Error(`${label}: the service exited (${child.exitCode}): ${output.slice(-2000)}`);
      if (performance.now() - spawned > GIVE_UP_MS) throw new Error(`${label}: not ready within ${GIVE_UP_MS / 1000} s`);
      const polled = performance.now();
      const took = await healthz(port);
      if (took !== null) {
        firstHealthzMs ??= performance.now() - spawned;
        slowest = Math.max(slowest, took);
      }
      const wait = POLL_MS - (performance.now() - polled);
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    }
    const readyMs = performance.now() - spawned;
    // The log line and the banner travel on the same pipe but may arrive in separate chunks.
    for (let waited = 0; !startedLine(output) && waited < 5_000; waited += POLL_MS) await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    return { label, firstHealthzMs, readyMs, slowestHealthzMs: slowest, eventLoopMaxDelayMs: startedLine(output)?.eventLoopMaxDelayMs ?? null };
  } finally {
    await stop(child);
  }
}

export async function runStart(log: (message: string) => void): Promise<StartResult> {
  const dataDir = mkdtempSync(join(tmpdir(), 'wdapi-bench-start-'));
  try {
    log('start: first start on a fresh data folder (tsx cache off)');
    const first = await measureStart('first start, fresh data folder', dataDir, { TSX_DISABLE_CACHE: '1' });
    log('start: restart on the same folder');
    const restart = await measureStart('restart, same data folder', dataDir, {});
    const blocks = [first, restart].map((r) => Math.max(r.eventLoopMaxDelayMs ?? Infinity, r.slowestHealthzMs));
    const pass = (first.firstHealthzMs ?? Infinity) <= TARGETS_START.firstMs && (restart.firstHealthzMs ?? Infinity) <= TARGETS_START.restartMs && blocks.every((b) => b <= TARGETS_START.blockMs);
    return { first, restart, pass };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const seconds = (ms: number | null): string => (ms === null ? 'never' : `${(ms / 1000).toFixed(1)} s`);

export function formatStart(result: StartResult): string {
  const row = (run: StartRun, target: number): string =>
    `  ${run.label.padEnd(32)} ${`${seconds(run.firstHealthzMs)} (<= ${target / 1000})`.padEnd(22)} ${seconds(run.readyMs).padEnd(10)} ${`${Math.round(run.slowestHealthzMs)} ms`.padEnd(16)} ${run.eventLoopMaxDelayMs === null ? '?' : `${run.eventLoopMaxDelayMs} ms`} (<= ${TARGETS_START.blockMs})`;
  return [
    'start (node --import tsx server/main.ts, embedded control store and demo)',
    `  ${''.padEnd(32)} ${'first /healthz 200'.padEnd(22)} ${'ready'.padEnd(10)} ${'slowest /healthz'.padEnd(16)} worst event-loop block (service)`,
    row(result.first, TARGETS_START.firstMs),
    row(result.restart, TARGETS_START.restartMs),
    `  verdict ${result.pass ? 'PASS' : 'FAIL'}`,
  ].join('\n');
}
