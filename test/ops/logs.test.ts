/**
 * Logs an operator can use: the level follows the status, a failed workspace
 * connection's cause is in the request's line (never in the answer), and a streamed import's line
 * is written when the stream ends, with its real duration.
 */
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../../server/start.ts';
import { ADMIN_TOKEN, fetchJson } from '../support/harness.ts';
import mysql from 'mysql2/promise';
import { MYSQL_ADMIN_URL, mariadbTarget } from '../support/mysql-target.ts';
import { postgresTarget, vendorsToRun, type ProvisionedDatabase } from '../support/vendors.ts';
import { sinkInto, type LogLine } from '../support/log-lines.ts';

type Line = LogLine;

/** The request line of a response, once the service has written it. */
async function lineOf(lines: Line[], requestId: string | null): Promise<Line | undefined> {
  for (let i = 0; i < 50; i++) {
    const line = lines.find((l) => l.requestId === requestId && l.msg !== undefined && 'status' in l);
    if (line) return line;
    await new Promise((r) => setTimeout(r, 20));
  }
  return undefined;
}

describe('request log levels and the streamed import line', () => {
  const lines: Line[] = [];
  let service: RunningService;
  let key: string;

  beforeAll(async () => {
    service = await startService({ adminToken: ADMIN_TOKEN, logger: pino({ level: 'info' }, sinkInto(lines)), demo: true });
    key = service.demo?.apiKey ?? '';
  });
  afterAll(async () => service?.close());

  it('2xx and 4xx are info', async () => {
    for (const [path, token, status] of [['/api/v1/demo/demo/orders?size=1', key, 200], ['/api/v1/demo/demo/orders', null, 401], ['/no/such/route', key, 404]] as const) {
      const res = await fetchJson(`${service.url}${path}`, 'GET', { token });
      expect(res.status).toBe(status);
      expect(await lineOf(lines, res.headers.get('x-request-id'))).toMatchObject({ level: 30, status });
    }
  });

  it("a streamed import's line is written when the stream ends and gives its whole duration", async () => {
    const views = await fetchJson(`${service.url}/api/admin/v1/orgs/demo/workspaces/demo/views`, 'GET', {}, ADMIN_TOKEN);
    const regions = (views.body.data as { uuid: string; entity: string; isDefault: boolean }[]).find((v) => v.entity === 'regions' && v.isDefault);
    const encoder = new TextEncoder();
    let push: (text: string | null) => void = () => undefined;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        push = (text) => (text === null ? controller.close() : controller.enqueue(encoder.encode(text)));
      },
    });
    const pending = fetch(`${service.url}/api/data/import/${regions?.uuid}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'text/csv' },
      body,
      duplex: 'half',
    } as RequestInit);
    push('name\nLogged 1\n');
    const response = await pending;
    expect(response.status).toBe(200);
    await new Promise((r) => setTimeout(r, 1200));
    push('Logged 2\n');
    push(null);
    expect(await response.text()).toMatch(/"event":"done"/);
    const line = await lineOf(lines, response.headers.get('x-request-id'));
    expect(line).toMatchObject({ level: 30, status: 200, method: 'POST' });
    expect(line?.durationMs).toBeGreaterThanOrEqual(1200);
  });
});

const servers = await vendorsToRun([postgresTarget, mariadbTarget]);

/**
 * Makes every read of orders fail with an error no mapper knows (a missing table or column is a
 * known one: SCHEMA_OUT_OF_SYNC). The table becomes a view that raises (PostgreSQL) or whose base
 * table is gone (MariaDB, "View … references invalid table(s)").
 */
async function breakOrdersReads(vendor: string, db: ProvisionedDatabase): Promise<void> {
  await db.query(`ALTER TABLE ${db.table('orders')} RENAME TO orders_base`);
  if (vendor === 'mariadb') {
    await db.query(`CREATE VIEW ${db.table('orders')} AS SELECT * FROM ${db.table('orders_base')}`);
    await db.query(`DROP TABLE ${db.table('orders_base')}`);
    return;
  }
  await db.query(`CREATE FUNCTION fail_read() RETURNS int LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'orders cannot be read'; END $$`);
  await db.query(`CREATE VIEW ${db.table('orders')} AS SELECT b.* FROM ${db.table('orders_base')} b WHERE fail_read() = 1`);
}

/** MariaDB keeps sessions on a dropped database open (PostgreSQL's forced drop ends them): end them. */
async function endSessions(vendor: string, database: string): Promise<void> {
  if (vendor !== 'mariadb') return;
  const admin = await mysql.createConnection(MYSQL_ADMIN_URL);
  try {
    const [rows] = await admin.query('SELECT id FROM information_schema.processlist WHERE db = ?', [database]);
    for (const row of rows as { id: number }[]) await admin.query(`KILL ${Number(row.id)}`).catch(() => undefined);
  } finally {
    await admin.end();
  }
}

describe.each(servers)('a workspace database that is gone on $name', (target) => {
  const lines: Line[] = [];
  let service: RunningService;
  let db: ProvisionedDatabase;
  let key: string;

  beforeAll(async () => {
    service = await startService({ adminToken: ADMIN_TOKEN, logger: pino({ level: 'info' }, sinkInto(lines)) });
    db = await target.provision(service, true);
    const admin = (path: string, body: unknown) => fetchJson(`${service.url}${path}`, 'POST', { body }, ADMIN_TOKEN);
    await admin('/api/admin/v1/orgs', { slug: 'logs', name: 'logs' });
    expect((await admin('/api/admin/v1/orgs/logs/workspaces', { slug: 'gone', name: 'gone', database: db.database })).status).toBe(201);
    key = String((await admin('/api/admin/v1/orgs/logs/workspaces/gone/api-keys', {})).body.data.key);
  });
  afterAll(async () => {
    await db?.drop().catch(() => undefined);
    await service?.close();
  });

  it('creating a workspace on a database that cannot be reached or does not exist is 400, not 503', async () => {
    const url = new URL(String(db.database.url));
    const missing = new URL(url);
    missing.pathname = '/wdapi_no_such_database';
    const refused = new URL(url);
    refused.port = '1';
    for (const [slug, where] of [['missing', missing], ['refused', refused]] as const) {
      const res = await fetchJson(`${service.url}/api/admin/v1/orgs/logs/workspaces`, 'POST', { body: { slug, name: slug, database: { vendor: db.database.vendor, url: where.toString() } } }, ADMIN_TOKEN);
      expect(res.status, slug).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_FAILED');
    }
  });

  it('an unexpected database error is 500 with the request id only, logged at error with the cause', async () => {
    await breakOrdersReads(target.name, db);
    const res = await fetchJson(`${service.url}/api/v1/logs/gone/orders`, 'GET', {}, key);
    expect(res.status).toBe(500);
    expect(res.body.error).toEqual({ code: 'INTERNAL_ERROR', message: `internal error; request id ${res.headers.get('x-request-id')}` });
    const line = await lineOf(lines, res.headers.get('x-request-id'));
    expect(line).toMatchObject({ level: 50, status: 500 });
    expect(JSON.stringify(line?.err)).toMatch(/orders/);
  });

  it('answers 503 without the cause, and logs the cause at warn in the request line', async () => {
    expect((await fetchJson(`${service.url}/api/v1/logs/gone/customers?size=1`, 'GET', {}, key)).status).toBe(200);
    await db.drop(); // DROP DATABASE: new connections fail with "database does not exist"
    await endSessions(target.name, new URL(String(db.database.url)).pathname.slice(1));
    let res = await fetchJson(`${service.url}/api/v1/logs/gone/customers?size=1`, 'GET', {}, key);
    for (let i = 0; i < 5 && res.status === 200; i++) res = await fetchJson(`${service.url}/api/v1/logs/gone/customers?size=1`, 'GET', {}, key);
    res = await fetchJson(`${service.url}/api/v1/logs/gone/customers?size=1`, 'GET', {}, key);
    expect(res.status).toBe(503);
    expect(res.body.error.code).toBe('SERVICE_UNAVAILABLE');
    expect(JSON.stringify(res.body)).not.toMatch(/database "|Unknown database|3D000|1049|wdapi_/);
    const line = await lineOf(lines, res.headers.get('x-request-id'));
    expect(line).toMatchObject({ level: 40, status: 503 });
    expect(JSON.stringify(line?.err)).toMatch(/3D000|does not exist|1049|Unknown database/);
  });
});
