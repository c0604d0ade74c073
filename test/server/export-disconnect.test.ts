/**
 * DESIGN §14 "Export": a client that disconnects stops the query. While the client holds the
 * first chunk the export's statement is open on the server (backpressure holds the rest); once it
 * goes away, no statement of the export is left running. Servers only: PGlite runs in process.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorkspace, type TestWorkspace } from '../support/harness.ts';
import { vendorsToRun } from '../support/vendors.ts';
import { pollUntil } from '../support/poll.ts';
import { fillBigTable, statementsReading } from '../support/big-table.ts';

const vendors = (await vendorsToRun()).filter((v) => v.name === 'postgres' || v.name === 'mariadb');

const TABLE = 'bigexport';



/** Opens the export, waits for its first chunk, and returns a function that drops the connection. */
function openExport(ws: TestWorkspace, path: string): Promise<{ bytes: number; drop: () => void }> {
  return new Promise((resolve, reject) => {
    const url = new URL(`${ws.url}${path}`);
    const req = request({ host: url.hostname, port: url.port, path: `${url.pathname}${url.search}`, headers: { authorization: `Bearer ${ws.apiKey}` } }, (res) => {
      res.once('data', (chunk: Buffer) => {
        res.pause();
        resolve({ bytes: chunk.length, drop: () => req.destroy() });
      });
      res.on('error', () => undefined);
    });
    req.on('error', () => undefined);
    req.on('error', reject);
    req.end();
  });
}

describe.each(vendors)('export disconnect on $name', (target) => {
  let ws: TestWorkspace;

  beforeAll(async () => {
    ws = await startWorkspace(target, { fixture: false });
    await fillBigTable(ws, TABLE);
  }, 120_000);
  afterAll(async () => ws?.close());

  it.each(['csv', 'ndjson'])('a client that goes away after the first chunk of %s leaves no statement running', async (format) => {
    const opened = await openExport(ws, ws.records(`/${TABLE}?format=${format}&sort=id`));
    expect(opened.bytes).toBeGreaterThan(0);
    // The export is held open by backpressure, not finished: its statement is still on the server.
    expect(await pollUntil(async () => (await statementsReading(ws, TABLE)) > 0, 2000)).toBe(true);
    opened.drop();
    expect(await pollUntil(async () => (await statementsReading(ws, TABLE)) === 0, 5000)).toBe(true);
  });

  // HEAD is answered by the GET route (@koa/router); Koa then ends the response without reading
  // the body, so an export opened for it must be closed all the same, or each HEAD would keep a
  // pooled connection in its statement (12 HEADs are more than the pool's 10 connections).
  it.each(['csv', 'ndjson'])('HEAD of a %s export answers its headers and leaves no statement running', async (format) => {
    const url = `${ws.url}${ws.records(`/${TABLE}?format=${format}&sort=id`)}`;
    for (let i = 0; i < 12; i++) {
      const res = await fetch(url, { method: 'HEAD', headers: { authorization: `Bearer ${ws.apiKey}` }, signal: AbortSignal.timeout(10_000) });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${TABLE}.${format}"`);
    }
    expect(await pollUntil(async () => (await statementsReading(ws, TABLE)) === 0, 5000)).toBe(true);
    const page = await ws.call('GET', ws.records(`/${TABLE}?size=1`));
    expect(page.status).toBe(200);
  });
});
