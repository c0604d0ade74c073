/**
 * The CSV export written by PostgreSQL itself (Driver.csvCopy): `COPY (SELECT <cells> FROM
 * (<the export's statement>)) TO STDOUT (FORMAT csv)` read off the connection by
 * postgres-copy-out.ts. The server formats and quotes every cell (postgres-copy-sql.ts gives each
 * the row path's exact text), and Node only turns record ends into CRLF and timestamps into their
 * wire form (copy-records.ts): the 1M-row orders export no longer builds a row object, a cell
 * string or a CSV line per row.
 *
 * COPY takes no bound parameters. The statement's values are therefore set, still bound, as
 * transaction-local settings (`set_config('wdapi_copy.pN', $1, true)`), and each `$N` becomes
 * `CAST(current_setting('wdapi_copy.pN') AS <type>)`, the type being the one PostgreSQL infers
 * for `$N` in the statement (PREPARE, then pg_prepared_statements): the setting's text is what pg
 * would have sent for the parameter, read by the same type's input function. No value is ever
 * written into the SQL text.
 */
import type pg from 'pg';
import type { CompiledSql } from '../../core/sql.ts';
import type { CsvCopyColumn } from '../dialect.ts';
import { releaseExportClient, socketOf, stopOnAbandon, takeExportClient, type ExportRun } from './export-session.ts';
import { NO_LIMIT, timedOut } from './postgres-time-limit.ts';
import { CopyCsvOut } from './postgres-copy-out.ts';
import { copyStatement, replacePlaceholders } from './postgres-copy-sql.ts';

const setting = (index: number): string => `wdapi_copy.p${index}`;

/** set_config calls per statement, well under the 1,664 columns a select list may hold. */
const SETTINGS_PER_STATEMENT = 500;

const PREPARED = 'wdapi_copy_types';

/** The types PostgreSQL infers for the statement's parameters, in order (format_type names, e.g. `timestamp with time zone`). */
async function parameterTypes(client: pg.PoolClient, text: string): Promise<string[]> {
  await client.query(`PREPARE ${PREPARED} AS ${text}`);
  try {
    const result = await client.query<{ types: string[] }>(`SELECT parameter_types::text[] AS types FROM pg_prepared_statements WHERE name = '${PREPARED}'`);
    return result.rows[0]?.types ?? [];
  } finally {
    await client.query(`DEALLOCATE ${PREPARED}`);
  }
}

/** Sets every non-null parameter as a transaction-local setting, bound. */
async function setParameters(client: pg.PoolClient, params: readonly unknown[]): Promise<void> {
  const present = params.flatMap((value, i) => (value === null || value === undefined ? [] : [{ index: i + 1, value }]));
  for (let from = 0; from < present.length; from += SETTINGS_PER_STATEMENT) {
    const group = present.slice(from, from + SETTINGS_PER_STATEMENT);
    const calls = group.map((p, i) => `set_config('${setting(p.index)}', $${i + 1}, true)`);
    await client.query(`SELECT ${calls.join(', ')}`, group.map((p) => p.value));
  }
}

/** The COPY statement with the parameters read back from the settings (a null one as a typed NULL). */
async function boundCopy(client: pg.PoolClient, statement: CompiledSql, columns: readonly CsvCopyColumn[]): Promise<string> {
  const types = statement.params.length > 0 ? await parameterTypes(client, statement.text) : [];
  const select = replacePlaceholders(statement.text, (index) => {
    const type = types[index - 1] ?? 'text';
    const value = statement.params[index - 1];
    return value === null || value === undefined ? `CAST(NULL AS ${type})` : `CAST(current_setting('${setting(index)}') AS ${type})`;
  });
  const copy = select === null ? null : copyStatement(select, columns);
  if (copy === null) throw new Error('csvCopy: the statement changed between the check and the copy');
  await setParameters(client, statement.params);
  return copy;
}

/** The indexes of the timestamp cells, which PostgreSQL prints in its own text and copy-records.ts rewrites. */
function timestampCells(columns: readonly CsvCopyColumn[]): number[] {
  return columns.flatMap((column, i) => (column.type === 'timestamp' ? [i] : []));
}

async function* copiedRows(pool: pg.Pool, statement: CompiledSql, columns: readonly CsvCopyColumn[], run: ExportRun): AsyncGenerator<Uint8Array, void, undefined> {
  const client = await takeExportClient(pool, run);
  const stop = stopOnAbandon(client, run.signal);
  const ignore = (): void => undefined;
  client.on('error', ignore);
  const inTransaction = statement.params.length > 0;
  let ended = false;
  try {
    yield* copiedChunks(client, statement, columns, inTransaction);
    ended = true;
  } catch (error) {
    throw timedOut(error, run.limit);
  } finally {
    stop();
    // Left early (client gone, an error): the socket is destroyed, the server's next send fails
    // and its backend ends the COPY (and the transaction); the pool drops the client.
    if (!ended) socketOf(client).destroy();
    else client.off('error', ignore);
    await releaseExportClient(client, run, !ended);
  }
}

async function* copiedChunks(client: pg.PoolClient, statement: CompiledSql, columns: readonly CsvCopyColumn[], inTransaction: boolean): AsyncGenerator<Uint8Array, void, undefined> {
  if (inTransaction) await client.query('BEGIN');
  const copy = new CopyCsvOut(await boundCopy(client, statement, columns), timestampCells(columns));
  client.query(copy);
  // A chunk's buffer is read into again once the consumer asks for the next (Driver.csvCopy).
  for await (const chunk of copy as AsyncIterable<Uint8Array>) {
    yield chunk;
    copy.recycle(chunk);
  }
  if (inTransaction) await client.query('COMMIT');
}

const UNLIMITED: ExportRun = { limit: NO_LIMIT, ownTimeoutMs: undefined, signal: undefined };

/**
 * Null, before any connection is taken, when a column has no exact cell, a parameter is bytes
 * (pg sends a Buffer in binary, which a text setting cannot carry) or the statement holds SQL
 * the placeholder scanner does not read.
 */
export function copyCsv(pool: pg.Pool, statement: CompiledSql, columns: readonly CsvCopyColumn[], run: ExportRun = UNLIMITED): AsyncIterable<Uint8Array> | null {
  if (statement.params.some((p) => p instanceof Uint8Array)) return null;
  const select = replacePlaceholders(statement.text, () => 'NULL');
  if (select === null || copyStatement(select, columns) === null) return null;
  return copiedRows(pool, statement, columns, run);
}
