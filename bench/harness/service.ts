/** The service under test, in process, with one workspace on the bench database and an API key. */
import pino from 'pino';
import { startService, type RunningService, type StartOptions } from '../../server/start.ts';
import { BENCH_SECRETS_KEY, freshControlDatabase } from './control-db.ts';

const ADMIN_TOKEN = 'wda_bench-admin-token-0123456789';
export const ORG = 'bench';
export const WS = 'shop';

export interface BenchService {
  readonly service: RunningService;
  readonly url: string;
  readonly apiKey: string;
  /** `/api/v1/{org}/{ws}` + path. */
  records(path: string): string;
}

async function adminPost(url: string, path: string, body: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const parsed = (await response.json()) as Record<string, unknown>;
  if (response.status !== 201) throw new Error(`POST ${path} answered ${response.status}: ${JSON.stringify(parsed)}`);
  return parsed;
}

/**
 * `controlDatabase` apart from the default lets a second service (in a child process, or one with
 * other `options`) run beside the first; `vendor` 'mysql' puts the workspace on the MariaDB copy of
 * the data set.
 */
export async function startBenchService(
  databaseUrl: string,
  // BENCH_CONTROL_DATABASE: another name, so that two benches on one server do not drop each other's.
  controlDatabase = process.env.BENCH_CONTROL_DATABASE ?? 'wdapi_bench_control',
  vendor: 'postgres' | 'mysql' = 'postgres',
  options: Partial<StartOptions> = {},
): Promise<BenchService> {
  const adminUrl = process.env.PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const controlDatabaseUrl = await freshControlDatabase(adminUrl, controlDatabase);
  const service = await startService({ adminToken: ADMIN_TOKEN, logger: pino({ level: 'silent' }), controlDatabaseUrl, secretsKey: BENCH_SECRETS_KEY, ...options });
  try {
    await adminPost(service.url, '/api/admin/v1/orgs', { slug: ORG, name: ORG });
    await adminPost(service.url, `/api/admin/v1/orgs/${ORG}/workspaces`, {
      slug: WS,
      name: WS,
      database: vendor === 'postgres' ? { vendor, url: databaseUrl, schema: 'public' } : { vendor, url: databaseUrl },
    });
    const key = await adminPost(service.url, `/api/admin/v1/orgs/${ORG}/workspaces/${WS}/api-keys`, { name: 'bench' });
    const apiKey = String((key.data as Record<string, unknown> | undefined)?.key);
    return { service, url: service.url, apiKey, records: (path) => `/api/v1/${ORG}/${WS}${path}` };
  } catch (error) {
    await service.close();
    throw error;
  }
}
