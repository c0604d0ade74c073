/**
 * The admin application's figures from a real browser (Debian's Chromium through playwright-core): the
 * JavaScript the first screen of the admin application transfers (sign-in, gzip as served), and
 * the time from navigation to the first grid rows of the 1M-row `orders` table. Figures only.
 */
import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { startBenchService } from '../harness/service.ts';
import { median } from '../harness/stats.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export interface AdminAppBenchResult {
  /** Bytes of JavaScript the sign-in screen transferred (compressed as sent) and decoded. */
  readonly firstScreenJs: { readonly transferredBytes: number; readonly decodedBytes: number; readonly files: number };
  /** Milliseconds from navigation to the first row of the orders grid, each run and the median. */
  readonly ordersFirstRowsMs: { readonly runs: readonly number[]; readonly median: number };
}

interface ResourceEntry {
  readonly name: string;
  readonly initiatorType: string;
  readonly transferSize: number;
  readonly decodedBodySize: number;
}

export async function benchAdminApp(databaseUrl: string, runs = 5): Promise<AdminAppBenchResult | null> {
  if (!existsSync(CHROMIUM)) {
    process.stderr.write(`[bench] admin app skipped: ${CHROMIUM} not found\n`);
    return null;
  }
  const service = await startBenchService(databaseUrl, 'wdapi_bench_control_admin');
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
  try {
    const [, , , org, ws] = service.records('').split('/');
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${service.url}/admin/`, { waitUntil: 'networkidle' });
    const entries = (await page.evaluate('JSON.stringify(performance.getEntriesByType("resource"))').then((text) => JSON.parse(String(text)))) as ResourceEntry[];
    const scripts = entries.filter((e) => e.name.endsWith('.js'));
    const firstScreenJs = {
      transferredBytes: scripts.reduce((sum, e) => sum + e.transferSize, 0),
      decodedBytes: scripts.reduce((sum, e) => sum + e.decodedBodySize, 0),
      files: scripts.length,
    };
    await page.getByLabel('Admin token or API key').fill(service.apiKey);
    await page.getByLabel('Organization of the API key').fill(org ?? '');
    await page.getByLabel('Workspace of the API key').fill(ws ?? '');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    const times: number[] = [];
    for (let run = 0; run < runs; run++) {
      await page.goto('about:blank');
      const started = performance.now();
      await page.goto(`${service.url}/admin/#/w/${org}/${ws}/data/orders`);
      await page.locator('table.grid tbody tr:first-child td:first-child').filter({ hasText: /\d/ }).waitFor({ timeout: 60_000 });
      times.push(Math.round(performance.now() - started));
    }
    return { firstScreenJs, ordersFirstRowsMs: { runs: times, median: median(times) } };
  } finally {
    await browser.close();
    await service.service.close();
  }
}

export function formatAdminApp(result: AdminAppBenchResult): string {
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
  return [
    'admin app, Chromium headless:',
    `  first screen JavaScript: ${kb(result.firstScreenJs.transferredBytes)} transferred (${kb(result.firstScreenJs.decodedBytes)} decoded, ${result.firstScreenJs.files} files; budget 400 KB gzip)`,
    `  navigation to the first orders rows (1M rows): median ${result.ordersFirstRowsMs.median} ms (runs ${result.ordersFirstRowsMs.runs.join(', ')} ms)`,
  ].join('\n');
}
