/**
 * Streaming export (DESIGN §14 "Export"): every row a list request selects, unpaged, read in
 * batches so memory stays flat. A driver with `stream` reads one statement through a cursor or
 * driver stream; any other reads keyset batches, each continuing after the last row of the one
 * before (the cursor seek of core/query/cursor.ts, without tokens).
 */
import { render, type Sql } from '../sql.ts';
import { badRequest } from '../errors.ts';
import type { Database, RowBatches } from '../../dialects/dialect.ts';
import type { ColumnType } from '../schema/introspection.ts';
import { translateDbError } from '../workspace/db-errors.ts';
import type { JsonRecord } from './assemble.ts';
import { compileRead, compileUnpaged, type StatementParts } from './compile-read.ts';
import { keysetAfter } from './cursor.ts';
import type { Keyset, OutputNode, ReadPlan, ReadScope } from './plan.ts';
import { planRead } from './plan-read.ts';
import { assembleWithArrays } from './read.ts';
import type { ReadRequest } from './request.ts';

type Unpaged = ReturnType<typeof compileUnpaged>;

/** Rows per batch: one database round trip, and one items statement per array path. */
export const EXPORT_BATCH_ROWS = 1000;

/** One flat output column: `path` of many-to-one hops, then the field's API name. */
export interface ExportColumn {
  readonly path: readonly string[];
  readonly key: string;
  readonly type: ColumnType;
  /** The entity whose field it is (the root or an expanded relationship's target). */
  readonly entity: string;
}

export interface RecordExport {
  /** The root entity's name (the file name of the download). */
  readonly entity: string;
  /** The flat columns, in select order (CSV header order). */
  readonly columns: readonly ExportColumn[];
  /** Records in batches; translated API errors. Returning early stops the statement. */
  readonly batches: AsyncGenerator<JsonRecord[], void, undefined>;
}

export interface ExportOptions {
  /** CSV: one-to-many arrays have no flat form and are refused (400). */
  readonly flat: boolean;
  readonly batchRows?: number;
}

function entityAt(output: OutputNode, path: readonly string[]): string {
  let node = output;
  for (const name of path) node = node.children.get(name) ?? node;
  return node.view.entity.name;
}

function columnsOf(plan: ReadPlan, parts: StatementParts): ExportColumn[] {
  return parts.columns.flatMap((c) => (c.key === null ? [] : [{ path: c.path, key: c.key, type: c.type, entity: entityAt(plan.output, c.path) }]));
}

async function* keysetBatches(database: Database, plan: ReadPlan, batchRows: number): RowBatches {
  let keyset: Keyset = { after: null };
  for (;;) {
    const page = compileRead({ ...plan, page: 0, size: batchRows, keyset }, database.dialect).page;
    const rows = (await database.driver.query(render(page, database.dialect.sql))).rows;
    const kept = rows.slice(0, batchRows);
    const last = kept[kept.length - 1];
    if (kept.length > 0) yield kept;
    if (rows.length <= batchRows || !last) return;
    keyset = keysetAfter(plan, last);
  }
}

function rowBatches(database: Database, plan: ReadPlan, statement: Sql, batchRows: number): RowBatches {
  const { driver, dialect } = database;
  return driver.stream ? driver.stream(render(statement, dialect.sql), batchRows) : keysetBatches(database, plan, batchRows);
}

async function* records(database: Database, plan: ReadPlan, unpaged: Unpaged, batchRows: number): AsyncGenerator<JsonRecord[], void, undefined> {
  try {
    for await (const rows of rowBatches(database, plan, unpaged.statement, batchRows)) {
      yield await assembleWithArrays(database.driver, database.dialect, unpaged.parts, rows);
    }
  } catch (error) {
    throw translateDbError(database.dialect, plan.root.entity, error);
  }
}

/** Plans the export (every 400 is thrown here, before a byte is sent); the rows are read as `batches` is pulled. */
export function exportRecords(database: Database, scope: ReadScope, request: ReadRequest, options: ExportOptions): RecordExport {
  const plan = planRead(scope, { ...request, page: 0, count: 'none' });
  if (options.flat && plan.expandSizes) {
    throw badRequest(`one-to-many arrays (${Object.keys(plan.expandSizes).join(', ')}) cannot be exported as CSV; use format=ndjson or leave them out of 'expand'`);
  }
  const unpaged = compileUnpaged(plan, database.dialect);
  return { entity: plan.root.entity.name, columns: columnsOf(plan, unpaged.parts), batches: records(database, plan, unpaged, options.batchRows ?? EXPORT_BATCH_ROWS) };
}
