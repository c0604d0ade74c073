/**
 * One side of side-by-side.ts in a process of its own: the bench service, or the Koa floor
 * (which replays SQL captured from a bench service of its own, idle afterwards, so both processes
 * carry the same background work). Tells the parent where it listens over IPC; exits when told.
 *
 * Not harness/service-process.ts: its child samples RSS every 10 ms (CPU the floor's process would not
 * spend) and it has no floor side; here both sides are built alike.
 */
import { prepareDataset } from '../harness/dataset.ts';
import { captureFloorSql, createFloorPool } from '../floors/sql.ts';
import { startKoaFloor } from '../floors/koa.ts';
import { startBenchService } from '../harness/service.ts';

export interface SideInfo {
  readonly url: string;
  readonly apiKey: string;
  /** The service's record path prefix, `/api/v1/{org}/{ws}`. */
  readonly records: string;
  /** The bench data set's database. */
  readonly databaseUrl: string;
}

const mode = process.argv[2];
// PG_URL: the admin connection, as for `npm run bench`.
const adminUrl = process.env.PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const db = await prepareDataset(adminUrl, 'wdapi_bench', false);
const service = await startBenchService(db.url);
let url = service.url;
if (mode === 'koa') url = (await startKoaFloor(createFloorPool(db.url), await captureFloorSql(service))).url;
process.send?.({ url, apiKey: service.apiKey, records: service.records(''), databaseUrl: db.url } satisfies SideInfo);
process.on('message', () => process.exit(0));
