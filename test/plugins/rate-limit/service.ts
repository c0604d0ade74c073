/** A service with the rate limit on, one workspace on PGlite and three API keys of it. */
import { Writable } from 'node:stream';
import pino from 'pino';
import { startService, type RunningService } from '../../../server/start.ts';
import type { RateLimitOptions } from '../../../plugins/rate-limit/limiter.ts';
import { ADMIN_TOKEN, fetchJson, type ApiResponse, type CallOptions } from '../../support/harness.ts';
import { pgliteTarget, type ProvisionedDatabase } from '../../support/vendors.ts';

export interface LimitedService {
  readonly service: RunningService;
  /** Warnings and errors the service logged, one parsed line each. */
  readonly logLines: Record<string, unknown>[];
  call(method: string, path: string, options?: CallOptions): Promise<ApiResponse>;
  close(): Promise<void>;
}

export async function startLimited(rateLimit: RateLimitOptions): Promise<LimitedService> {
  const logLines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line.trim()) logLines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  // X-Forwarded-For is trusted so each test can speak from an address of its own.
  const service = await startService({ adminToken: ADMIN_TOKEN, logger: pino({ level: 'warn' }, sink), rateLimit, trustProxy: true });
  return {
    service,
    logLines,
    call: (method, path, options) => fetchJson(`${service.url}${path}`, method, options),
    close: () => service.close(),
  };
}

export interface LimitedWorkspace {
  readonly db: ProvisionedDatabase;
  readonly keys: readonly [string, string, string];
  readonly keyIds: readonly [string, string, string];
  readonly records: string;
}

/** Org `acme`, workspace `shop` with the fixture, three keys: five admin calls. */
export async function addWorkspace(limited: LimitedService): Promise<LimitedWorkspace> {
  const db = await pgliteTarget.provision(limited.service, true);
  const admin = (path: string, body: unknown) => limited.call('POST', path, { token: ADMIN_TOKEN, body });
  await admin('/api/admin/v1/orgs', { slug: 'acme', name: 'Acme' });
  await admin('/api/admin/v1/orgs/acme/workspaces', { slug: 'shop', name: 'Shop', database: db.database });
  const keys: string[] = [];
  const keyIds: string[] = [];
  for (const name of ['one', 'two', 'three']) {
    const res = await admin('/api/admin/v1/orgs/acme/workspaces/shop/api-keys', { name });
    if (res.status !== 201) throw new Error(`api key: ${res.status} ${JSON.stringify(res.body)}`);
    keys.push(String(res.body.data.key));
    keyIds.push(String(res.body.data.id));
  }
  return { db, keys: [keys[0]!, keys[1]!, keys[2]!], keyIds: [keyIds[0]!, keyIds[1]!, keyIds[2]!], records: '/api/v1/acme/shop/orders' };
}

/** A key prefix no other test uses, so counters never mix. */
export function uniquePrefix(): string {
  return `wdapi-test-${process.pid}-${Math.random().toString(36).slice(2, 10)}:`;
}
