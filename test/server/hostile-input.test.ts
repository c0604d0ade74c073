/**
 * Hostile strings: a NUL or a lone surrogate in a path segment is a
 * 404 that never reaches a query; in a JSON value (record, bulk row, admin payload) it is a 400
 * naming the field and nothing is written; a JSON body with a BOM or another charset than UTF-8
 * is a 400.
 */
import { Writable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, startWorkspace, type TestWorkspace } from '../support/harness.ts';
import { expectError, expectValidation } from '../support/http-expect.ts';
import { vendorsToRun } from '../support/vendors.ts';
import { sync, viewUuidOf } from '../support/import-calls.ts';

const vendors = await vendorsToRun();

/** `%00` and the UTF-8 spelling of the lone surrogate U+D800, which is not valid UTF-8. */
const HOSTILE_SEGMENTS = ['%00', 'a%00b', '%ED%A0%80', '%ED%B0%80x'];

/** [method, path with `{x}` for the hostile segment, token] — every kind of name a path carries. */
function pathCases(ws: TestWorkspace, view: string): [string, string, string][] {
  const key = ws.apiKey;
  return [
    ['GET', '/api/v1/{x}/shop/orders', key],
    ['GET', '/api/v1/acme/{x}/orders', key],
    ['GET', '/api/v1/acme/shop/{x}', key],
    ['GET', '/api/v1/acme/shop/notes/{x}', key],
    ['PUT', '/api/v1/acme/shop/notes/{x}', key],
    ['DELETE', '/api/v1/acme/shop/notes/{x}', key],
    ['GET', '/api/v1/acme/shop/orders/{x}', key],
    ['GET', '/api/v1/{x}/shop/openapi.json', key],
    ['GET', '/api/data/{x}', key],
    ['POST', '/api/data/bulk/{x}/insert', key],
    ['GET', '/api/views/{x}/columns', key],
    ['GET', '/api/views/{x}/rls-rules', key],
    ['PATCH', `/api/views/${view}/rls-rules/{x}`, key],
    ['PATCH', '/api/columns/item/{x}', key],
    ['GET', '/api/imports/{x}', key],
    ['GET', '/api/views/{x}/import-mappings', key],
    ['DELETE', `/api/views/${view}/import-mappings/{x}`, key],
    ['POST', '/api/admin/v1/orgs/{x}/workspaces', ADMIN_TOKEN],
    ['GET', '/api/admin/v1/orgs/{x}/workspaces/shop/views', ADMIN_TOKEN],
    ['GET', '/api/admin/v1/orgs/acme/workspaces/{x}/views', ADMIN_TOKEN],
    ['PATCH', '/api/admin/v1/orgs/acme/workspaces/shop/entities/{x}', ADMIN_TOKEN],
  ];
}

describe.each(vendors)('hostile strings on $name', (target) => {
  const lines: Record<string, unknown>[] = [];
  let ws: TestWorkspace;
  let notesView: string;

  beforeAll(async () => {
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
        done();
      },
    });
    ws = await startWorkspace(target, { logger: pino({ level: 'info' }, sink) });
    const doc = ws.vendor === 'mariadb' ? 'json' : 'jsonb';
    await ws.db.query(`CREATE TABLE ${ws.db.table('notes')} (code varchar(40) PRIMARY KEY, body text, doc ${doc})`);
    await sync(ws);
    notesView = await viewUuidOf(ws, 'notes');
    const seeded = await ws.call('POST', ws.records('/notes'), { body: { id: 'kept', body: 'original', doc: { a: 1 } } });
    expect(seeded.status, JSON.stringify(seeded.body)).toBe(201);
  });
  afterAll(async () => ws?.close());

  const notes = async (): Promise<{ code: string; body: unknown }[]> =>
    (await ws.db.query(`SELECT code, body FROM ${ws.db.table('notes')} ORDER BY code`)) as { code: string; body: unknown }[];

  describe('path segments', () => {
    it('a NUL or a lone surrogate in any named segment is 404 NOT_FOUND, and nothing is logged as an error', async () => {
      const before = lines.length;
      const wrong: unknown[] = [];
      for (const segment of HOSTILE_SEGMENTS) {
        for (const [method, template, token] of pathCases(ws, notesView)) {
          const path = template.replace('{x}', segment);
          const body = method === 'POST' || method === 'PUT' || method === 'PATCH' ? { body: {} } : {};
          const res = await ws.call(method, path, { ...body, token });
          if (res.status !== 404 || res.body?.error?.code !== 'NOT_FOUND') wrong.push({ method, path, status: res.status, body: res.body });
          else expectError(res, 404, 'NOT_FOUND');
        }
      }
      expect(wrong).toEqual([]);
      const logged = lines.slice(before);
      expect(logged.length).toBeGreaterThan(0);
      const failures = logged.filter((l) => Number(l.level) >= 50 || l.err !== undefined || JSON.stringify(l).includes('stack'));
      expect(failures).toEqual([]);
      expect(await notes()).toEqual([{ code: 'kept', body: 'original' }]);
    });
  });

  describe('record values', () => {
    it.each([
      ['a lone high surrogate in a text value', { id: 'bad-1', body: 'a\ud800b' }, 'body'],
      ['a lone low surrogate in a text value', { id: 'bad-2', body: '\udc00' }, 'body'],
      ['a lone surrogate in a nested json string', { id: 'bad-3', doc: { a: ['x', { b: 'y\udbff' }] } }, 'doc'],
      ['a lone surrogate in a json object key', { id: 'bad-4', doc: { 'k\ud800': 1 } }, 'doc'],
      ['a lone surrogate as a json string value', { id: 'bad-5', doc: '\udfff' }, 'doc'],
      ['a NUL in a nested json string', { id: 'bad-6', doc: { a: 'x\u0000y' } }, 'doc'],
      ['a lone surrogate in the primary key', { id: 'bad\ud800-7', body: 'x' }, 'id'],
    ])('create refuses %s with VALIDATION_FAILED naming the field, nothing written', async (_label, body, field) => {
      const res = await ws.call('POST', ws.records('/notes'), { body });
      expectValidation(res, field, 'type');
      expect(await notes()).toEqual([{ code: 'kept', body: 'original' }]);
    });

    it('a well-formed surrogate pair and other unicode are stored as sent', async () => {
      const body = { id: 'pair', body: 'emoji 😀 東京 \uFFFD', doc: { '😀': ['ok 😀'] } };
      const res = await ws.call('POST', ws.records('/notes'), { body });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(res.body.data).toMatchObject(body);
      expect((await ws.call('DELETE', ws.records('/notes/pair'))).status).toBe(204);
    });

    it('update refuses a lone surrogate in a text or json value, the row unchanged', async () => {
      for (const body of [{ body: 'changed\ud800' }, { doc: { x: ['\udc01'] } }, { doc: { '\udc01': true } }]) {
        const res = await ws.call('PUT', ws.records('/notes/kept'), { body });
        expectValidation(res, Object.keys(body)[0] ?? '', 'type');
      }
      const read = await ws.call('GET', ws.records('/notes/kept'));
      expect(read.body.data).toEqual({ id: 'kept', body: 'original', doc: { a: 1 } });
    });

    it('bulk reports each bad row in errors and writes only the good ones', async () => {
      const rows = [
        { id: 'bulk-ok', body: 'fine' },
        { id: 'bulk-text', body: 'bad\ud800' },
        { id: 'bulk-json', doc: { nested: [{ '\udbff': 1 }] } },
        { id: 'bulk-nul', doc: ['\u0000'] },
      ];
      const res = await ws.call('POST', `/api/data/bulk/${notesView}/insert`, { body: { rows } });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(res.body.data).toMatchObject({ totalCount: 4, successCount: 1, failureCount: 3 });
      const errors = res.body.data.errors as { row: number; field: string; code: string }[];
      expect(errors.map((e) => [e.row, e.field, e.code])).toEqual([
        [1, 'body', 'VALIDATION_FAILED'],
        [2, 'doc', 'VALIDATION_FAILED'],
        [3, 'doc', 'VALIDATION_FAILED'],
      ]);
      expect((await notes()).map((n) => n.code)).toEqual(['bulk-ok', 'kept']);
      await ws.db.query(`DELETE FROM ${ws.db.table('notes')} WHERE code = 'bulk-ok'`);
    });
  });

  describe('admin payloads', () => {
    const bad = ['nul\u0000inside', 'lone\ud800', '\udc00'];

    it('a column displayName with a NUL or a lone surrogate is VALIDATION_FAILED naming it; no column is added', async () => {
      const columns = async () => (await ws.call('GET', `/api/views/${notesView}/columns`)).body.data.length as number;
      const before = await columns();
      for (const displayName of bad) {
        for (const payload of [{ viewUuid: notesView, displayName, formula: '1' }, { viewUuid: notesView, displayName }]) {
          expectValidation(await ws.call('POST', '/api/columns', { body: payload }), 'displayName', 'type');
        }
      }
      const col = (await ws.call('GET', `/api/views/${notesView}/columns`)).body.data[0];
      for (const displayName of bad) expectValidation(await ws.call('PATCH', `/api/columns/item/${col.uuid}`, { body: { displayName } }), 'displayName', 'type');
      expect(await columns()).toBe(before);
      expect((await ws.call('GET', `/api/views/${notesView}/columns`)).body.data[0]).toEqual(col);
    });

    it('an org name, a view name, an RLS claim and a workspace URL are refused the same way', async () => {
      for (const value of bad) {
        expectValidation(await ws.call('POST', '/api/admin/v1/orgs', { token: ADMIN_TOKEN, body: { slug: 'hostile-org', name: value } }), 'name', 'type');
        expectValidation(await ws.call('POST', ws.admin('/views'), { token: ADMIN_TOKEN, body: { entity: 'notes', name: value } }), 'name', 'type');
        expectValidation(await ws.call('POST', `/api/views/${notesView}/rls-rules`, { body: { column: 'code', claim: value } }), 'claim', 'type');
        expectValidation(await ws.call('POST', ws.admin('/api-keys'), { token: ADMIN_TOKEN, body: { name: value } }), 'name', 'type');
        const database = { vendor: 'postgres', url: `postgres://x/${value}` };
        expectValidation(await ws.call('POST', '/api/admin/v1/orgs/acme/workspaces', { token: ADMIN_TOKEN, body: { slug: 'hostile-ws', database } }), 'database.url', 'type');
      }
      // Nothing was written: the slug is still free, no view or rule appeared.
      expect((await ws.call('POST', '/api/admin/v1/orgs', { token: ADMIN_TOKEN, body: { slug: 'hostile-org', name: 'fine' } })).status).toBe(201);
      const views = (await ws.call('GET', ws.admin('/views'), { token: ADMIN_TOKEN })).body.data as { entity: string }[];
      expect(views.filter((v) => v.entity === 'notes')).toHaveLength(1);
      expect((await ws.call('GET', `/api/views/${notesView}/rls-rules`)).body.data).toEqual([]);
    });
  });

  describe('JSON body encoding', () => {
    const raw = (text: string) => JSON.stringify({ id: text, body: 'x' });

    it('a body starting with a UTF-8 byte order mark is 400 BAD_REQUEST, on records and admin routes', async () => {
      expectError(await ws.call('POST', ws.records('/notes'), { rawBody: `\uFEFF${raw('bom')}` }), 400, 'BAD_REQUEST', 'byte order mark');
      expectError(await ws.call('POST', '/api/admin/v1/orgs', { token: ADMIN_TOKEN, rawBody: '\uFEFF{"slug":"bom-org"}' }), 400, 'BAD_REQUEST', 'byte order mark');
      expectError(await ws.call('POST', `/api/data/bulk/${notesView}/insert`, { rawBody: `\uFEFF{"rows":[${raw('bom-bulk')}]}` }), 400, 'BAD_REQUEST');
      expect((await notes()).map((n) => n.code)).toEqual(['kept']);
    });

    it.each(['latin1', 'ISO-8859-1', 'utf-16', 'UTF-16LE', 'us-ascii', 'bogus'])('charset=%s is 400 BAD_REQUEST, nothing written', async (charset) => {
      const headers = { 'content-type': `application/json; charset=${charset}` };
      expectError(await ws.call('POST', ws.records('/notes'), { rawBody: raw('cs'), headers }), 400, 'BAD_REQUEST', 'UTF-8');
      expectError(await ws.call('POST', '/api/admin/v1/orgs', { token: ADMIN_TOKEN, rawBody: '{"slug":"cs-org"}', headers }), 400, 'BAD_REQUEST', 'UTF-8');
      expect((await notes()).map((n) => n.code)).toEqual(['kept']);
    });

    /** A raw request, for bodies that are not a JS string (bytes that are not UTF-8, a compressed body). */
    const send = async (path: string, body: Buffer, headers: Record<string, string>) => {
      const response = await fetch(`${ws.url}${path}`, { method: 'POST', body, headers: { authorization: `Bearer ${ws.apiKey}`, 'content-type': 'application/json', ...headers } });
      const text = await response.text();
      return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
    };

    it('bytes that are not UTF-8 are 400 BAD_REQUEST instead of being stored as U+FFFD', async () => {
      const latin1 = Buffer.from('{"id":"café","body":"x"}', 'latin1');
      expectError(await send(ws.records('/notes'), latin1, {}), 400, 'BAD_REQUEST', 'UTF-8');
      const cesu = Buffer.concat([Buffer.from('{"id":"s","body":"'), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('"}')]);
      expectError(await send(ws.records('/notes'), cesu, {}), 400, 'BAD_REQUEST', 'UTF-8');
      expect((await notes()).map((n) => n.code)).toEqual(['kept']);
    });

    it('compressed bodies are still read, an unknown Content-Encoding is 415, an oversized body 413', async () => {
      const gzipped = gzipSync(Buffer.from(raw('zipped')));
      const res = await send(ws.records('/notes'), gzipped, { 'content-encoding': 'gzip' });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect((await ws.call('DELETE', ws.records('/notes/zipped'))).status).toBe(204);
      expectError(await send(ws.records('/notes'), Buffer.from(raw('zz')), { 'content-encoding': 'zz' }), 415, 'UNSUPPORTED_MEDIA_TYPE');
      const big = Buffer.from(JSON.stringify({ id: 'big', body: 'x'.repeat(11 * 1024 * 1024) }));
      expectError(await send(ws.records('/notes'), big, {}), 413, 'PAYLOAD_TOO_LARGE');
      expect((await notes()).map((n) => n.code)).toEqual(['kept']);
    });

    it.each(['utf-8', 'UTF-8', 'Utf8', '"utf-8"'])('charset=%s is accepted', async (charset) => {
      const code = `ok-${charset.replace(/\W/g, '')}`;
      const res = await ws.call('POST', ws.records('/notes'), { rawBody: raw(code), headers: { 'content-type': `application/json; charset=${charset}` } });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect((await ws.call('DELETE', ws.records(`/notes/${code}`))).status).toBe(204);
    });
  });
});
