/**
 * Screen 1 against real database servers: a workspace created in the UI on a
 * PostgreSQL or MariaDB database of its own, then its drift shown after an ALTER TABLE.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, type TestWorkspace } from '../support/harness.ts';
import { mariadbTarget } from '../support/mysql-target.ts';
import { postgresTarget, vendorsToRun } from '../support/vendors.ts';
import { browserAvailable, expectAccessible, screenshot, signedInForSuite } from './browser.ts';

const run = browserAvailable();
const vendors = run ? await vendorsToRun([postgresTarget, mariadbTarget]) : [];
const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 20_000 });

// No Chromium, or no server reachable outside CI: the suite is listed as skipped, not absent.
if (vendors.length === 0) describe.skip('admin application workspace drift (needs Chromium and PostgreSQL or MariaDB)', () => it('is skipped', () => undefined));

describe.runIf(run && vendors.length > 0).each(vendors)('admin application workspace drift on $name', { timeout: 90_000 }, (target) => {
  let ws: TestWorkspace;
  let page: Page;
  signedInForSuite(target, (s) => ({ ws, page } = s));

  it('creates a workspace on the database in the form, then shows the drift of an ALTER TABLE', async () => {
    const database = ws.db.database as { vendor: string; url: string; schema?: string };
    await page.getByRole('button', { name: `New workspace in ${ws.org}` }).click();
    await page.getByLabel('Workspace slug').fill('second');
    await page.getByLabel('Vendor').selectOption(database.vendor);
    await page.getByLabel('Database URL').fill(database.url);
    if (database.schema) await page.getByLabel('Schema').fill(database.schema);
    await page.getByRole('button', { name: 'Create workspace' }).click();
    await page.getByText(`${ws.org}/second`).waitFor();

    await ws.db.query(`ALTER TABLE ${ws.db.table('products')} ADD COLUMN colour varchar(20)`);
    await page.getByRole('button', { name: `Sync ${ws.org}/second` }).click();
    const report = page.getByRole('status', { name: `Sync of ${ws.org}/second` });
    await poll(() => report.textContent()).toContain('colour');
    await expectAccessible(page, `organizations (drift on ${target.name})`);
    await screenshot(page, `${target.name}-02-orgs-drift`);
    const entities = (await ws.call('GET', `/api/admin/v1/orgs/${ws.org}/workspaces/second/schema`, { token: ADMIN_TOKEN })).body.data.entities;
    expect(entities.find((e: { name: string }) => e.name === 'products').fields.map((f: { name: string }) => f.name)).toContain('colour');
  });
});
