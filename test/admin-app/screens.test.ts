/**
 * The admin application in a real browser on PGlite (DESIGN §15): sign-in, organizations
 * and workspaces (create with a connection error, drift after ALTER TABLE), entity options, the API
 * viewer, and signing in with an API key. The data grid and the columns screen run on every vendor
 * in grid-columns.test.ts. Screenshots go to test/admin-app/output/.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, startWorkspace, type TestWorkspace } from '../support/harness.ts';
import { pgliteTarget } from '../support/vendors.ts';
import { browserAvailable, ensureBuilt, expectAccessible, launch, openPage, screenshot, signIn } from './browser.ts';

const run = browserAvailable();
/** The page answers at its own pace on a loaded machine: wait up to 15 s for what it shows. */
const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 15_000 });

describe.runIf(run)('admin application on pglite', { timeout: 90_000 }, () => {
  let ws: TestWorkspace;
  let browser: Browser;
  let page: Page;
  let errors: string[];
  const started = performance.now();

  beforeAll(async () => {
    ensureBuilt();
    ws = await startWorkspace(pgliteTarget, { org: 'acme', ws: 'shop' });
    browser = await launch();
    ({ page, errors } = await openPage(browser));
  });
  afterAll(async () => {
    await browser?.close();
    await ws?.close();
    console.log(`admin-app pglite browser suite: ${Math.round(performance.now() - started)} ms`);
  });

  it('serves the app offline with a content security policy, and ADMIN_APP=off is a setting', async () => {
    const res = await fetch(`${ws.url}/admin/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
    const html = await res.text();
    expect(html).not.toMatch(/https?:\/\//);
    expect((await fetch(`${ws.url}/admin`, { redirect: 'manual' })).headers.get('location')).toBe('/admin/');
  });

  it('refuses a wrong token, signs in with the admin token kept in sessionStorage only', async () => {
    await page.goto(`${ws.url}/admin/`);
    await expectAccessible(page, 'sign-in');
    await screenshot(page, '00-sign-in');
    await page.getByLabel('Admin token or API key').fill('wda_not-the-right-token-000000000');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await poll(() => page.getByRole('alert').textContent()).toContain('Sign-in refused');
    await signIn(page, ws.url, ADMIN_TOKEN);
    expect(await page.evaluate('JSON.stringify(sessionStorage)')).toContain(ADMIN_TOKEN);
    expect(await page.evaluate('JSON.stringify(localStorage) + document.cookie')).not.toContain(ADMIN_TOKEN);
    expect(page.url()).not.toContain(ADMIN_TOKEN);
  });

  it('screen 1: lists workspaces, shows a connection error at the URL field, creates one and shows drift after ALTER TABLE', async () => {
    await page.getByRole('heading', { name: 'Organizations and workspaces' }).waitFor();
    await page.getByText('acme/shop').waitFor();
    await page.getByRole('button', { name: 'New workspace in acme' }).click();
    await page.getByLabel('Workspace slug').fill('broken');
    await page.getByLabel('Database URL').fill('postgres://nobody@127.0.0.1:1/nothing');
    await page.getByRole('button', { name: 'Create workspace' }).click();
    const urlError = page.locator('#new-ws-acme-url-error');
    await poll(() => urlError.textContent()).toContain('could not connect');
    expect(await page.getByLabel('Database URL').getAttribute('aria-invalid')).toBe('true');
    await expectAccessible(page, 'organizations (connection error)');
    await screenshot(page, '01-orgs-connection-error');

    // The same schema as acme/shop, through the embedded vendor: then a column appears in the database.
    await page.getByLabel('Workspace slug').fill('mirror');
    await page.getByLabel('Vendor').selectOption('embedded');
    await page.getByLabel('Schema').fill(String(ws.db.database.schema));
    await page.getByRole('button', { name: 'Create workspace' }).click();
    await page.getByText('acme/mirror').waitFor();
    await ws.db.query(`ALTER TABLE ${ws.db.table('products')} ADD COLUMN colour text`);
    await page.getByRole('button', { name: 'Sync acme/mirror' }).click();
    const report = page.getByRole('status', { name: 'Sync of acme/mirror' });
    await poll(() => report.textContent()).toContain('colour');
    await expectAccessible(page, 'organizations (drift)');
    await screenshot(page, '02-orgs-drift');

    await page.getByRole('button', { name: 'Delete acme/mirror' }).click();
    await page.getByRole('button', { name: 'Yes, delete acme/mirror' }).click();
    await poll(() => page.getByText('acme/mirror').count()).toBe(0);
  });

  it('screen 4: entity options are saved and take effect; the migration flag is set, shown as the service applies it (retry-after included) and cleared', async () => {
    await page.goto(`${ws.url}/admin/#/w/acme/shop/options/orders`);
    await page.getByLabel('Default expansion (comma-separated paths)').fill('customer');
    await page.getByLabel('Count mode').selectOption('none');
    await page.getByRole('button', { name: 'Save options' }).click();
    await page.getByText('Options of orders saved.').waitFor();
    const list = await ws.call('GET', ws.records('/orders?size=1'));
    expect(list.body.data[0].customer).toMatchObject({ id: expect.anything() });
    expect(list.body.meta.totalElements ?? null).toBeNull();

    await page.getByLabel('Default expansion (comma-separated paths)').fill('nowhere');
    await page.getByRole('button', { name: 'Save options' }).click();
    await poll(() => page.locator('#opt-default-expand-error').textContent()).toContain('nowhere');
    await expectAccessible(page, 'entity options');
    await screenshot(page, '09-entity-options');

    const state = page.locator('#migration-current');
    await poll(() => state.textContent()).toContain('Current state: not migrating');
    await page.getByLabel('Retry-After (seconds)').fill('45');
    await page.getByRole('button', { name: 'Mark as migrating' }).click();
    await page.getByText('orders is marked as migrating', { exact: false }).waitFor();
    await poll(() => state.textContent()).toBe('Current state: migrating, blocks writes; clients are told Retry-After 45 s.');
    const blocked = await ws.call('POST', ws.records('/orders'), { body: { customerId: 1, productId: 1, quantity: 1, amount: 1, status: 'new' } });
    expect(blocked.status).toBe(503);
    expect(blocked.headers.get('retry-after')).toBe('45');

    // Set elsewhere (here: by the API), the flag is what a fresh visit of the screen shows.
    await ws.call('PUT', ws.admin('/entities/orders/migration'), { body: { blocksReads: true, blocksWrites: true, retryAfterSeconds: 120 }, token: ADMIN_TOKEN });
    await page.goto(`${ws.url}/admin/#/w/acme/shop/options/customers`);
    await page.goto(`${ws.url}/admin/#/w/acme/shop/options/orders`);
    await poll(() => state.textContent()).toBe('Current state: migrating, blocks reads and writes; clients are told Retry-After 120 s.');
    await poll(() => page.getByLabel('Retry-After (seconds)').inputValue()).toBe('120');
    expect(await page.getByLabel('Blocks reads').isChecked()).toBe(true);
    await expectAccessible(page, 'entity options (migration flag)');
    await screenshot(page, '09b-entity-options-migration-flag');
    await page.getByRole('button', { name: 'Clear the flag' }).click();
    await page.getByText('orders is no longer marked as migrating').waitFor();
    await poll(() => state.textContent()).toContain('Current state: not migrating');
  });

  it('screen 7: the workspace OpenAPI document in the bundled viewer, with nothing fetched from elsewhere', async () => {
    const outside: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(ws.url) && !request.url().startsWith('data:') && !request.url().startsWith('blob:')) outside.push(request.url());
    });
    await page.goto(`${ws.url}/admin/#/w/acme/shop/api`);
    // The document describes every route now (about 90 operations): Swagger UI needs longer on a loaded machine.
    await expect.poll(() => page.locator('.swagger-ui .info .title').textContent(), { timeout: 60_000 }).toContain('acme/shop');
    await page.locator('.swagger-ui .opblock').first().waitFor();
    await expectAccessible(page, 'API');
    await screenshot(page, '10-api-openapi');
    expect(outside).toEqual([]);
  });

  it('signs out and forgets the credential', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Admin token or API key').waitFor();
    expect(await page.evaluate('sessionStorage.length')).toBe(0);
  });

  it('signs in with a workspace API key from the keyboard alone, which opens its workspace and not the organization list', async () => {
    await page.goto(`${ws.url}/admin/#/orgs`);
    await page.getByLabel('Admin token or API key').waitFor();
    await page.keyboard.press('Tab');
    await page.keyboard.type(ws.apiKey);
    await page.keyboard.press('Tab');
    await page.keyboard.type('acme');
    await page.keyboard.press('Tab');
    await page.keyboard.type('shop');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: /^Data/ }).waitFor();
    // The grid's headers sort from the keyboard too.
    await page.getByRole('button', { name: 'id', exact: true }).focus();
    await page.keyboard.press('Enter');
    await poll(() => page.locator('th[aria-sort="ascending"]').count()).toBe(1);
    expect(await page.getByRole('link', { name: 'Organizations' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Admin token or API key').fill(ws.apiKey);
    await page.getByLabel('Organization of the API key').fill('acme');
    await page.getByLabel('Workspace of the API key').fill('elsewhere');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await poll(() => page.getByRole('alert').textContent()).toContain('Sign-in refused');
    expect(errors).toEqual([]);
  });
});
