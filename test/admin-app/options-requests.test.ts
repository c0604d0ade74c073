/**
 * The entity-options screen asks only for what exists (DESIGN §15, screen 4): a visit answers no
 * 404, so a 404 in the browser's log is a real one. The migration flag it shows comes from the
 * schema; setting and clearing it still reads back.
 */
import type { Page, Response } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, type TestWorkspace } from '../support/harness.ts';
import { mariadbTarget } from '../support/mysql-target.ts';
import { pgliteTarget, postgresTarget, vendorsToRun } from '../support/vendors.ts';
import { browserAvailable, signedInForSuite } from './browser.ts';

const run = browserAvailable();
const vendors = run ? await vendorsToRun([pgliteTarget, postgresTarget, mariadbTarget]) : [pgliteTarget];
const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 20_000 });

describe.runIf(run).each(vendors)('admin application entity options requests on $name', { timeout: 120_000 }, (target) => {
  let ws: TestWorkspace;
  let page: Page;
  signedInForSuite(target, (s) => ({ ws, page } = s));

  it('a visit of the entity-options screen answers no 404, and shows the migration flag as set', async () => {
    const failed: string[] = [];
    const listen = (response: Response) => {
      if (response.status() >= 400) failed.push(`${response.status()} ${response.url()}`);
    };
    page.on('response', listen);
    await page.goto(`${ws.url}/admin/#/w/${ws.org}/${ws.ws}/options/products`);
    const state = page.locator('#migration-current');
    await poll(() => state.textContent()).toContain('not migrating');
    expect(failed).toEqual([]);

    await page.getByRole('button', { name: 'Mark as migrating' }).click();
    await poll(() => state.textContent()).toContain('migrating, blocks writes');
    await page.reload();
    await poll(() => state.textContent()).toContain('migrating, blocks writes');
    page.off('response', listen);
    expect(failed).toEqual([]);
    expect((await ws.call('GET', ws.admin('/entities/products/migration'), { token: ADMIN_TOKEN })).status).toBe(200);
  });
});
