/**
 * The data screen never changes what the user did not change (DESIGN §15, screen 2): an edit loads
 * the whole record and sends only the fields changed, JSON stays JSON, a concurrent change to another
 * field survives; the grid tells loading, empty, failed and schema-out-of-sync apart. Every check of
 * what was saved reads the workspace database directly, not the API that wrote it.
 */
import type { Page, Route } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, type TestWorkspace } from '../support/harness.ts';
import { mariadbTarget } from '../support/mysql-target.ts';
import { pgliteTarget, postgresTarget, vendorsToRun } from '../support/vendors.ts';
import { browserAvailable, expectAccessible, screenshot, signedInForSuite } from './browser.ts';

const run = browserAvailable();
const vendors = run ? await vendorsToRun([pgliteTarget, postgresTarget, mariadbTarget]) : [pgliteTarget];
const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 20_000 });

/** A JSON column and how to ask the database which JSON type a value has, per vendor of this suite. */
const JSON_SQL: Record<string, { readonly type: string; typeOf(column: string): string; readonly object: string }> = {
  pglite: { type: 'jsonb', typeOf: (c) => `jsonb_typeof(${c})`, object: 'object' },
  postgres: { type: 'jsonb', typeOf: (c) => `jsonb_typeof(${c})`, object: 'object' },
  mariadb: { type: 'JSON', typeOf: (c) => `JSON_TYPE(${c})`, object: 'OBJECT' },
};

/** A list request of `entity` (not a record by id, not the schema). */
const listOf = (entity: string) => (url: URL) => url.pathname.endsWith(`/${entity}`) && url.pathname.startsWith('/api/v1/');

describe.runIf(run).each(vendors)('admin application record editing on $name', { timeout: 120_000 }, (target) => {
  let ws: TestWorkspace;
  let page: Page;
  signedInForSuite(target, (s) => ({ ws, page } = s), 'record editing');
  const row = async (id: number, columns: string) => (await ws.db.query(`SELECT ${columns} FROM ${ws.db.table('customers')} WHERE id = ${id}`))[0] ?? {};
  const openCustomers = async () => {
    await page.goto(`${ws.url}/admin/#/w/${ws.org}/${ws.ws}/data/customers`);
    await page.reload();
    await page.getByRole('button', { name: 'Edit customers 1', exact: true }).waitFor();
  };

  it('an edit with a narrowed grid keeps the hidden columns', async () => {
    await openCustomers();
    await page.getByLabel('fields (comma-separated)').fill('id,name');
    await page.getByRole('button', { name: 'Apply', exact: true }).click();
    await poll(() => page.locator('table.grid thead th').allTextContents()).toEqual(['id', 'name', 'Actions']);
    await page.getByRole('button', { name: 'Edit customers 3', exact: true }).click();
    // The form shows the whole record, hidden columns included.
    await poll(() => page.getByLabel('birthDate').inputValue()).toBe('1972-03-15');
    await page.getByLabel('name (required)').fill('Alan Renamed');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('form', { name: 'Edit customers 3' }).waitFor({ state: 'detached' });
    const saved = await row(3, 'name, region_id, birth_date');
    expect(saved.name).toBe('Alan Renamed');
    expect(Number(saved.region_id)).toBe(3);
    expect(saved.birth_date).not.toBeNull();
  });

  it('a change made by another client to another field survives an edit', async () => {
    await openCustomers();
    await page.getByRole('button', { name: 'Edit customers 5', exact: true }).click();
    await poll(() => page.getByLabel('email (required)').inputValue()).toBe('user5@example.com');
    const other = await ws.call('PUT', ws.records('/customers/5'), { body: { email: 'changed-elsewhere@example.com' } });
    expect(other.status).toBe(200);
    await page.getByLabel('name (required)').fill('Barbara Renamed');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('form', { name: 'Edit customers 5' }).waitFor({ state: 'detached' });
    expect(await row(5, 'name, email')).toEqual({ name: 'Barbara Renamed', email: 'changed-elsewhere@example.com' });
  });

  it('a JSON column is edited and sent as JSON; invalid JSON is refused at the field', async () => {
    const json = JSON_SQL[target.name]!;
    await ws.db.query(`ALTER TABLE ${ws.db.table('customers')} ADD COLUMN prefs ${json.type}`);
    await ws.db.query(`UPDATE ${ws.db.table('customers')} SET prefs = '{"award":"none"}' WHERE id = 4`);
    expect((await ws.call('POST', ws.admin('/sync'), { token: ADMIN_TOKEN })).status).toBe(200);
    await openCustomers();
    await page.getByRole('button', { name: 'Edit customers 4', exact: true }).click();
    await poll(() => page.getByLabel('prefs (JSON)').inputValue()).toContain('"award"');
    await page.getByLabel('name (required)').fill('Edsger Renamed');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('form', { name: 'Edit customers 4' }).waitFor({ state: 'detached' });
    expect(await row(4, `name, ${json.typeOf('prefs')} AS kind`)).toEqual({ name: 'Edsger Renamed', kind: json.object });

    await page.getByRole('button', { name: 'Edit customers 4', exact: true }).click();
    await page.getByLabel('prefs (JSON)').fill('{"award": gold}');
    await poll(() => page.locator('#record-prefs-error').textContent()).toContain('not valid JSON');
    expect(await page.getByRole('button', { name: 'Save' }).isDisabled()).toBe(true);
    await expectAccessible(page, `data (invalid JSON, ${target.name})`);
    await screenshot(page, `${target.name}-05b-data-invalid-json`);
    await page.getByLabel('prefs (JSON)').fill('{"award": "gold", "years": [2024]}');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('form', { name: 'Edit customers 4' }).waitFor({ state: 'detached' });
    const saved = await row(4, `prefs, ${json.typeOf('prefs')} AS kind`);
    expect(saved.kind).toBe(json.object);
    const prefs = typeof saved.prefs === 'string' ? JSON.parse(saved.prefs) : saved.prefs;
    expect(prefs).toEqual({ award: 'gold', years: [2024] });
  });

  it('a slow list shows loading with paging disabled; a failing one shows its error, not "No rows."', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const hold = async (route: Route) => {
      await held;
      await route.continue();
    };
    await page.route(listOf('orders'), hold);
    await page.goto(`${ws.url}/admin/#/w/${ws.org}/${ws.ws}/data/orders`);
    await poll(() => page.getByRole('status').filter({ hasText: 'Loading' }).count()).toBe(1);
    expect(await page.getByText('No rows.').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Next page' }).isDisabled()).toBe(true);
    await screenshot(page, `${target.name}-04d-data-loading`);
    release();
    await poll(() => page.locator('table.grid tbody tr:first-child td:first-child').textContent()).toBe('1');
    expect(await page.getByRole('button', { name: 'Next page' }).isDisabled()).toBe(false);
    await page.unroute(listOf('orders'), hold);

    const fail = (route: Route) => route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ error: { code: 'INTERNAL_ERROR', message: 'Something failed on our side (request 42).' } }) });
    await page.route(listOf('orders'), fail);
    await page.reload();
    await poll(() => page.getByRole('alert').filter({ hasText: 'request 42' }).count()).toBe(1);
    expect(await page.getByText('No rows.').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Next page' }).isDisabled()).toBe(true);
    await expectAccessible(page, `data (failed list, ${target.name})`);
    await screenshot(page, `${target.name}-04e-data-failed`);
    await page.unroute(listOf('orders'), fail);
  });

  it('a schema out of sync shows a banner whose Sync button syncs the workspace and loads again', async () => {
    let outOfSync = true;
    const answer = async (route: Route) => {
      if (!outOfSync) return route.continue();
      const envelope = { error: { code: 'SCHEMA_OUT_OF_SYNC', message: 'The table changed in the database; sync the workspace.', details: { entity: 'orders', missing: { kind: 'column', name: 'note' } } } };
      return route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify(envelope) });
    };
    await page.route(listOf('orders'), answer);
    await page.goto(`${ws.url}/admin/#/w/${ws.org}/${ws.ws}/data/orders`);
    await page.reload(); // the page may be on this screen already
    const banner = page.getByRole('alert').filter({ hasText: 'out of sync' });
    await poll(() => banner.textContent()).toContain('note');
    expect(await page.getByRole('button', { name: 'Next page' }).isDisabled()).toBe(true);
    await expectAccessible(page, `data (schema out of sync, ${target.name})`);
    await screenshot(page, `${target.name}-04f-data-out-of-sync`);
    const sync = page.waitForRequest((r) => r.method() === 'POST' && r.url().endsWith(`/api/admin/v1/orgs/${ws.org}/workspaces/${ws.ws}/sync`));
    outOfSync = false;
    await banner.getByRole('button', { name: 'Sync' }).click();
    await sync;
    await poll(() => page.locator('table.grid tbody tr:first-child td:first-child').textContent()).toBe('1');
    expect(await banner.count()).toBe(0);
    await page.unroute(listOf('orders'), answer);
  });
});
