/**
 * Screens 2 and 3 of the admin application on every vendor (DESIGN §15 "each on every vendor"):
 * the data grid (sort, filter, the where error at its position, create with a field
 * error, edit, delete, cursor paging) and the columns screen (a formula error marked then fixed and
 * previewed, reorder from the keyboard, the new order in the grid). One workspace per vendor; the
 * scenarios run in order on it. Screenshots go to test/admin-app/output/<vendor>-….
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { TestWorkspace } from '../support/harness.ts';
import { mariadbTarget } from '../support/mysql-target.ts';
import { pgliteTarget, postgresTarget, vendorsToRun } from '../support/vendors.ts';
import { browserAvailable, expectAccessible, screenshot, signedInForSuite } from './browser.ts';

const run = browserAvailable();
// Without Chromium the suite is listed as skipped (one placeholder vendor), not absent.
const vendors = run ? await vendorsToRun([pgliteTarget, postgresTarget, mariadbTarget]) : [pgliteTarget];
/** The page answers at its own pace on a loaded machine: wait up to 20 s for what it shows. */
const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 20_000 });

describe.runIf(run).each(vendors)('admin application data grid and columns on $name', { timeout: 120_000 }, (target) => {
  let ws: TestWorkspace;
  let page: Page;
  signedInForSuite(target, (s) => ({ ws, page } = s), 'grid and columns');

  it('screen 2: sorts by header, filters, marks the where error at its position, creates, edits and deletes a row', async () => {
    await page.goto(`${ws.url}/admin/#/w/${ws.org}/${ws.ws}/data/orders`);
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
    await expectAccessible(page, `data (where error, ${target.name})`);
    await screenshot(page, `${target.name}-03-data-where-error`);

    await page.getByLabel('where (a boolean formula)').fill('quantity >= 2');
    await page.getByRole('button', { name: 'Apply where' }).click();
    await page.getByLabel('Filter field').selectOption('status');
    await page.getByLabel('Operator').selectOption('eq');
    await page.getByLabel('Value', { exact: true }).fill('paid');
    await page.getByRole('button', { name: 'Add filter' }).click();
    await poll(async () => new Set(await page.locator('table.grid tbody td:nth-child(6)').allTextContents())).toEqual(new Set(['paid']));
    await expectAccessible(page, 'data (filtered)');
    await screenshot(page, `${target.name}-04-data-filtered`);

    await page.getByLabel('expand (comma-separated)').fill('customer');
    await page.getByLabel('fields (comma-separated)').fill('id,amount,customer.name');
    await page.getByLabel('count', { exact: true }).selectOption('none');
    await page.getByRole('button', { name: 'Apply', exact: true }).click();
    await poll(() => page.locator('table.grid thead th').allTextContents()).toEqual(['id', 'amount ▼', 'customer', 'Actions']); // still sorted by amount, descending
    expect(await page.locator('table.grid tbody tr:first-child td:nth-child(3)').textContent()).toMatch(/^\{"name":".+"\}$/);
    expect(await page.getByRole('status').filter({ hasText: 'Page 1' }).textContent()).not.toContain('rows');
    await screenshot(page, `${target.name}-04b-data-expanded`);

    await page.goto(`${ws.url}/admin/#/w/${ws.org}/${ws.ws}/data/customers`);
    await page.getByRole('button', { name: 'New customers record' }).click();
    await page.getByLabel('email (required)').fill('new@example.com');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await poll(() => page.locator('#record-name-error').textContent()).toContain('required');
    await expectAccessible(page, 'data (field error)');
    await screenshot(page, `${target.name}-05-data-field-error`);
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
    await page.goto(`${ws.url}/admin/#/w/${ws.org}/${ws.ws}/columns/orders`);
    await page.getByLabel('Display name').first().fill('Total Price');
    const editor = page.locator('.cm-content');
    await editor.click();
    await page.keyboard.type("amount + 'x'");
    const mark = page.locator('.cm-lintRange-error');
    await poll(() => mark.textContent()).toBe("'");
    await poll(() => page.locator('#formula-status').textContent()).toContain('column 10');
    await expectAccessible(page, 'columns (formula error)');
    await screenshot(page, `${target.name}-06-columns-formula-error`);

    await page.keyboard.press('Control+a');
    await page.keyboard.type('amount * quantity');
    await poll(() => page.locator('#formula-status').textContent()).toContain('Valid (number)');
    expect(await mark.count()).toBe(0);
    await screenshot(page, `${target.name}-07-columns-formula-preview`);
    // The checker's type is preselected: a number formula is stored as a DECIMAL column, not STRING.
    expect(await page.getByLabel('Column type').inputValue()).toBe('DECIMAL');
    await page.getByRole('button', { name: 'Save computed column' }).click();
    await page.getByRole('cell', { name: 'totalPrice', exact: true }).waitFor();
    const views = (await ws.call('GET', ws.admin('/views'))).body.data as { uuid: string; entity: string; isDefault: boolean }[];
    const ordersView = views.find((v) => v.entity === 'orders' && v.isDefault)?.uuid ?? '';
    const saved = (await ws.call('GET', `/api/views/${ordersView}/columns`)).body.data.find((c: { fieldName: string }) => c.fieldName === 'totalPrice');
    expect(saved.widgetType).toBe('DECIMAL');

    await page.goto(`${ws.url}/admin/#/w/${ws.org}/${ws.ws}/data/orders`);
    await page.getByRole('button', { name: 'totalPrice' }).waitFor();
    const expected = (await ws.call('GET', ws.records('/orders?size=1&sort=id,asc'))).body.data[0];
    expect(expected.totalPrice).not.toBeUndefined();
    const header = await page.locator('table.grid thead th').allTextContents();
    const column = header.findIndex((h) => h.startsWith('totalPrice')) + 1;
    await poll(() => page.locator(`table.grid tbody tr:first-child td:nth-child(${column})`).textContent()).toBe(String(expected.totalPrice));
    await screenshot(page, `${target.name}-08-data-computed-column`);
  });

  it('screen 2: the where placeholder names fields the entity has', async () => {
    await page.goto(`${ws.url}/admin/#/w/${ws.org}/${ws.ws}/data/regions`);
    const box = page.getByLabel('where (a boolean formula)');
    await box.waitFor();
    const example = (await box.getAttribute('placeholder')) ?? '';
    const fields = ((await ws.call('GET', ws.admin('/schema'))).body.data.entities as { name: string; fields: { name: string }[] }[]).find((e) => e.name === 'regions')?.fields.map((f) => f.name) ?? [];
    const named = [...example.matchAll(/\b([a-zA-Z_][a-zA-Z0-9_]*)\b/g)].map((m) => m[1] as string).filter((word) => !['AND', 'OR', 'IS', 'NOT', 'NULL'].includes(word));
    expect(named.length).toBeGreaterThan(0);
    expect(named.filter((name) => !fields.includes(name))).toEqual([]);
  });

  it('screen 2: cursor paging goes forward with Next until the last page, and First page starts again', async () => {
    const lists: string[] = [];
    const listen = (request: { url(): string }) => {
      if (request.url().includes('/orders?')) lists.push(decodeURIComponent(request.url()));
    };
    page.on('request', listen);
    await page.goto(`${ws.url}/admin/#/w/${ws.org}/${ws.ws}/data/orders`);
    const firstCell = page.locator('table.grid tbody tr:first-child td:first-child');
    await poll(() => firstCell.textContent()).toBe('1');
    await page.getByLabel('Paging').selectOption('cursor');
    const status = page.getByRole('status').filter({ hasText: 'Cursor page' });
    await poll(() => status.textContent()).toContain('Cursor page 1');
    expect(await page.getByRole('button', { name: 'First page' }).isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Next page' }).click();
    await poll(() => firstCell.textContent()).toBe('21');
    await page.getByRole('button', { name: 'Next page' }).click();
    await poll(() => firstCell.textContent()).toBe('41');
    await poll(() => status.textContent()).toContain('Cursor page 3 (last)');
    expect(await page.locator('table.grid tbody tr').count()).toBe(5); // 45 orders, 20 a page
    expect(await page.getByRole('button', { name: 'Next page' }).isDisabled()).toBe(true);
    await expectAccessible(page, `data (cursor paging, ${target.name})`);
    await screenshot(page, `${target.name}-04c-data-cursor-last-page`);
    await page.getByRole('button', { name: 'First page' }).click();
    await poll(() => firstCell.textContent()).toBe('1');
    page.off('request', listen);
    const cursorCalls = lists.filter((url) => url.includes('paging=cursor'));
    expect(cursorCalls.filter((url) => url.includes('after=')).length).toBeGreaterThanOrEqual(2);
    expect(cursorCalls.some((url) => /[?&]page=/.test(url))).toBe(false);
  });

  it('screen 3: columns move up and down from the keyboard; the grid shows the new order', async () => {
    await page.goto(`${ws.url}/admin/#/w/${ws.org}/${ws.ws}/columns/customers`);
    const fieldNames = () => page.locator('table.grid tbody tr td:nth-child(2)').allTextContents();
    await poll(fieldNames).toContain('email');
    const before = await fieldNames();
    const at = before.indexOf('email');
    expect(at).toBeGreaterThan(1);
    // Keyboard only: focus the button, press Enter; the focus stays with the moved column.
    await page.getByRole('button', { name: 'Move email up' }).focus();
    await page.keyboard.press('Enter');
    await poll(async () => (await fieldNames()).indexOf('email')).toBe(at - 1);
    await poll(() => page.evaluate('document.activeElement?.getAttribute("aria-label")')).toBe('Move email up');
    await page.keyboard.press('Enter');
    await poll(async () => (await fieldNames()).indexOf('email')).toBe(at - 2);
    const moved = await fieldNames();
    expect(await page.locator('table.grid tbody tr td:first-child').allTextContents()).toEqual(moved.map((_, i) => String(i)));
    await page.getByText(`email moved to position ${at - 2}`).waitFor();
    await expectAccessible(page, `columns (reordered, ${target.name})`);
    await screenshot(page, `${target.name}-07b-columns-reordered`);
    const views = (await ws.call('GET', ws.admin('/views'))).body.data as { uuid: string; entity: string; isDefault: boolean }[];
    const customers = views.find((v) => v.entity === 'customers' && v.isDefault)!;
    expect((await ws.call('GET', `/api/views/${customers.uuid}/columns`)).body.data.map((c: { fieldName: string }) => c.fieldName)).toEqual(moved);

    await page.goto(`${ws.url}/admin/#/w/${ws.org}/${ws.ws}/data/customers`);
    await poll(async () => (await page.locator('table.grid thead th').allTextContents()).map((h) => h.replace(/ [▲▼]$/, '')).filter((h) => h !== 'Actions')).toEqual(moved);
    await screenshot(page, `${target.name}-07c-data-in-column-order`);
  });
});
