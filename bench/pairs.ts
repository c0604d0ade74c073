/**
 * Overhead pairs, each measured in the same run with interleaved rounds (figures only):
 * - computed columns (issue 3): list 20 orders through a view with 5 computed columns vs a view
 *   without; target: the computed view keeps ≥ 85% of the plain view's req/s;
 * - JWT + RLS (issue 6): list 20 orders with an external JWT and one RLS rule vs with an API key;
 *   target: p50 at most 15% higher, with a warm key cache.
 *
 *   npx tsx bench/pairs.ts [--duration 15] [--rounds 3]
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { prepareDataset } from './dataset.ts';
import { sampleHttp } from './load.ts';
import { startBenchService, type BenchService, ORG, WS } from './service.ts';
import { summarise, type Measurement, type Sample } from './stats.ts';

const ADMIN = 'wda_bench-admin-token-0123456789';
const FORMULAS = ['amount * quantity', "CONCAT(status, ' #', CAST(id AS TEXT))", 'ROUND(amount / 3, 2)', "CASE WHEN amount > 100 THEN 'big' ELSE 'small' END", "COALESCE(note, 'none')"];

interface Side {
  readonly label: string;
  readonly path: string;
  readonly token: string;
}

interface PairResult {
  readonly name: string;
  readonly a: Measurement & { label: string };
  readonly b: Measurement & { label: string };
  readonly verdict: string;
}

async function call(service: BenchService, method: string, path: string, body?: unknown): Promise<any> {
  const response = await fetch(`${service.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const parsed = await response.json();
  if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(parsed)}`);
  return parsed;
}

async function computedViews(service: BenchService): Promise<[Side, Side]> {
  const admin = `/api/admin/v1/orgs/${ORG}/workspaces/${WS}`;
  const plain = (await call(service, 'POST', `${admin}/views`, { entity: 'orders', name: `plain ${Date.now()}` })).data;
  const computed = (await call(service, 'POST', `${admin}/views`, { entity: 'orders', name: `computed ${Date.now()}` })).data;
  for (const [i, formula] of FORMULAS.entries()) await call(service, 'POST', '/api/columns', { viewUuid: computed.uuid, displayName: `Computed ${i + 1}`, formula });
  const query = '?size=20&sort=id,desc&count=none';
  return [
    { label: 'plain view', path: `/api/data/${plain.slug}${query}`, token: service.apiKey },
    { label: '5 computed', path: `/api/data/${computed.slug}${query}`, token: service.apiKey },
  ];
}

async function jwksServer(): Promise<{ url: string; token: string; server: Server }> {
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'bench', alg: 'ES256', use: 'sig' };
  const server = createServer((_req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ keys: [jwk] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const token = await new SignJWT({ status: 'paid' }).setProtectedHeader({ alg: 'ES256', kid: 'bench' }).setIssuer(url).setSubject('bench-user').setExpirationTime('2h').sign(privateKey);
  return { url, token, server };
}

async function jwtSides(service: BenchService, issuer: { url: string; token: string }): Promise<[Side, Side]> {
  const admin = `/api/admin/v1/orgs/${ORG}/workspaces/${WS}`;
  await call(service, 'PUT', `${admin}/identity-provider`, { issuerUrl: issuer.url, jwksUri: `${issuer.url}/jwks`, defaultPermissions: 'READ_ONLY', enabled: true });
  const views = (await call(service, 'GET', `${admin}/views`)).data as { uuid: string; entity: string; isDefault: boolean }[];
  const orders = views.find((v) => v.entity === 'orders' && v.isDefault);
  await call(service, 'POST', `/api/views/${orders?.uuid}/rls-rules`, { column: 'status', claim: 'status' });
  const path = service.records('/orders?size=20&sort=id,desc&count=none');
  return [
    { label: 'API key', path, token: service.apiKey },
    { label: 'JWT + RLS', path, token: issuer.token },
  ];
}

async function measure(service: BenchService, sides: [Side, Side], duration: number, rounds: number): Promise<[Measurement, Measurement]> {
  const samples: [Sample[], Sample[]] = [[], []];
  for (let round = 0; round < rounds; round++) {
    for (const [i, side] of sides.entries()) {
      samples[i]?.push(await sampleHttp({
        url: service.url, method: 'GET', path: side.path, apiKey: side.token, connections: 10,
        warmup: round === 0 ? 2 : 0, duration: duration / rounds, firstIndex: 0,
      }));
    }
  }
  return [summarise(samples[0]), summarise(samples[1])];
}

function format(results: readonly PairResult[]): string {
  const rows = results.map((r) => [r.name, r.a.label, r.a.rps.toFixed(1), r.a.p50.toFixed(2), r.b.label, r.b.rps.toFixed(1), r.b.p50.toFixed(2), r.verdict]);
  const head = ['pair', 'A', 'A req/s', 'A p50', 'B', 'B req/s', 'B p50', 'verdict'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => String(row[i]).length)));
  const line = (cells: string[]): string => cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join('  ');
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

export async function benchPairs(service: BenchService, duration: number, rounds: number): Promise<PairResult[]> {
  const results: PairResult[] = [];
  const computed = await computedViews(service);
  const [plain, withComputed] = await measure(service, computed, duration, rounds);
  const share = withComputed.rps / plain.rps;
  results.push({ name: 'computed columns', a: { ...plain, label: computed[0].label }, b: { ...withComputed, label: computed[1].label }, verdict: `${(share * 100).toFixed(0)}% of plain req/s (target >= 85%): ${share >= 0.85 ? 'PASS' : 'FAIL'}` });
  const issuer = await jwksServer();
  try {
    const sides = await jwtSides(service, issuer);
    const [key, jwt] = await measure(service, sides, duration, rounds);
    const extra = jwt.p50 / key.p50 - 1;
    results.push({ name: 'JWT + RLS', a: { ...key, label: sides[0].label }, b: { ...jwt, label: sides[1].label }, verdict: `p50 +${(extra * 100).toFixed(0)}% (target <= 15%): ${extra <= 0.15 ? 'PASS' : 'FAIL'}` });
  } finally {
    issuer.server.close();
  }
  return results;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { duration: { type: 'string' }, rounds: { type: 'string' } } });
  const duration = Number(values.duration ?? process.env.BENCH_DURATION ?? 15);
  const rounds = Number(values.rounds ?? process.env.BENCH_ROUNDS ?? 3);
  const db = await prepareDataset(process.env.PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test', 'wdapi_bench', false);
  const service = await startBenchService(db.url);
  try {
    process.stdout.write(`${format(await benchPairs(service, duration, rounds))}\n`);
  } finally {
    await service.service.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
