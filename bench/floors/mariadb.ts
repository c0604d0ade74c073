/**
 * The MariaDB floors (scenario M): the statements the service sends to its MariaDB workspace for
 * the list scenarios, captured once and replayed on a bare mysql2 pool configured like the
 * service's driver (prepared statements, dates as text, decimals as strings), both raw and
 * behind a hand-written Koa route that shapes the same JSON as the service.
 */
import Router from '@koa/router';
import mysql from 'mysql2/promise';
import { captureStatements, type CapturedStatement } from '../harness/capture-sql.ts';
import { orderShapes, serveFloor, type KoaFloor } from './koa.ts';
import type { CountMode, Row } from './sql.ts';
import { SCENARIOS, type Scenario, type ScenarioId } from '../harness/requests.ts';
import { ORG, WS, type BenchService } from '../harness/service.ts';

/** The list statements with the parameters the service bound for the bench's one page shape. */
export interface MariaSql {
  readonly page: CapturedStatement;
  readonly pageExpanded: CapturedStatement;
  readonly count: CapturedStatement;
}

export const MARIA_SCENARIOS: readonly ScenarioId[] = ['A', 'A-none', 'B-none'];

export function createMariaPool(url: string): mysql.Pool {
  const pool = mysql.createPool({
    uri: url, connectionLimit: 10, charset: 'utf8mb4_unicode_ci', timezone: 'Z', dateStrings: true,
    supportBigNumbers: true, bigNumberStrings: true, decimalNumbers: false, jsonStrings: true, maxPreparedStatements: 256,
  });
  pool.on('connection', (connection) => void connection.query("SET SESSION time_zone = '+00:00'"));
  return pool;
}

async function capture(service: BenchService, id: ScenarioId, expected: number): Promise<CapturedStatement[]> {
  const scenario = SCENARIOS.find((s) => s.id === id);
  if (!scenario) throw new Error(`unknown scenario ${id}`);
  const captured = await captureStatements(service, { method: scenario.method, path: service.records(scenario.path) });
  if (captured.status !== 200) throw new Error(`MariaDB ${id}: the service answered ${captured.status}: ${JSON.stringify(captured.body)}`);
  if (captured.statements.length !== expected) {
    throw new Error(`MariaDB ${id}: expected ${expected} statements, the service sent ${captured.statements.map((s) => s.text).join(' | ')}`);
  }
  return captured.statements;
}

export async function captureMariaSql(service: BenchService): Promise<MariaSql> {
  const [page] = await capture(service, 'A-none', 1);
  const [pageExpanded] = await capture(service, 'B-none', 1);
  const exact = await capture(service, 'A', 2);
  const count = exact.find((s) => s.text !== page?.text);
  if (!page || !pageExpanded || !count) throw new Error('MariaDB: a list statement was not captured');
  return { page, pageExpanded, count };
}

async function run(pool: mysql.Pool, statement: CapturedStatement): Promise<Row[]> {
  const [rows] = await pool.execute(statement.text, statement.params as never);
  return rows as Row[];
}

/** The page and the count concurrently, as the service runs them. */
export async function listMariaOrders(pool: mysql.Pool, sql: MariaSql, expand: boolean, count: CountMode): Promise<{ rows: Row[]; total: number | null }> {
  const [rows, counted] = await Promise.all([
    run(pool, expand ? sql.pageExpanded : sql.page),
    count === 'none' ? null : run(pool, sql.count),
  ]);
  return { rows, total: counted ? Number(counted[0]?.total ?? 0) : null };
}

export function mariaWork(pool: mysql.Pool, sql: MariaSql, scenario: Scenario): () => Promise<unknown> {
  const expand = scenario.group === 'B';
  const count: CountMode = scenario.id === 'A' ? 'exact' : 'none';
  return () => listMariaOrders(pool, sql, expand, count);
}

/**
 * DATETIME(3) text in UTC as the service prints it. The binary protocol leaves out a zero
 * fraction ('2021-01-01 00:00:30'), so the milliseconds are put back.
 */
function iso(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const text = value.replace(' ', 'T');
  return text.includes('.') ? `${text}Z` : `${text}.000Z`;
}

const { orderJson, expandedOrderJson } = orderShapes({
  time: iso,
  num: (value) => (value === null ? null : Number(value)),
  bool: (value) => (value === null ? null : Number(value) === 1),
});

export function startMariaKoaFloor(pool: mysql.Pool, sql: MariaSql): Promise<KoaFloor> {
  const router = new Router({ prefix: `/api/v1/${ORG}/${WS}` });
  router.get('/orders', async (ctx) => {
    const size = Number(ctx.query.size ?? 20);
    const page = Number(ctx.query.page ?? 0);
    const expand = ctx.query.expand === 'customer,customer.region';
    const count: CountMode = ctx.query.count === 'none' ? 'none' : 'exact';
    const { rows, total } = await listMariaOrders(pool, sql, expand, count);
    ctx.body = {
      data: rows.map(expand ? expandedOrderJson : orderJson),
      meta: { page, size, totalElements: total, totalPages: total === null ? null : Math.ceil(total / size), countMode: count },
    };
  });
  return serveFloor(router);
}
