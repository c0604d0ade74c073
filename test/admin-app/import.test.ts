/**
 * Screen 6 of the admin application in a real browser: a CSV with bad rows imported
 * through the wizard. The auto-mapping is shown (an unknown column skipped), a mapping is saved
 * shared, progress reaches the end with counts matching the file, and the downloaded rejections
 * file holds exactly the bad rows; an import interrupted elsewhere (another credential, another
 * session) is listed with Resume and finished from the browser; CSV columns named outside Latin-1
 * are mapped (the mapping header goes percent-encoded). On every vendor that is reachable.
 */
import { mkdtemp, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, type TestWorkspace } from '../support/harness.ts';
import { mariadbTarget } from '../support/mysql-target.ts';
import { pgliteTarget, postgresTarget, vendorsToRun } from '../support/vendors.ts';
import { interruptedImport, viewUuidOf } from '../support/import-calls.ts';
import { browserAvailable, expectAccessible, screenshot, signedInForSuite } from './browser.ts';

const run = browserAvailable();
// Without Chromium the suite is listed as skipped (one placeholder vendor), not absent.
const vendors = run ? await vendorsToRun([pgliteTarget, postgresTarget, mariadbTarget]) : [pgliteTarget];
const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 20_000 });

const HEADER = 'name,email,vip,birthDate,favourite colour';
const GOOD = Array.from({ length: 7 }, (_, i) => `Importee ${i},importee${i}@example.com,${i % 2 === 0},1990-01-0${i + 1},blue`);
const BAD = ['No Date,nodate@example.com,false,not-a-date,red', 'Bad Vip,badvip@example.com,perhaps,1990-02-02,green'];
const CSV = [HEADER, GOOD[0], BAD[0], ...GOOD.slice(1, 5), BAD[1], ...GOOD.slice(5)].join('\n') + '\n';

describe.runIf(run).each(vendors)('admin application import wizard on $name', { timeout: 120_000 }, (target) => {
  let ws: TestWorkspace;
  let page: Page;
  signedInForSuite(target, (s) => ({ ws, page } = s), 'import');

  it('imports a CSV with bad rows: mapping shown, progress to the end, counts and the rejections file match', async () => {
    await page.goto(`${ws.url}/admin/#/w/${ws.org}/${ws.ws}/import/customers`);
    await page.getByLabel('CSV file (.csv, .tsv, .txt; up to 100 MB)').setInputFiles({ name: 'customers.csv', mimeType: 'text/csv', buffer: Buffer.from(CSV) });
    await poll(() => page.getByLabel('Target of CSV column email').inputValue()).toBe('email');
    expect(await page.getByLabel('Target of CSV column birthDate').inputValue()).toBe('birthDate');
    expect(await page.getByLabel('Target of CSV column favourite colour').inputValue()).toBe('');
    // Only importable columns are offered: not the generated id, not the service's timestamp.
    const offered = await page.getByLabel('Target of CSV column name').locator('option').allTextContents();
    expect(offered.some((o) => o.includes('(id)') || o.includes('(createdAt)'))).toBe(false);

    await page.getByLabel('Mapping name').fill('customers with dates');
    await page.getByLabel('Visibility').selectOption('SHARED');
    await page.getByRole('button', { name: 'Save mapping' }).click();
    await page.getByText('Mapping "customers with dates" saved (shared).').waitFor();
    await expectAccessible(page, 'import (mapping)');
    await screenshot(page, `${target.name}-20-import-mapping`);

    await page.getByRole('button', { name: 'Start import' }).click();
    const counts = page.locator('#import-counts');
    await poll(() => counts.textContent()).toBe(`Done: ${GOOD.length + BAD.length} rows, ${GOOD.length} imported, ${BAD.length} rejected, 0 skipped.`);
    expect(await page.locator('#import-progress').getAttribute('value')).toBe(String(GOOD.length + BAD.length));
    await expectAccessible(page, 'import (done)');
    await screenshot(page, `${target.name}-21-import-done`);

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download rejections CSV' }).click()]);
    const text = await readFile(await download.path(), 'utf8');
    expect(text.split(/\r?\n/).filter((line) => line !== '')).toEqual([HEADER, ...BAD]);

    const imported = await ws.call('GET', ws.records('/customers?filter[email.startsWith]=importee&size=100'), { token: ADMIN_TOKEN });
    expect(imported.body.data).toHaveLength(GOOD.length);
    const saved = await ws.call('GET', `/api/views/${(await ws.call('GET', ws.admin('/views'))).body.data.find((v: { entity: string; isDefault: boolean }) => v.entity === 'customers' && v.isDefault).uuid}/import-mappings`);
    expect(saved.body.data.map((m: { name: string; visibility: string }) => [m.name, m.visibility])).toEqual([['customers with dates', 'SHARED']]);
  });

  it('maps CSV columns named outside Latin-1 (名前, Größe €) and imports them', async () => {
    const csv = '名前,Größe €,Notiz\n山田 太郎,yamada@example.com,x\nJürgen Groß,juergen@example.com,y\n';
    await page.goto(`${ws.url}/admin/#/w/${ws.org}/${ws.ws}/import/customers`);
    await page.getByLabel('CSV file (.csv, .tsv, .txt; up to 100 MB)').setInputFiles({ name: 'kunden.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await page.getByLabel('Target of CSV column 名前').selectOption('name');
    await page.getByLabel('Target of CSV column Größe €').selectOption('email');
    expect(await page.getByLabel('Target of CSV column Notiz').inputValue()).toBe('');
    await expectAccessible(page, 'import (non-Latin-1 header)');
    await screenshot(page, `${target.name}-24-import-non-latin1-mapping`);
    await page.getByRole('button', { name: 'Start import' }).click();
    await poll(() => page.locator('#import-counts').textContent()).toBe('Done: 2 rows, 2 imported, 0 rejected, 0 skipped.');
    const stored = await ws.call('GET', ws.records('/customers?filter[email.in]=yamada@example.com,juergen@example.com&sort=email,desc'));
    expect(stored.body.data.map((c: { name: string }) => c.name)).toEqual(['山田 太郎', 'Jürgen Groß']);
  });

  it('lists an import interrupted in another session and resumes it with the same file', async () => {
    const rows = Array.from({ length: 520 }, (_, i) => `Resumed ${i},resumed${i}@example.com\n`);
    const file = `name,email\n${rows.join('')}`;
    // Started with the workspace's API key, outside this browser: only the job list can show it here.
    const jobId = await interruptedImport(ws, await viewUuidOf(ws, 'customers'), `name,email\n${rows.slice(0, 500).join('')}`, rows.slice(500, 510).join(''));
    await page.goto(`${ws.url}/admin/#/w/${ws.org}/${ws.ws}/import/orders`);
    const jobs = page.getByRole('region', { name: 'Interrupted imports' });
    const line = jobs.getByRole('listitem').filter({ hasText: jobId.slice(0, 8) });
    await poll(() => line.textContent()).toContain('INTERRUPTED');
    expect(await line.textContent()).toContain(`started by ${ws.apiKey.split('_')[1]}`);
    expect(await line.textContent()).toContain('500 rows read, 500 imported, 0 rejected');
    await expectAccessible(page, 'import (interrupted jobs)');
    await screenshot(page, `${target.name}-22-import-interrupted-jobs`);

    await line.getByLabel(`Resume job ${jobId.slice(0, 8)} with the same file`).setInputFiles({ name: 'customers.csv', mimeType: 'text/csv', buffer: Buffer.from(file) });
    await poll(() => page.locator('#import-counts').textContent()).toBe('Done: 520 rows, 520 imported, 0 rejected, 0 skipped.');
    await poll(() => jobs.count()).toBe(0);
    await screenshot(page, `${target.name}-23-import-resumed`);
    const resumed = await ws.call('GET', ws.records('/customers?filter[email.startsWith]=resumed&size=1&count=exact'));
    expect(resumed.body.meta.totalElements).toBe(520);
    expect((await ws.call('GET', `/api/imports/${jobId}`)).body.data.state).toBe('DONE');
  });

  // The browser's own check; the vendor plays no part, so one run is enough.
  it.runIf(target.name === 'pglite')('refuses a file over 100 MB before sending a byte', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'admin-import-'));
    const big = join(dir, 'big.csv');
    try {
      await writeFile(big, '');
      await truncate(big, 100 * 1024 * 1024 + 1); // sparse: no 100 MB written
      await page.goto(`${ws.url}/admin/#/w/${ws.org}/${ws.ws}/import/customers`);
      await page.getByLabel('CSV file (.csv, .tsv, .txt; up to 100 MB)').setInputFiles(big);
      await poll(() => page.getByRole('alert').first().textContent()).toContain('up to 100 MB');
      expect(await page.getByRole('button', { name: 'Start import' }).count()).toBe(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
