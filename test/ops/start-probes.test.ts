/**
 * `npm start` listens before the embedded database is open. While it starts,
 * /healthz says alive, /readyz says not ready and any other route says STARTING with Retry-After;
 * after the banner the service answers everything. A real child process on a fresh data folder.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/free-port.ts';
import { spawnEmbeddedStart } from './child.ts';

interface Answer {
  readonly status: number;
  readonly body: unknown;
  readonly retryAfter: string | null;
}

/** null: nothing listens yet. */
async function get(port: number, path: string): Promise<Answer | null> {
  try {
    const res = await fetch(`http://127.0.0.1:${port}${path}`);
    return { status: res.status, body: await res.json(), retryAfter: res.headers.get('retry-after') };
  } catch {
    return null;
  }
}

interface Probes {
  health: Answer | null;
  ready: Answer | null;
  other: Answer | null;
}

/** What the three probes answered while the child had not printed its banner yet. */
interface StartWatch {
  readonly child: ChildProcess;
  readonly beforeBanner: Probes[];
  readonly output: string;
}

async function watchStart(dataDir: string, port: number): Promise<StartWatch> {
  const { child, output } = spawnEmbeddedStart(dataDir, port);
  const beforeBanner: Probes[] = [];
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`exited early: ${output()}`);
    const probes = { health: await get(port, '/healthz'), ready: await get(port, '/readyz'), other: await get(port, '/api/admin/v1/orgs') };
    // The banner is printed once the service serves everything: probes that raced it are left out.
    if (output().includes('demo API key')) return { child, beforeBanner, output: output() };
    beforeBanner.push(probes);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`no banner within 120 s: ${output()}`);
}

/** A port taken between probe and bind is tried again on another (see start.test.ts). */
async function start(dataDir: string): Promise<{ watch: StartWatch; port: number }> {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    try {
      return { watch: await watchStart(dataDir, port), port };
    } catch (error) {
      if (attempt >= 5 || !String(error).includes('is already in use')) throw error;
    }
  }
}

function stop(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    child.once('exit', (code) => resolve(code));
    child.kill('SIGTERM');
  });
}

describe('npm start on a fresh data folder', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'wdapi-start-probes-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('answers /healthz 200 and /readyz 503 before the banner, STARTING on other routes, then everything', async () => {
    const { watch, port } = await start(dataDir);
    try {
      const answered = watch.beforeBanner.filter((p) => p.health !== null);
      expect(answered.length).toBeGreaterThan(0);
      const starting = answered[0] as Probes;
      expect(starting.health).toEqual({ status: 200, body: { status: 'ok' }, retryAfter: null });
      expect(starting.ready?.status).toBe(503);
      expect(starting.ready?.body).toEqual({ status: 'starting' });
      expect(starting.other?.status).toBe(503);
      expect(starting.other?.body).toMatchObject({ error: { code: 'STARTING' }, retryAfterSeconds: 2 });
      expect(starting.other?.retryAfter).toBe('2');

      expect(await get(port, '/healthz')).toMatchObject({ status: 200 });
      expect(await get(port, '/readyz')).toMatchObject({ status: 200, body: { status: 'ready' } });
      expect(await get(port, '/api/admin/v1/orgs')).toMatchObject({ status: 401, body: { error: { code: 'UNAUTHORIZED' } } });
    } finally {
      expect(await stop(watch.child)).toBe(0);
    }
  }, 240_000);
});
