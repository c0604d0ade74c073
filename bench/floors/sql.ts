/**
 * The floors' SQL: the statements the service emitted (captured once per shape) replayed on a
 * bare `pg` Pool configured like the service's (size 10, UTC sessions, same type parsers),
 * with parameters bound by hand the way a hand-written route would bind them.
 */
import pg from 'pg';
import { postgresTextParsers } from '../../dialects/postgres/postgres-types.ts';
import { captureStatements, type CapturedStatement } from '../harness/capture-sql.ts';
import { CAPTURE_ID, SCENARIOS, type ScenarioId } from '../harness/requests.ts';
import type { BenchService } from '../harness/service.ts';

export interface FloorSql {
  readonly page: string;
  readonly pageExpanded: string;
  readonly count: string;
  /** `EXPLAIN (FORMAT JSON) SELECT 1 FROM …`, as the dialect's estimateRows sends it. */
  readonly estimate: string;
  readonly byId: string;
  /** `WITH written AS (INSERT … RETURNING *) SELECT <get-by-id shape> FROM written …`. */
  readonly insert: string;
  readonly estimateThreshold: number;
}

export type Row = Record<string, unknown>;
export type CountMode = 'none' | 'exact' | 'estimated';

export function createFloorPool(url: string): pg.Pool {
  const types = {
    getTypeParser(oid: number, format?: string): (text: string) => unknown {
      const custom = postgresTextParsers[oid];
      if (custom && format !== 'binary') return custom;
      return pg.types.getTypeParser(oid, (format ?? 'text') as 'text') as (text: string) => unknown;
    },
  };
  const pool = new pg.Pool({ connectionString: url, max: 10, options: '-c TimeZone=UTC', types });
  pool.on('error', () => undefined);
  return pool;
}

function statementsOf(id: ScenarioId, statements: CapturedStatement[], expected: number): CapturedStatement[] {
  if (statements.length !== expected) {
    throw new Error(`scenario ${id}: expected ${expected} statements, the service sent ${statements.length}: ${statements.map((s) => s.text).join(' | ')}`);
  }
  return statements;
}

async function capture(service: BenchService, id: ScenarioId, expected: number): Promise<CapturedStatement[]> {
  const scenario = SCENARIOS.find((s) => s.id === id);
  if (!scenario) throw new Error(`unknown scenario ${id}`);
  const path = service.records(scenario.path.replace('{id}', String(CAPTURE_ID)));
  const captured = await captureStatements(service, { method: scenario.method, path, ...(scenario.body ? { body: scenario.body } : {}) });
  if (captured.status >= 300) throw new Error(`scenario ${id}: the service answered ${captured.status}: ${JSON.stringify(captured.body)}`);
  return statementsOf(id, captured.statements, expected);
}

function textAt(statements: CapturedStatement[], index: number): string {
  const statement = statements[index];
  if (!statement) throw new Error(`statement ${index} was not captured`);
  return statement.text;
}

/** One request per shape through the service, recording what reached the database. */
export async function captureFloorSql(service: BenchService): Promise<FloorSql> {
  const a = await capture(service, 'A-none', 1);
  const exact = await capture(service, 'B-exact', 2);
  const estimated = await capture(service, 'B-estimated', 2);
  const c = await capture(service, 'C', 1);
  // The service inserts the order and reads it back in one statement.
  const d = await capture(service, 'D', 1);
  if (!textAt(d, 0).includes(INSERT_COLUMNS)) throw new Error(`scenario D: the INSERT no longer lists ${INSERT_COLUMNS}: ${textAt(d, 0)}`);
  return {
    page: textAt(a, 0),
    pageExpanded: textAt(exact, 0),
    count: textAt(exact, 1),
    estimate: textAt(estimated, 1),
    byId: textAt(c, 0),
    insert: textAt(d, 0),
    estimateThreshold: service.service.services.settings.countEstimateThreshold,
  };
}

function planRows(rows: Row[]): number | null {
  const plan = rows[0]?.['QUERY PLAN'];
  const parsed = (typeof plan === 'string' ? JSON.parse(plan) : plan) as { Plan?: { 'Plan Rows'?: number } }[] | undefined;
  const value = parsed?.[0]?.Plan?.['Plan Rows'];
  return typeof value === 'number' ? value : null;
}

async function countOrders(pool: pg.Pool, sql: FloorSql, mode: CountMode): Promise<{ total: number | null; mode: CountMode }> {
  if (mode === 'none') return { total: null, mode };
  if (mode === 'estimated') {
    const estimate = planRows((await pool.query(sql.estimate)).rows as Row[]);
    if (estimate !== null && estimate > sql.estimateThreshold) return { total: Math.round(estimate), mode };
  }
  const rows = (await pool.query(sql.count)).rows as Row[];
  return { total: Number(rows[0]?.total ?? 0), mode: 'exact' };
}

export interface ListResult {
  readonly rows: Row[];
  readonly total: number | null;
  readonly mode: CountMode;
}

/** The page and the count concurrently, as the service runs them. */
export async function listOrders(pool: pg.Pool, sql: FloorSql, expand: boolean, count: CountMode, size: number, page: number): Promise<ListResult> {
  const [result, counted] = await Promise.all([
    pool.query(expand ? sql.pageExpanded : sql.page, [size, page * size]),
    countOrders(pool, sql, count),
  ]);
  return { rows: result.rows as Row[], total: counted.total, mode: counted.mode };
}

export async function getOrder(pool: pg.Pool, sql: FloorSql, id: number): Promise<Row | undefined> {
  return (await pool.query(sql.byId, [id, 1, 0])).rows[0] as Row | undefined;
}

/** The insert that answers the stored record in the read shape (the service's one statement). */
export async function createOrder(pool: pg.Pool, sql: FloorSql, values: readonly unknown[]): Promise<Row | undefined> {
  return (await pool.query(sql.insert, [...values])).rows[0] as Row | undefined;
}

/** The column order `insertValues` binds for; checked against the captured INSERT. */
const INSERT_COLUMNS = '("customer_id", "amount", "status", "ordered_at", "created_at", "updated_at")';

/** Insert parameters in the captured column order (see INSERT_COLUMNS); timestamps set now, as the service does. */
export function insertValues(body: Row): unknown[] {
  const now = new Date().toISOString();
  return [body.customerId, body.amount, body.status, new Date(String(body.orderedAt)).toISOString(), now, now];
}
