/**
 * A/B tool for the CPU one request costs the service against the Koa floor (not part of
 * `npm run bench`):
 *
 *   SC=G N=15000 npx tsx bench/tools/one-at-a-time.ts      (SC: A-none, B-none, C, D or G)
 *
 * Both servers and the client run in this process. Requests go one at a time, alternating between
 * the two, and each one's CPU is this process's CPU across it (client work included, the same on
 * both sides). A pair runs within a millisecond, so a change in the machine's speed moves both of
 * its halves: the trimmed mean of the pairs' differences moved by ±3 µs from run to run,
 * where side-by-side.ts moved by ±20 µs. Between two requests the process waits on the
 * database, so every request runs on cold caches, as a request does under light load: costs show
 * here that a hot loop hides (the API key check cost ~9 µs here against ~2 µs in a loop).
 */
import http from 'node:http';
import { captureFloorSql, createFloorPool } from '../floors/sql.ts';
import { startKoaFloor } from '../floors/koa.ts';
import { prepareDataset } from '../harness/dataset.ts';
import { CAPTURE_ID, SCENARIOS } from '../harness/requests.ts';
import { WHERE_PATH } from '../scenarios/where.ts';
import { startBenchService } from '../harness/service.ts';
import { median } from '../harness/stats.ts';

const scenarioId = process.env.SC ?? 'G';
const pairs = Number(process.env.N ?? 15_000);
const scenario = scenarioId === 'G' ? { method: 'GET', path: WHERE_PATH } : SCENARIOS.find((s) => s.id === scenarioId);
if (!scenario || scenario.method !== 'GET') throw new Error(`SC=${scenarioId}: one of A-none, B-none, C or G (GET scenarios)`);

// PG_URL: the admin connection, as for `npm run bench`.
const dataset = await prepareDataset(process.env.PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test', 'wdapi_bench', false);
const service = await startBenchService(dataset.url);
const floor = await startKoaFloor(createFloorPool(dataset.url), await captureFloorSql(service));
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const path = service.records(scenario.path.replace('{id}', String(CAPTURE_ID)));

function get(base: string): Promise<string> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const request = http.request({ host: hostname, port, path, agent, headers: { authorization: `Bearer ${service.apiKey}` } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve(Buffer.concat(chunks).toString()));
    });
    request.on('error', reject);
    request.end();
  });
}

function cpuMicros(): number {
  const { user, system } = process.cpuUsage();
  return user + system;
}

/** The mean of the middle 80%: a request the machine stalled is set aside on either side. */
function trimmedMean(values: number[]): number {
  const sorted = values.slice().sort((a, b) => a - b);
  const middle = sorted.slice(Math.floor(sorted.length * 0.1), Math.ceil(sorted.length * 0.9));
  return middle.reduce((sum, v) => sum + v, 0) / middle.length;
}

/** The CPU of `[first, second]` run one after the other. */
async function timedPair(first: string, second: string): Promise<[number, number]> {
  const start = cpuMicros();
  await get(first);
  const between = cpuMicros();
  await get(second);
  return [between - start, cpuMicros() - between];
}

if ((await get(service.url)) !== (await get(floor.url))) throw new Error('the service and the floor answer differently');
for (let i = 0; i < 3000; i++) await timedPair(service.url, floor.url);
const ours: number[] = [];
const theirs: number[] = [];
for (let i = 0; i < pairs; i++) {
  // Each side goes first in every other pair.
  const [a, b] = await timedPair(i % 2 ? floor.url : service.url, i % 2 ? service.url : floor.url);
  ours.push(i % 2 ? b : a);
  theirs.push(i % 2 ? a : b);
}
const gaps = ours.map((cpu, i) => cpu - (theirs[i] ?? 0));
console.log(`${scenarioId}: service ${trimmedMean(ours).toFixed(1)} µs, floor ${trimmedMean(theirs).toFixed(1)} µs a request (client included); gap trimmed mean ${trimmedMean(gaps).toFixed(1)} µs, median ${median(gaps)} µs`);
agent.destroy();
await floor.close();
await service.service.close();
process.exit(0);
