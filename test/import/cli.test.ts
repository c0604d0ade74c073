/** `wdapi import` (DESIGN §9): streams a file, draws progress on stderr, prints the summary and saves the rejections. */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorkspace, type TestWorkspace } from '../support/harness.ts';
import { pgliteTarget } from '../support/vendors.ts';
import { progressLine } from '../../cli/progress.ts';
import { count, viewUuidOf } from '../support/import-calls.ts';

const run = promisify(execFile);
const BIN = new URL('../../bin/wdapi.mjs', import.meta.url).pathname;

describe('wdapi import', () => {
  let ws: TestWorkspace;
  let regions: string;
  const dir = mkdtempSync(join(tmpdir(), 'wdapi-cli-'));

  beforeAll(async () => {
    ws = await startWorkspace(pgliteTarget);
    regions = await viewUuidOf(ws, 'regions');
  });
  afterAll(async () => ws?.close());

  it('imports a file, prints the summary and writes the rejected rows next to it', async () => {
    const file = join(dir, 'regions.csv');
    const long = 'x'.repeat(60);
    writeFileSync(file, `name\nCli One\nCli Two\n${long}\n`);
    const result = await run(process.execPath, [BIN, 'import', file, '--view', regions, '--url', ws.url], { env: { ...process.env, WDAPI_TOKEN: ws.apiKey } }).catch((e: { code: number; stdout: string; stderr: string }) => e);
    expect(result.stdout).toContain('imported 2 of 3 rows; 1 failed, 0 skipped');
    expect(result.stdout).toContain(join(dir, 'regions.rejections.csv'));
    expect(result.stderr).toContain('batches 1');
    // The job line stands on a line of its own, and the last bar line counts every processed row.
    expect(result.stderr.split('\n').some((line) => line.startsWith(`job `) && line.includes('mapping'))).toBe(true);
    const bars = result.stderr.split('\n').filter((line) => line.startsWith('['));
    expect(bars[bars.length - 1]).toMatch(/\] 100%  rows 3 of ~3 /);
    expect((result as { code?: number }).code).toBe(3);
    expect(readFileSync(join(dir, 'regions.rejections.csv'), 'utf8')).toBe(`name\r\n${long}\r\n`);
    expect(await count(ws, 'regions', "name LIKE 'Cli %'")).toBe(2);
  });

  it('reports a refused import and exits non-zero', async () => {
    const file = join(dir, 'bad.csv');
    writeFileSync(file, 'nothing,mapped\n1,2\n');
    const failed = await run(process.execPath, [BIN, 'import', file, '--view', regions, '--url', ws.url, '--token', ws.apiKey]).catch((e: { code: number; stderr: string }) => e);
    expect((failed as { code?: number }).code).toBe(1);
    expect((failed as { stderr: string }).stderr).toContain('400 BAD_REQUEST');
  });

  it('is runnable from the clone through npm run, reading files relative to the caller and the URL from WDAPI_URL', async () => {
    const file = join(dir, 'npm-run.csv');
    writeFileSync(file, 'name\nNpm Run One\n');
    const root = new URL('../..', import.meta.url).pathname;
    const result = await run('npm', ['run', '--silent', '--prefix', root, 'wdapi', '--', 'import', 'npm-run.csv', '--view', regions], {
      cwd: dir,
      env: { ...process.env, WDAPI_TOKEN: ws.apiKey, WDAPI_URL: ws.url },
    });
    expect(result.stdout).toContain('imported 1 of 1 rows');
    expect(await count(ws, 'regions', "name = 'Npm Run One'")).toBe(1);
  });
});

describe('the progress bar', () => {
  const state = { rows: 0, estimatedRows: 1000, batches: 0, errors: 0, seconds: 1, done: false };

  it('measures rows processed, not bytes sent', () => {
    expect(progressLine({ ...state, rows: 400, batches: 1 })).toMatch(/^\[#{12}-{18}\]  40%  rows 400 of ~1000/);
  });

  it('stays below 100 % until the import is done, whatever the estimate', () => {
    expect(progressLine({ ...state, rows: 1500 })).toContain(' 99%');
    expect(progressLine({ ...state, rows: 1000, done: true })).toContain('100%');
  });
});
