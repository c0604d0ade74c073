/**
 * DESIGN §11: shutdown cuts what is still open after SHUTDOWN_DEADLINE_MS. A stalled upload (its
 * body idle timeout set far away) would otherwise keep `server.close()` waiting and the process
 * alive until a supervisor's SIGKILL. The service runs as `npm start` does, in a child process.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { listeningUrl, logLines, runMain, type Child } from './child.ts';
import { openRaw, sleep } from './raw-http.ts';

const TOKEN = 'wda_shutdown-test-token-0123456789';
/** A hang detector with generous slack: the deadline below is 1.5 s. */
const EXIT_BOUND_MS = 20_000;

describe('shutdown deadline', () => {
  const dir = mkdtempSync(join(tmpdir(), 'wdapi-shutdown-'));
  let child: Child | undefined;

  afterAll(() => {
    if (child?.process.exitCode === null) child.process.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('SIGTERM with a request stuck in flight exits once the deadline has passed, logging what it cut', async () => {
    child = runMain({ DATA_DIR: dir, DEMO: '1', ADMIN_TOKEN: TOKEN, LOG_LEVEL: 'info', SHUTDOWN_DRAIN_SECONDS: '0', SHUTDOWN_DEADLINE_MS: '1500', BODY_IDLE_TIMEOUT_SECONDS: '600' });
    const url = await listeningUrl(child);
    const key = /demo API key:\s+(\S+)/.exec(child.stdout())?.[1] ?? '';
    const views = (await (await fetch(`${url}/api/admin/v1/orgs/demo/workspaces/demo/views`, { headers: { authorization: `Bearer ${TOKEN}` } })).json()) as { data: { uuid: string; entity: string; isDefault: boolean }[] };
    const regions = views.data.find((v) => v.entity === 'regions' && v.isDefault);
    const raw = await openRaw(url);
    raw.write(`POST /api/data/import/${regions?.uuid} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Type: text/csv\r\nContent-Length: 100000\r\n\r\nname\n`);
    await sleep(500);

    const signalled = Date.now();
    child.process.kill('SIGTERM');
    const exited = await Promise.race([child.exited(), sleep(EXIT_BOUND_MS).then(() => 'still running' as const)]);
    expect(exited, child.stdout()).toBe(0);
    expect(Date.now() - signalled).toBeGreaterThanOrEqual(1500);
    await raw.closed();
    const cut = logLines(child.stdout()).find((line) => line.msg === 'shutdown deadline passed');
    expect(cut).toMatchObject({ deadlineMs: 1500 });
  }, 120_000);
});
