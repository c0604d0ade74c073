/**
 * Bulk benchmark: 1000-row bulk requests, INSERT and then UPDATE upsert of the same
 * rows, against the same rows as one raw multi-row INSERT per 1000 rows on a bare pg pool (one
 * connection, as each side runs one request or statement at a time). The targets take turns in
 * rounds so that a change in background load hits all of them alike.
 *
 * Also printed, not judged: the raw multi-row upsert (INSERT … ON CONFLICT DO UPDATE) of rows
 * that exist, the database's own cost of what the UPDATE requests do.
 */
import http from 'node:http';
import pg from 'pg';
import { COLUMNS, rowObjects } from './import-data.ts';

export interface BulkBenchResult {
  readonly rows: number;
  readonly rounds: number;
  readonly rawInsertRowsPerSecond: number;
  readonly rawUpsertRowsPerSecond: number;
  readonly insertRowsPerSecond: number;
  readonly updateRowsPerSecond: number;
  readonly insertRatio: number;
  readonly updateRatio: number;
}

export interface BulkTarget {
  readonly url: string;
  readonly apiKey: string;
  /** Default view of a table created with TABLE_DDL. */
  readonly view: string;
  readonly database: string;
  /** Another table of the same shape, for the raw statements. */
  readonly rawTable: string;
}

const BATCH = 1000;

/** POST of a prepared JSON body over a kept-alive connection: the client's own cost stays out of the figure. */
function postJson(agent: http.Agent, target: BulkTarget, path: string, body: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = http.request(`${target.url}${path}`, {
      method: 'POST', agent,
      headers: { authorization: `Bearer ${target.apiKey}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
    }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => (response.statusCode === 201 ? resolve() : reject(new Error(`bulk answered ${response.statusCode}: ${Buffer.concat(chunks).toString().slice(0, 300)}`))));
    });
    request.on('error', reject);
    request.end(body);
  });
}

function rawStatement(table: string, from: number, upsert: boolean): { text: string; params: unknown[] } {
  const params: unknown[] = [];
  const tuples = rowObjects(from, BATCH, 'RAW').map((r) => `(${COLUMNS.map((c) => `$${params.push(r[c])}`).join(', ')})`);
  const onConflict = upsert ? ` ON CONFLICT (sku) DO UPDATE SET ${COLUMNS.filter((c) => c !== 'sku').map((c) => `${c} = EXCLUDED.${c}`).join(', ')}` : '';
  return { text: `INSERT INTO ${table} (${COLUMNS.join(', ')}) VALUES ${tuples.join(', ')}${onConflict}`, params };
}

/** Everything sent is built before the clock starts: SQL text and parameters, JSON bodies. */
function prepareRound(target: BulkTarget, firstRow: number, batches: number) {
  const starts = Array.from({ length: batches }, (_, b) => firstRow + b * BATCH);
  return {
    rawInserts: starts.map((from) => rawStatement(target.rawTable, from, false)),
    rawUpserts: starts.map((from) => rawStatement(target.rawTable, from, true)),
    inserts: starts.map((from) => JSON.stringify({ rows: rowObjects(from, BATCH, 'BLK') })),
    updates: starts.map((from) => JSON.stringify({
      rows: rowObjects(from, BATCH, 'BLK').map((r) => ({ ...r, qty: Number(r.qty) + 1 })),
      onConflict: 'UPDATE', conflictColumns: ['sku'],
    })),
  };
}

async function timed<T>(inputs: readonly T[], work: (input: T) => Promise<unknown>): Promise<number> {
  const started = performance.now();
  for (const input of inputs) await work(input);
  return (performance.now() - started) / 1000;
}

export async function benchBulk(target: BulkTarget, options: { rows: number; rounds: number }): Promise<BulkBenchResult> {
  const batchesPerRound = Math.max(1, Math.floor(options.rows / BATCH / options.rounds));
  const rows = batchesPerRound * BATCH * options.rounds;
  const pool = new pg.Pool({ connectionString: target.database, max: 1 });
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const path = `/api/data/bulk/${target.view}/insert`;
  const seconds = { rawInsert: 0, rawUpsert: 0, insert: 0, update: 0 };
  try {
    for (let round = 0; round < options.rounds; round++) {
      const r = prepareRound(target, 1 + round * batchesPerRound * BATCH, batchesPerRound);
      seconds.rawInsert += await timed(r.rawInserts, (s) => pool.query(s.text, s.params));
      seconds.insert += await timed(r.inserts, (body) => postJson(agent, target, path, body));
      seconds.update += await timed(r.updates, (body) => postJson(agent, target, path, body));
      seconds.rawUpsert += await timed(r.rawUpserts, (s) => pool.query(s.text, s.params));
    }
  } finally {
    agent.destroy();
    await pool.end();
  }
  const rate = (s: number) => rows / s;
  return {
    rows, rounds: options.rounds,
    rawInsertRowsPerSecond: rate(seconds.rawInsert), rawUpsertRowsPerSecond: rate(seconds.rawUpsert),
    insertRowsPerSecond: rate(seconds.insert), updateRowsPerSecond: rate(seconds.update),
    insertRatio: seconds.rawInsert / seconds.insert, updateRatio: seconds.rawInsert / seconds.update,
  };
}

export function formatBulk(result: BulkBenchResult): string[] {
  const f = (n: number) => Math.round(n).toLocaleString('en-US').padStart(8);
  const verdict = (ratio: number) => `${(ratio * 100).toFixed(0)}% of raw INSERT   target ≥ 70%   ${ratio >= 0.7 ? 'ok' : 'MISSED'}`;
  return [
    `Bulk, ${result.rows.toLocaleString('en-US')} rows in 1000-row requests, one at a time, ${result.rounds} interleaved rounds`,
    `  raw multi-row INSERT (bare pg pool)     ${f(result.rawInsertRowsPerSecond)} rows/s   the floor`,
    `  bulk INSERT                             ${f(result.insertRowsPerSecond)} rows/s   ${verdict(result.insertRatio)}`,
    `  bulk UPDATE upsert                      ${f(result.updateRowsPerSecond)} rows/s   ${verdict(result.updateRatio)}`,
    `  raw multi-row upsert of existing rows   ${f(result.rawUpsertRowsPerSecond)} rows/s   (the database's share of UPDATE; not judged)`,
  ];
}
