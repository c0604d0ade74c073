/**
 * The admin application in a real browser on PGlite (DESIGN §15, issue 17): sign-in, organizations
 * and workspaces (create with a connection error, drift after ALTER TABLE), the data grid, and the
 * formula editor. Screenshots go to test/admin-app/output/.
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

  it('screen 2: sorts by header, filters, marks the where error at its position, creates, edits and deletes a row', async () => {
    await page.goto(`${ws.url}/admin/#/w/acme/shop/data/orders`);
    const firstCell = page.locator('table.grid tbody tr:first-child td:first-child');
    await poll(() => firstCell.textContent()).toBe('1');
    await page.getByRole('button', { name: 'amount', exact: true }).click();
    await page.getByRole('button', { name: 'amount', exact: true }).click();
    await poll(() => page.locator('th[aria-sort="descending"]').textContent()).toContain('amount');

    await page.getByLabel('where (a boolean formula)').fill("amount + 'x' > 1 AND quantity > 1");
    await page.getByRole('button', { name: 'Apply where' }).click();
    const whereError = page.locator('#where-error');
    await poll(() => whereError.textContent()).toContain('column 10');
    expect(await page.locator('.where-marked mark').textContent()).toBe("'");
    // The caret is put on the error in the box itself.
    expect(await page.getByLabel('where (a boolean formula)').evaluate((input) => (input as unknown as { selectionStart: number }).selectionStart)).toBe(9);
    await expectAccessible(page, 'data (where error)');
    await screenshot(page, '03-data-where-error');

    await page.getByLabel('where (a boolean formula)').fill('quantity >= 2');
    await page.getByRole('button', { name: 'Apply where' }).click();
    await page.getByLabel('Filter field').selectOption('status');
    await page.getByLabel('Operator').selectOption('eq');
    await page.getByLabel('Value', { exact: true }).fill('paid');
    await page.getByRole('button', { name: 'Add filter' }).click();
    await poll(async () => new Set(await page.locator('table.grid tbody td:nth-child(6)').allTextContents())).toEqual(new Set(['paid']));
    await expectAccessible(page, 'data (filtered)');
    await screenshot(page, '04-data-filtered');

    await page.getByLabel('expand (comma-separated)').fill('customer');
    await page.getByLabel('fields (comma-separated)').fill('id,amount,customer.name');
    await page.getByLabel('count', { exact: true }).selectOption('none');
    await page.getByRole('button', { name: 'Apply', exact: true }).click();
    await poll(() => page.locator('table.grid thead th').allTextContents()).toEqual(['id', 'amount ▼', 'customer', 'Actions']); // still sorted by amount, descending
    expect(await page.locator('table.grid tbody tr:first-child td:nth-child(3)').textContent()).toMatch(/^\{"name":".+"\}$/);
    expect(await page.getByRole('status').filter({ hasText: 'Page 1' }).textContent()).not.toContain('rows');
    await screenshot(page, '04b-data-expanded');

    await page.goto(`${ws.url}/admin/#/w/acme/shop/data/customers`);
    await page.getByRole('button', { name: 'New customers record' }).click();
    await page.getByLabel('email (required)').fill('new@example.com');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await poll(() => page.locator('#record-name-error').textContent()).toContain('required');
    await expectAccessible(page, 'data (field error)');
    await screenshot(page, '05-data-field-error');
    await page.getByLabel('name (required)').fill('Newcomer');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await page.getByRole('form', { name: 'New customers record' }).waitFor({ state: 'detached' });
    const created = (await ws.call('GET', ws.records('/customers?filter[email.eq]=new@example.com'))).body.data[0];
    expect(created?.name).toBe('Newcomer');

    await page.getByRole('button', { name: 'id', exact: true }).click();
    await page.getByRole('button', { name: 'id', exact: true }).click();
    await poll(() => page.locator('table.grid tbody tr:first-child td:first-child').textContent()).toBe(String(created.id));
    await page.getByRole('button', { name: `Edit customers ${created.id}` }).click();
    await page.getByLabel('name (required)').fill('Renamed');
    await page.getByRole('button', { name: 'Save' }).click();
    await poll(async () => (await ws.call('GET', ws.records(`/customers/${created.id}`))).body.data?.name).toBe('Renamed');
    await page.getByRole('button', { name: `Delete customers ${created.id}` }).click();
    await page.getByRole('button', { name: `Confirm delete ${created.id}` }).click();
    await poll(async () => (await ws.call('GET', ws.records(`/customers/${created.id}`))).status).toBe(404);
  });

  it('screen 3: a formula typed with an error is marked at its position, then fixed, previewed, saved and shown in the grid', async () => {
    await page.goto(`${ws.url}/admin/#/w/acme/shop/columns/orders`);
    await page.getByLabel('Display name').first().fill('Total Price');
    const editor = page.locator('.cm-content');
    await editor.click();
    await page.keyboard.type("amount + 'x'");
    const mark = page.locator('.cm-lintRange-error');
    await poll(() => mark.textContent()).toBe("'");
    await poll(() => page.locator('#formula-status').textContent()).toContain('column 10');
    await expectAccessible(page, 'columns (formula error)');
    await screenshot(page, '06-columns-formula-error');

    await page.keyboard.press('Control+a');
    await page.keyboard.type('amount * quantity');
    await poll(() => page.locator('#formula-status').textContent()).toContain('Valid (number)');
    expect(await mark.count()).toBe(0);
    await screenshot(page, '07-columns-formula-preview');
    await page.getByRole('button', { name: 'Save computed column' }).click();
    await page.getByRole('cell', { name: 'totalPrice', exact: true }).waitFor();

    await page.goto(`${ws.url}/admin/#/w/acme/shop/data/orders`);
    await page.getByRole('button', { name: 'totalPrice' }).waitFor();
    const expected = (await ws.call('GET', ws.records('/orders?size=1&sort=id,asc'))).body.data[0];
    expect(expected.totalPrice).not.toBeUndefined();
    const header = await page.locator('table.grid thead th').allTextContents();
    const column = header.findIndex((h) => h.startsWith('totalPrice')) + 1;
    await poll(() => page.locator(`table.grid tbody tr:first-child td:nth-child(${column})`).textContent()).toBe(String(expected.totalPrice));
    await screenshot(page, '08-data-computed-column');
  });

  it('screen 4: entity options are saved and take effect; the migration flag is set and cleared', async () => {
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

    await page.getByLabel('Retry-After (seconds)').fill('45');
    await page.getByRole('button', { name: 'Mark as migrating' }).click();
    await page.getByText('orders is marked as migrating', { exact: false }).waitFor();
    const blocked = await ws.call('POST', ws.records('/orders'), { body: { customerId: 1, productId: 1, quantity: 1, amount: 1, status: 'new' } });
    expect(blocked.status).toBe(503);
    expect(blocked.headers.get('retry-after')).toBe('45');
    await page.getByRole('button', { name: 'Clear the flag' }).click();
    await page.getByText('orders is no longer marked as migrating').waitFor();
  });

  it('screen 7: the workspace OpenAPI document in the bundled viewer, with nothing fetched from elsewhere', async () => {
    const outside: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(ws.url) && !request.url().startsWith('data:') && !request.url().startsWith('blob:')) outside.push(request.url());
    });
    await page.goto(`${ws.url}/admin/#/w/acme/shop/api`);
    await poll(() => page.locator('.swagger-ui .info .title').textContent()).toContain('acme/shop');
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
