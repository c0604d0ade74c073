/**
 * The CSV export through COPY (dialects/postgres/postgres-copy.ts) against the row path
 * on the bench data set, byte for byte: the same requests to two workspaces over wdapi_bench, one
 * on the usual PostgreSQL driver and one on the same driver without `csvCopy`. Prints each
 * export's bytes, SHA-256 and seconds; exits 1 when any pair differs. Reads only.
 *
 *   npx tsx bench/tools/export-copy-check.ts [database url]
 */
import { createHash } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { Driver } from '../../dialects/dialect.ts';
import { createPgDriver, createPostgresDialect } from '../../dialects/postgres/index.ts';
import { ORG, startBenchService } from '../harness/service.ts';

/** harness/service.ts's admin token (not exported there). */
const ADMIN_TOKEN = 'wda_bench-admin-token-0123456789';
const databaseUrl = process.argv[2] ?? 'postgres://postgres@127.0.0.1:5432/wdapi_bench';
const QUERIES = ['', 'filter[status.eq]=paid&sort=amount,desc', 'expand=customer&fields=id,amount,orderedAt,customer.name,customer.email'];

const rowsDialect = createPostgresDialect({
  name: 'postgres-rows',
  connect: async (config): Promise<Driver> => {
    const { csvCopy: _copy, ...driver } = createPgDriver(config);
    return driver;
  },
});

async function adminPost(url: string, body: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(url, { method: 'POST', headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status} ${await response.text()}`);
  return (await response.json()) as Record<string, unknown>;
}

async function digest(url: string, apiKey: string): Promise<{ bytes: number; sha: string; seconds: number }> {
  const began = performance.now();
  const response = await fetch(url, { headers: { authorization: `Bearer ${apiKey}` } });
  if (!response.ok || !response.body) throw new Error(`${url}: HTTP ${response.status}`);
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    hash.update(chunk);
    bytes += chunk.length;
  }
  return { bytes, sha: hash.digest('hex').slice(0, 16), seconds: (performance.now() - began) / 1000 };
}

const bench = await startBenchService(databaseUrl, 'wdapi_bench_copy_check_control', 'postgres', { dialects: [rowsDialect] });
let differs = false;
try {
  const workspaces = `${bench.url}/api/admin/v1/orgs/${ORG}/workspaces`;
  await adminPost(workspaces, { slug: 'rows', name: 'rows', database: { vendor: 'postgres-rows', url: databaseUrl, schema: 'public' } });
  const key = await adminPost(`${workspaces}/rows/api-keys`, { name: 'check' });
  const rowsKey = String((key.data as Record<string, unknown> | undefined)?.key);
  for (const query of QUERIES) {
    const path = `/orders?format=csv${query ? `&${query}` : ''}`;
    const copied = await digest(`${bench.url}${bench.records(path)}`, bench.apiKey);
    const written = await digest(`${bench.url}/api/v1/${ORG}/rows${path}`, rowsKey);
    const same = copied.bytes === written.bytes && copied.sha === written.sha;
    differs ||= !same;
    console.log(`${path}\n  COPY ${copied.bytes} bytes ${copied.sha} ${copied.seconds.toFixed(1)}s\n  rows ${written.bytes} bytes ${written.sha} ${written.seconds.toFixed(1)}s  ${same ? 'identical' : 'DIFFERENT'}`);
  }
} finally {
  await bench.service.close();
}
process.exit(differs ? 1 : 0);
