/**
 * Batch markers in the WORKSPACE database: each import batch writes one row into
 * `wdapi_import_batches` in the same transaction as its data rows. The marker therefore exists
 * exactly when the batch committed, whatever the service heard back; a resume reads the markers
 * to learn which batches committed, including one whose COMMIT answer was lost.
 *
 * The table is created on first use in the workspace's schema. Its composite primary key keeps it
 * out of the API (only tables with a single-column key are exposed), and makes a second write of
 * the same batch fail instead of duplicating rows.
 */
import type { Database } from '../../dialects/dialect.ts';
import { render, sql, type Sql } from '../sql.ts';
import type { Executor } from '../../dialects/dialect.ts';

export const MARKER_TABLE = 'wdapi_import_batches';

export interface BatchMarker {
  readonly batch: number;
  readonly successCount: number;
  readonly skippedCount: number;
  readonly failureCount: number;
  readonly fingerprint: string;
}

/** Standard types only: the dialect adds its "if it does not exist" form around them. */
const DEFINITION = sql`job_id varchar(36) NOT NULL, batch integer NOT NULL, success_count integer NOT NULL,
  skipped_count integer NOT NULL, failure_count integer NOT NULL, fingerprint varchar(64) NOT NULL,
  PRIMARY KEY (job_id, batch)`;

function table(database: Database): Sql {
  return database.dialect.tableRef(MARKER_TABLE);
}

/** Creates the marker table when missing. Two imports starting at once may race on the DDL: one retry settles it. */
export async function ensureMarkerTable(database: Database): Promise<void> {
  const ddl = render(database.dialect.createTableIfMissing(MARKER_TABLE, DEFINITION), database.dialect.sql);
  try {
    await database.driver.query(ddl);
  } catch {
    await database.driver.query(ddl);
  }
}

/** Runs inside the batch's transaction, after its rows. */
export async function writeMarker(database: Database, tx: Executor, jobId: string, marker: BatchMarker): Promise<void> {
  await tx.query(render(sql`INSERT INTO ${table(database)} (job_id, batch, success_count, skipped_count, failure_count, fingerprint)
    VALUES (${jobId}, ${marker.batch}, ${marker.successCount}, ${marker.skippedCount}, ${marker.failureCount}, ${marker.fingerprint})`, database.dialect.sql));
}

/** The job's committed batches after `afterBatch`, by batch number. */
export async function readMarkers(database: Database, jobId: string, afterBatch: number): Promise<Map<number, BatchMarker>> {
  const { rows } = await database.driver.query(render(sql`SELECT batch, success_count, skipped_count, failure_count, fingerprint
    FROM ${table(database)} WHERE job_id = ${jobId} AND batch > ${afterBatch}`, database.dialect.sql));
  return new Map(rows.map((r) => [Number(r.batch), {
    batch: Number(r.batch),
    successCount: Number(r.success_count),
    skippedCount: Number(r.skipped_count),
    failureCount: Number(r.failure_count),
    fingerprint: String(r.fingerprint),
  }]));
}

/** A finished job needs no markers any more: the job store holds its batches. */
export async function dropMarkers(database: Database, jobId: string): Promise<void> {
  await database.driver.query(render(sql`DELETE FROM ${table(database)} WHERE job_id = ${jobId}`, database.dialect.sql));
}
