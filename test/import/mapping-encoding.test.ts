/**
 * X-Import-Mapping beyond Latin-1 (docs/admin-app.md): an HTTP header carries bytes
 * that clients and Node read as Latin-1, and browsers refuse to send anything else, so a CSV column
 * named "名前" or "Größe €" could not be mapped. A value that starts with `%` is percent-encoded
 * UTF-8 JSON; a value that starts with `{` is JSON as before.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorkspace, type TestWorkspace } from '../support/harness.ts';
import { vendorsToRun } from '../support/vendors.ts';
import { doneOf, importFile, viewUuidOf } from '../support/import-calls.ts';

const vendors = await vendorsToRun();

describe.each(vendors)('X-Import-Mapping encodings on $name', (target) => {
  let ws: TestWorkspace;
  let customers: string;
  const withMapping = (csv: string, value: string) => importFile(ws, customers, csv, { headers: { 'X-Import-Mapping': value } });

  beforeAll(async () => {
    ws = await startWorkspace(target);
    customers = await viewUuidOf(ws, 'customers');
  });
  afterAll(async () => ws?.close());

  it('maps CSV columns named outside Latin-1 from a percent-encoded mapping', async () => {
    const mapping = { 名前: 'name', 'Größe €': 'email' };
    const res = await withMapping('名前,Größe €,ignored\n山田,yamada@example.com,x\nJürgen,juergen@example.com,y\n', encodeURIComponent(JSON.stringify(mapping)));
    expect(res.events[0]).toMatchObject({ event: 'started', mapping, skippedColumns: ['ignored'] });
    expect(doneOf(res)).toMatchObject({ totalCount: 2, successCount: 2, failureCount: 0 });
    const stored = await ws.call('GET', ws.records('/customers?filter[email.in]=yamada@example.com,juergen@example.com&sort=email,desc'));
    expect(stored.body.data.map((c: { name: string }) => c.name)).toEqual(['山田', 'Jürgen']);
  });

  it('reads lower-case escapes too, and plain JSON exactly as before', async () => {
    const lower = encodeURIComponent(JSON.stringify({ Nom: 'name', Courriel: 'email' })).replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase());
    expect(lower.startsWith('%7b')).toBe(true);
    expect(doneOf(await withMapping('Nom,Courriel\nLow,low@example.com\n', lower))).toMatchObject({ successCount: 1 });
    expect(doneOf(await withMapping('Full name,Mail\nPlain,plain@example.com\n', JSON.stringify({ 'Full name': 'name', Mail: 'email' })))).toMatchObject({ successCount: 1 });
  });

  it.each([
    ['%7B%22a%22%3A%ZZ%7D', 'percent-encoded'],
    ['%7B%22%C3%28%22%3A%22name%22%7D', 'percent-encoded'],
    ['%5B1%5D', 'must be a JSON object'],
    ['%7Bnot json', 'must be JSON'],
  ])('%s is 400 BAD_REQUEST saying what is wrong, before any row is read', async (value, says) => {
    const res = await withMapping('name,email\nNever,never@example.com\n', value);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('BAD_REQUEST');
    expect(res.body.error.message).toContain(says);
    expect((await ws.call('GET', ws.records('/customers?filter[email.eq]=never@example.com'))).body.data).toEqual([]);
  });
});
