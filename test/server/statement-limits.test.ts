/**
 * DESIGN §11 "No caller can hold the database": statements run under a time limit, a statement
 * whose client goes away is cancelled on the database (queued ones never run), and a streamed
 * answer nobody reads is cut. Each scenario ends with the pool free and a plain request answered.
 */
import { request, type ClientRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorkspace, type TestWorkspace } from '../support/harness.ts';
import { vendorsToRun } from '../support/vendors.ts';
import { pollUntil } from '../support/poll.ts';
import { fillBigTable, statementsReading } from '../support/big-table.ts';

const vendors = await vendorsToRun();
const servers = vendors.filter((v) => v.name === 'postgres' || v.name === 'mariadb');

const TABLE = 'heavy';
const STATEMENT_TIMEOUT_MS = 400;
const RESPONSE_IDLE_TIMEOUT_MS = 1000;


/** A `where` that makes every row's text 2^depth times longer: seconds of work on every vendor, no rows. */
function heavyWhere(depth: number): string {
  let text = 'pad';
  for (let i = 0; i < depth; i++) text = `REPLACE(${text}, 'x', 'xx')`;
  return encodeURIComponent(`LENGTH(${text}) = 1`);
}


function poolOf(ws: TestWorkspace): { total: number; idle: number; waiting: number } | undefined {
  return ws.service.services.workspaces.poolStats().find((p) => p.workspace === `${ws.org}/${ws.ws}`)?.stats;
}

/** Every connection back and nobody waiting. */
async function poolFree(ws: TestWorkspace, deadlineMs: number): Promise<boolean> {
  return pollUntil(async () => {
    const stats = poolOf(ws);
    return stats !== undefined && stats.waiting === 0 && stats.idle === stats.total;
  }, deadlineMs);
}

/** A GET whose client reads `readBytes` (0: nothing at all) and then stops reading, keeping or dropping the socket. */
function openGet(ws: TestWorkspace, path: string): { req: ClientRequest; firstBytes: Promise<number>; closed: Promise<void> } {
  const url = new URL(`${ws.url}${path}`);
  let resolveFirst!: (n: number) => void;
  let resolveClosed!: () => void;
  const firstBytes = new Promise<number>((resolve) => (resolveFirst = resolve));
  const closed = new Promise<void>((resolve) => (resolveClosed = resolve));
  const req = request({ host: url.hostname, port: url.port, path: `${url.pathname}${url.search}`, headers: { authorization: `Bearer ${ws.apiKey}` } }, (res) => {
    res.once('data', (chunk: Buffer) => {
      res.pause();
      resolveFirst(chunk.length);
    });
    res.on('error', () => undefined);
    res.once('close', resolveClosed);
  });
  req.on('error', () => {
    resolveFirst(0);
    resolveClosed();
  });
  req.end();
  return { req, firstBytes, closed };
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** A plain one-row read, bounded as a hang detector. */
async function plainRead(ws: TestWorkspace): Promise<number> {
  const res = await fetch(`${ws.url}${ws.records(`/${TABLE}?size=1`)}`, { headers: { authorization: `Bearer ${ws.apiKey}` }, signal: AbortSignal.timeout(10_000) });
  await res.arrayBuffer();
  return res.status;
}

const SETTINGS = { statementTimeoutMs: STATEMENT_TIMEOUT_MS, exportStatementTimeoutMs: 60_000, responseIdleTimeoutMs: RESPONSE_IDLE_TIMEOUT_MS };

describe.each(vendors.filter((v) => v.name !== 'pglite'))('statement time limit on $name', (target) => {
  let ws: TestWorkspace;
  beforeAll(async () => {
    ws = await startWorkspace(target, { fixture: false, settings: SETTINGS });
    await fillBigTable(ws, TABLE);
  }, 120_000);
  afterAll(async () => ws?.close());

  it('a read past STATEMENT_TIMEOUT_MS answers 503 QUERY_TIMEOUT naming the limit, and the pool is free', async () => {
    const res = await ws.call('GET', ws.records(`/${TABLE}?where=${heavyWhere(8)}`));
    expect(res.status, JSON.stringify(res.body)).toBe(503);
    expect(res.body.error.code).toBe('QUERY_TIMEOUT');
    expect(res.body.error.message).toContain('STATEMENT_TIMEOUT_MS');
    expect(res.body.error.message).toContain(`${STATEMENT_TIMEOUT_MS} ms`);
    expect(JSON.stringify(res.body)).not.toMatch(/canceling|statement_timeout|max_statement_time|max_execution_time|REPLACE\(/);
    expect(await poolFree(ws, 5000)).toBe(true);
    expect(await plainRead(ws)).toBe(200);
  });
});

describe.each(servers)('clients that go away on $name', (target) => {
  let ws: TestWorkspace;
  beforeAll(async () => {
    ws = await startWorkspace(target, { fixture: false, settings: { ...SETTINGS, statementTimeoutMs: 60_000 } });
    await fillBigTable(ws, TABLE);
  }, 120_000);
  afterAll(async () => ws?.close());

  it('20 CSV exports dropped while the pool is full leave the pool free', async () => {
    const started = Date.now();
    const opened = Array.from({ length: 20 }, () => openGet(ws, ws.records(`/${TABLE}?format=csv&sort=id`)));
    await sleep(1500);
    const during = poolOf(ws);
    for (const o of opened) o.req.destroy();
    expect(await poolFree(ws, 10_000), JSON.stringify(poolOf(ws))).toBe(true);
    expect(await pollUntil(async () => (await statementsReading(ws, TABLE)) === 0, 10_000)).toBe(true);
    expect(await plainRead(ws)).toBe(200);
    console.log(`[${target.name}] 20 dropped exports: pool during ${JSON.stringify(during)}, free after ${Date.now() - started} ms`);
  }, 60_000);

  it('exports whose clients read nothing are cut after RESPONSE_IDLE_TIMEOUT_MS, and the pool is free', async () => {
    const started = Date.now();
    const opened = Array.from({ length: 12 }, () => openGet(ws, ws.records(`/${TABLE}?format=csv&sort=id`)));
    expect(await pollUntil(async () => (poolOf(ws)?.idle ?? 1) === 0, 10_000), 'the exports fill the pool').toBe(true);
    // Each client keeps its socket and reads no more: the server must cut it on its own. The
    // clients cannot tell (a paused client sees the end only after reading what its socket holds),
    // so the pool says it: free only when every export, the two that queued included, was cut.
    expect(await poolFree(ws, 30_000), JSON.stringify(poolOf(ws))).toBe(true);
    expect(await plainRead(ws)).toBe(200);
    for (const o of opened) o.req.destroy();
    console.log(`[${target.name}] 12 stalled exports cut, pool free after ${Date.now() - started} ms`);
  }, 60_000);

  it('heavy list reads abandoned by their clients, queued ones included, leave no statement running', async () => {
    const started = Date.now();
    const opened = Array.from({ length: 14 }, () => openGet(ws, ws.records(`/${TABLE}?where=${heavyWhere(8)}`)));
    expect(await pollUntil(async () => (await statementsReading(ws, TABLE)) > 0, 5000)).toBe(true);
    await sleep(300);
    const during = poolOf(ws);
    for (const o of opened) o.req.destroy();
    // A killed statement lingers a moment on a busy server: a generous bound, as a hang detector.
    expect(await pollUntil(async () => (await statementsReading(ws, TABLE)) === 0, 15_000)).toBe(true);
    expect(await poolFree(ws, 5000), JSON.stringify(poolOf(ws))).toBe(true);
    expect(await plainRead(ws)).toBe(200);
    console.log(`[${target.name}] 14 abandoned reads: pool during ${JSON.stringify(during)}, none running after ${Date.now() - started} ms`);
  }, 60_000);
});
