/**
 * A real service on a random loopback port, with one workspace on the chosen vendor.
 * Tests talk HTTP to it and may inspect the workspace database directly.
 */
import pino, { type Logger } from 'pino';
import type { EmbeddedThread } from '../../dialects/postgres/index.ts';
import type { ServiceSettings } from '../../server/shared/services.ts';
import { startService, type RunningService } from '../../server/start.ts';
import { type ProvisionedDatabase, type VendorTarget } from './vendors.ts';

export const ADMIN_TOKEN = 'wda_test-admin-token-0123456789';

/**
 * Settings every test service starts with: the test identity providers listen on 127.0.0.1, so
 * the private-address rule's opt-in (IDP_ALLOW_PRIVATE) is on unless a test turns it off.
 */
export const TEST_SETTINGS = { idpAllowPrivate: true } as const;

/** SECRETS_KEY of services the tests start on a shared control store (required there). */
export const TEST_SECRETS_KEY = '5ec7e75ec7e75ec7e75ec7e75ec7e75ec7e75ec7e75ec7e75ec7e75ec7e75ec7';

export interface ApiResponse {
  status: number;
  headers: Headers;
  body: any;
}

export interface CallOptions {
  body?: unknown;
  /** Raw body text (for malformed JSON tests). */
  rawBody?: string;
  token?: string | null;
  headers?: Record<string, string>;
  /** Aborts the request (a client that goes away). */
  signal?: AbortSignal;
}

export interface TestWorkspace {
  readonly service: RunningService;
  readonly db: ProvisionedDatabase;
  readonly url: string;
  readonly org: string;
  readonly ws: string;
  readonly apiKey: string;
  readonly vendor: string;
  /** Calls the API with the workspace's API key unless `token` says otherwise (null: none). */
  call(method: string, path: string, options?: CallOptions): Promise<ApiResponse>;
  /** `/api/v1/{org}/{ws}` + path. */
  records(path: string): string;
  admin(path: string): string;
  close(): Promise<void>;
}

export async function fetchJson(url: string, method: string, options: CallOptions = {}, defaultToken?: string): Promise<ApiResponse> {
  const token = options.token === undefined ? defaultToken : options.token;
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  if (token) headers.authorization = `Bearer ${token}`;
  let body: string | undefined;
  if (options.rawBody !== undefined) body = options.rawBody;
  else if (options.body !== undefined) body = JSON.stringify(options.body);
  if (body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json';
  const response = await fetch(url, { method, headers, ...(body !== undefined ? { body } : {}), ...(options.signal ? { signal: options.signal } : {}) });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // Non-JSON bodies are returned as text so the test can say what it got.
  }
  return { status: response.status, headers: response.headers, body: parsed };
}

export interface WorkspaceOptions {
  fixture?: boolean;
  org?: string;
  ws?: string;
  /** The service's logger (a test that reads the log passes one with its own destination). */
  logger?: Logger;
  settings?: Partial<ServiceSettings>;
  /** Where the embedded PGlite runs; absent: the suite's default (vitest.config.ts). */
  embeddedThread?: EmbeddedThread;
  /** CONCURRENT_PER_CREDENTIAL; absent: not limited (as startService). */
  concurrentPerCredential?: number;
}

export async function startWorkspace(target: VendorTarget, options: WorkspaceOptions = {}): Promise<TestWorkspace> {
  const service = await startService({ adminToken: ADMIN_TOKEN, logger: options.logger ?? pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }), settings: { ...TEST_SETTINGS, ...options.settings }, ...(target.dialects ? { dialects: target.dialects } : {}), ...(options.embeddedThread ? { embeddedThread: options.embeddedThread } : {}), ...(options.concurrentPerCredential ? { concurrentPerCredential: options.concurrentPerCredential } : {}) });
  const db = await target.provision(service, options.fixture ?? true);
  const org = options.org ?? 'acme';
  const ws = options.ws ?? 'shop';
  const adminCall = (path: string, body: unknown) => fetchJson(`${service.url}${path}`, 'POST', { body }, ADMIN_TOKEN);
  const orgRes = await adminCall('/api/admin/v1/orgs', { slug: org, name: org });
  if (orgRes.status !== 201) throw new Error(`org creation failed: ${JSON.stringify(orgRes.body)}`);
  const wsRes = await adminCall(`/api/admin/v1/orgs/${org}/workspaces`, { slug: ws, name: ws, database: db.database });
  if (wsRes.status !== 201) throw new Error(`workspace creation failed: ${JSON.stringify(wsRes.body)}`);
  const keyRes = await adminCall(`/api/admin/v1/orgs/${org}/workspaces/${ws}/api-keys`, { name: 'test' });
  const apiKey = String(keyRes.body?.data?.key);
  return {
    service,
    db,
    url: service.url,
    org,
    ws,
    apiKey,
    vendor: target.name,
    call: (method, path, callOptions) => fetchJson(`${service.url}${path}`, method, callOptions, apiKey),
    records: (path) => `/api/v1/${org}/${ws}${path}`,
    admin: (path) => `/api/admin/v1/orgs/${org}/workspaces/${ws}${path}`,
    async close() {
      // Drop first: the embedded database lives inside the service.
      await db.drop();
      await service.close();
    },
  };
}
