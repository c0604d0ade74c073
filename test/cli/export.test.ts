/** `wdapi export`: writes the export to a file and prints a progress line with rows and rows/s. */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, startWorkspace, type TestWorkspace } from '../support/harness.ts';
import { pgliteTarget } from '../support/vendors.ts';
import { exportProgressLine } from '../../cli/export.ts';

const run = promisify(execFile);
const BIN = new URL('../../bin/wdapi.mjs', import.meta.url).pathname;

describe('wdapi export', () => {
  let ws: TestWorkspace;
  const dir = mkdtempSync(join(tmpdir(), 'wdapi-export-'));

  beforeAll(async () => {
    ws = await startWorkspace(pgliteTarget);
  });
  afterAll(async () => ws?.close());

  it('exports an entity as CSV into --out, with the same bytes as the API, and reports rows', async () => {
    const out = join(dir, 'regions.csv');
    const result = await run(process.execPath, [BIN, 'export', 'regions', '--org', ws.org, '--ws', ws.ws, '--out', out, '--query', 'sort=id', '--url', ws.url, '--token', ws.apiKey]);
    expect(readFileSync(out, 'utf8')).toBe('id,name\r\n1,North\r\n2,South\r\n3,Ωmega 東京\r\n');
    expect(result.stderr).toMatch(/exported rows 3 {2}\d+ rows\/s/);
    expect(result.stdout.trim()).toBe(out);
  });

  it('exports view data as NDJSON (format from the extension)', async () => {
    const views = await ws.call('GET', ws.admin('/views'), { token: ADMIN_TOKEN });
    const slug = views.body.data.find((v: { entity: string; isDefault: boolean }) => v.entity === 'orders' && v.isDefault).slug;
    const out = join(dir, 'orders.ndjson');
    const result = await run(process.execPath, [BIN, 'export', slug, '--out', out, '--query', 'filter[status.eq]=paid', '--url', ws.url], { env: { ...process.env, WDAPI_TOKEN: ws.apiKey } });
    const lines = readFileSync(out, 'utf8').split('\n').filter((l) => l !== '');
    expect(lines.length).toBe(15);
    expect(result.stderr).toContain('exported rows 15');
  });

  it('a refused export exits non-zero and writes no file', async () => {
    const out = join(dir, 'bad.csv');
    const failed = await run(process.execPath, [BIN, 'export', 'customers', '--org', ws.org, '--ws', ws.ws, '--out', out, '--query', 'expand=orders', '--url', ws.url, '--token', ws.apiKey]).catch((e: { code: number; stderr: string }) => e);
    expect((failed as { code?: number }).code).toBe(1);
    expect((failed as { stderr: string }).stderr).toContain('400 BAD_REQUEST');
    expect(existsSync(out) || existsSync(`${out}.part`)).toBe(false);
  });

  it('the progress line gives rows and rows/s', () => {
    expect(exportProgressLine(5000, 2, false)).toBe('exporting rows 5000  2500 rows/s');
  });
});
