/** `wdapi import` (DESIGN §9): streams a file, draws progress on stderr, prints the summary and saves the rejections. */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorkspace, type TestWorkspace } from '../support/harness.ts';
import { pgliteTarget } from '../support/vendors.ts';
import { count, viewUuidOf } from './helpers.ts';

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
});
