/**
 * The CSV export written by the database itself when its driver can (`Driver.csvCopy`, COPY on
 * PostgreSQL): the same statement as the row path, without its timestamps as text (the database
 * formats each typed value), and the same bytes. Output computed columns keep the row path: a
 * formula's SQL type may differ from its API type (a `number` may be a double or a numeric), and
 * the row path's cell text follows the value the driver hands over, not the API type.
 */
import { render } from '../sql.ts';
import type { CsvCopyColumn, Database } from '../../dialects/dialect.ts';
import { translateDbError } from '../workspace/db-errors.ts';
import { compileUnpaged } from './compile-read.ts';
import { guardsOf } from './export-cells.ts';
import type { OutputNode, ReadPlan } from './plan.ts';

function hasComputed(node: OutputNode): boolean {
  return node.computed.length > 0 || [...node.children.values()].some(hasComputed);
}

async function* translated(database: Database, plan: ReadPlan, chunks: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array, void, undefined> {
  try {
    yield* chunks;
  } catch (error) {
    throw translateDbError(database.dialect, plan.root.entity, error);
  }
}

/** The data rows as CSV bytes (no header), or null when the driver cannot write them exactly. */
export function copiedCsv(database: Database, plan: ReadPlan, signal?: AbortSignal): AsyncGenerator<Uint8Array, void, undefined> | null {
  const { driver, dialect } = database;
  if (!driver.csvCopy || hasComputed(plan.output)) return null;
  const { statement, parts } = compileUnpaged(plan, dialect);
  const columns: CsvCopyColumn[] = parts.columns
    .filter((c) => c.key !== null)
    .map((c) => ({ alias: c.alias, type: c.type, emptyWhenNull: guardsOf(parts.columns, c) }));
  const chunks = driver.csvCopy(render(statement, dialect.sql), columns, { signal });
  return chunks ? translated(database, plan, chunks) : null;
}
