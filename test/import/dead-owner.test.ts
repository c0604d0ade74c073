/**
 * A job whose owning process is gone is resumable at once, not after the 30 s
 * heartbeat staleness: with a PostgreSQL control store the owner's advisory lock ends with its
 * process (SIGKILL included); with the embedded store another instance id means a dead process.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../../server/start.ts';
import { ADMIN_TOKEN, fetchJson, type CallOptions, startWorkspace, TEST_SECRETS_KEY, type TestWorkspace } from '../support/harness.ts';
import { createControlDatabase, type ControlDatabase } from '../support/control-database.ts';
import { pgliteTarget, postgresTarget, vendorsToRun, type ProvisionedDatabase } from '../support/vendors.ts';
import { count, doneOf, EventReader, gatedStream, importFile, jobOf, resumeFile, sync, viewUuidOf } from '../support/import-calls.ts';

const servers = await vendorsToRun([postgresTarget]);

function rowsOf(prefix: string, from: number, to: number): string {
  let out = '';
  for (let i = from; i <= to; i++) out += `${prefix}-${i},${i}\n`;
  return out;
}

/** The service in a child process (tsx), resolved with its URL once it listens. */
async function startChild(controlUrl: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/import/service-child.ts'], {
    env: { ...process.env, CONTROL_DATABASE_URL: controlUrl, ADMIN_TOKEN, SECRETS_KEY: TEST_SECRETS_KEY },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`the service child exited with ${code}`)));
  });
  return { child, url: JSON.parse(line).url };
}

/** Enough of a TestWorkspace for the import helpers, against the service at `url`. */
function clientOf(url: string, apiKey: string, db: ProvisionedDatabase): TestWorkspace {
  return {
    url, apiKey, db,
    call: (method: string, path: string, options?: CallOptions) => fetchJson(`${url}${path}`, method, options ?? {}, apiKey),
    admin: (path: string) => `/api/admin/v1/orgs/acme/workspaces/shop${path}`,
  } as unknown as TestWorkspace;
}

async function stalledImport(url: string, apiKey: string, items: string, parts: string[]): Promise<{ jobId: string; reader: EventReader }> {
  const response = await fetch(`${url}/api/data/import/${items}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'text/csv' },
    body: gatedStream(parts),
    duplex: 'half',
  } as RequestInit);
  const reader = new EventReader(response);
  const { jobId } = await reader.waitFor((e) => e.event === 'started');
  await reader.waitFor((e) => e.event === 'progress' && e.batch === 1);
  return { jobId, reader };
}

describe.each(servers)('a job whose process was killed, control store on $name', () => {
  let control: ControlDatabase;
  let controlUrl = '';
  let db: ProvisionedDatabase;
  let child: ChildProcess | undefined;
  let second: RunningService | undefined;

  beforeAll(async () => {
    control = await createControlDatabase('wdapi_ctl');
    controlUrl = control.url;
    db = await postgresTarget.provision(undefined as unknown as RunningService, false);
    await db.query(`CREATE TABLE ${db.table('items')} (id ${db.sql.autoId}, code varchar(40) NOT NULL, qty integer NOT NULL)`);
  });
  afterAll(async () => {
    child?.kill('SIGKILL');
    await second?.close();
    await db?.drop();
    await control?.drop();
  });

  it('is INTERRUPTED as soon as a new process runs on the same control store, and resumes with 200', async () => {
    const first = await startChild(controlUrl);
    child = first.child;
    const admin = (url: string, path: string, body?: unknown) => fetchJson(`${url}${path}`, body === undefined ? 'GET' : 'POST', body === undefined ? {} : { body }, ADMIN_TOKEN);
    expect((await admin(first.url, '/api/admin/v1/orgs', { slug: 'acme', name: 'acme' })).status).toBe(201);
    expect((await admin(first.url, '/api/admin/v1/orgs/acme/workspaces', { slug: 'shop', name: 'shop', database: db.database })).status).toBe(201);
    const apiKey = String((await admin(first.url, '/api/admin/v1/orgs/acme/workspaces/shop/api-keys', { name: 't' })).body.data.key);
    const ws = clientOf(first.url, apiKey, db);
    await sync(ws);
    const items = await viewUuidOf(ws, 'items');

    // Batch 1 commits; then the body stalls and the process is killed mid-import.
    const { jobId } = await stalledImport(first.url, apiKey, items, ['code,qty\n', rowsOf('k', 1, 500), rowsOf('k', 501, 520)]);
    child.kill('SIGKILL');
    await new Promise((resolve) => child?.once('exit', resolve));

    second = await startService({ controlDatabaseUrl: controlUrl, adminToken: ADMIN_TOKEN, secretsKey: TEST_SECRETS_KEY, logger: pino({ level: 'silent' }) });
    const ws2 = clientOf(second.url, apiKey, db);
    expect(await jobOf(ws2, jobId)).toMatchObject({ state: 'INTERRUPTED', batchesDone: 1, successCount: 500 });
    const resumed = await resumeFile(ws2, jobId, `code,qty\n${rowsOf('k', 1, 700)}`);
    expect(resumed.status, JSON.stringify(resumed.body)).toBe(200);
    expect(doneOf(resumed)).toMatchObject({ totalCount: 700, successCount: 700 });
    expect(await count(ws2, 'items', "code LIKE 'k-%'")).toBe(700);
  });

  it('a job of a live process on another instance stays RUNNING and is not resumed (409)', async () => {
    const other = await startChild(controlUrl);
    try {
      const apiKeyRes = await fetchJson(`${other.url}/api/admin/v1/orgs/acme/workspaces/shop/api-keys`, 'POST', { body: { name: 'u' } }, ADMIN_TOKEN);
      const apiKey = String(apiKeyRes.body.data.key);
      const items = await viewUuidOf(clientOf(other.url, apiKey, db), 'items');
      const { jobId } = await stalledImport(other.url, apiKey, items, ['code,qty\n', rowsOf('live', 1, 500), rowsOf('live', 501, 510)]);
      const ws2 = clientOf(second!.url, apiKey, db);
      expect((await jobOf(ws2, jobId)).state).toBe('RUNNING');
      expect((await resumeFile(ws2, jobId, `code,qty\n${rowsOf('live', 1, 510)}`)).status).toBe(409);
    } finally {
      other.child.kill('SIGKILL');
    }
  });
});

describe('a RUNNING job of another instance id on the embedded control store', () => {
  let ws: TestWorkspace;
  let items: string;

  beforeAll(async () => {
    ws = await startWorkspace(pgliteTarget, { fixture: false });
    await ws.db.query(`CREATE TABLE ${ws.db.table('items')} (id ${ws.db.sql.autoId}, code varchar(40) NOT NULL, qty integer NOT NULL)`);
    await sync(ws);
    items = await viewUuidOf(ws, 'items');
  });
  afterAll(async () => ws?.close());

  it('belongs to a process that has ended (only one can open the store): INTERRUPTED at once, resumable', async () => {
    const first = doneOf(await importFile(ws, items, `code,qty\n${rowsOf('e', 1, 700)}`));
    // What a killed process leaves: RUNNING with a fresh heartbeat, batch 2 not recorded, another owner.
    await ws.db.query(`DELETE FROM ${ws.db.table('items')} WHERE qty > 500`);
    await ws.service.embedded.query(`DELETE FROM wdapi_control.import_batches WHERE job_id = $1 AND batch = 2`, [first.jobId]);
    await ws.service.embedded.query(`UPDATE wdapi_control.import_jobs SET state = 'RUNNING', batches_done = 1, total_count = 500, success_count = 500,
      heartbeat_at = now(), owner_instance = gen_random_uuid()::text WHERE id = $1`, [first.jobId]);
    expect(await jobOf(ws, first.jobId)).toMatchObject({ state: 'INTERRUPTED', batchesDone: 1 });
    expect(doneOf(await resumeFile(ws, first.jobId, `code,qty\n${rowsOf('e', 1, 700)}`))).toMatchObject({ totalCount: 700, successCount: 700 });
    expect(await count(ws, 'items', "code LIKE 'e-%'")).toBe(700);
  });

  it('a RUNNING job of this very process stays RUNNING (409) while its heartbeat is fresh', async () => {
    const first = doneOf(await importFile(ws, items, `code,qty\n${rowsOf('own', 1, 10)}`));
    await ws.service.embedded.query(`UPDATE wdapi_control.import_jobs SET state = 'RUNNING', heartbeat_at = now() WHERE id = $1`, [first.jobId]);
    expect((await jobOf(ws, first.jobId)).state).toBe('RUNNING');
    expect((await resumeFile(ws, first.jobId, `code,qty\n${rowsOf('own', 1, 10)}`)).status).toBe(409);
  });
});
