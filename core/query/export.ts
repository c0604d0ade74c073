/**
 * Streaming export (DESIGN §14 "Export"): every row a list request selects, unpaged, read in
 * batches so memory stays flat. A driver with `stream` reads one statement through a cursor or
 * driver stream; any other reads keyset batches, each continuing after the last row of the one
 * before (the cursor seek of core/query/cursor.ts, without tokens). NDJSON gets the records the
 * JSON list returns; CSV gets each row's cells straight from the driver's row (export-cells.ts).
 */
import { render, type Sql } from '../sql.ts';
import { badRequest } from '../errors.ts';
import type { Database, RowBatches } from '../../dialects/dialect.ts';
import type { ColumnType } from '../schema/introspection.ts';
import { translateDbError } from '../workspace/db-errors.ts';
import { assembler, type JsonRecord } from './assemble.ts';
import { compileRead, compileUnpaged, type SelectOptions, type StatementParts } from './compile-read.ts';
import { rowCells, wireValueOfExport, type Cell } from './export-cells.ts';
import { keysetAfter } from './cursor.ts';
import { copiedCsv } from './export-copy.ts';
import type { Keyset, OutputNode, ReadPlan, ReadScope } from './plan.ts';
import { planRead } from './plan-read.ts';
import { checkResponseItems, DEFAULT_MAX_RESPONSE_ITEMS } from './response-bound.ts';
import { assembleWithArrays } from './read.ts';
import type { ReadRequest } from './request.ts';

/**
 * Rows per batch: one database round trip, and one items statement per array path. Small, so a
 * batch's rows are garbage before the young generation is collected twice: with 1,000 they lived
 * long enough to be promoted, and the old generation grew (the 1M-row CSV export's peak RSS was
 * ~205 MB with 1,000, ~188 MB with 250). The driver asks for the next batch while this one is
 * formatted, so more round trips cost little.
 */
export const EXPORT_BATCH_ROWS = 250;

/** One flat output column: `path` of many-to-one hops, then the field's API name. */
export interface ExportColumn {
  readonly path: readonly string[];
  readonly key: string;
  readonly type: ColumnType;
  /** The entity whose field it is (the root or an expanded relationship's target). */
  readonly entity: string;
}

/** `T`: a record (NDJSON) or a row of CSV cells. */
export interface RecordExport<T = JsonRecord> {
  /** The root entity's name (the file name of the download). */
  readonly entity: string;
  /** The flat columns, in select order (CSV header order). */
  readonly columns: readonly ExportColumn[];
  /** Rows in batches; translated API errors. Returning early stops the statement. */
  readonly batches: AsyncGenerator<T[], void, undefined>;
}

/** CSV the database wrote itself (core/query/export-copy.ts): the data rows' bytes, records ending CRLF, no header. */
export interface CopiedExport {
  readonly entity: string;
  readonly columns: readonly ExportColumn[];
  /** A chunk's memory may be read into again once the next chunk is asked for (Driver.csvCopy). */
  readonly chunks: AsyncGenerator<Uint8Array, void, undefined>;
}

export interface ExportOptions {
  readonly batchRows?: number;
  /** Most items one exported row may carry in its arrays (MAX_RESPONSE_ITEMS); default DEFAULT_MAX_RESPONSE_ITEMS. */
  readonly maxResponseItems?: number;
  /** Aborted when the client goes away: the statement is cancelled, also while it waits for a connection (QueryOptions). */
  readonly signal?: AbortSignal;
}

function entityAt(output: OutputNode, path: readonly string[]): string {
  let node = output;
  for (const name of path) node = node.children.get(name) ?? node;
  return node.view.entity.name;
}

function columnsOf(plan: ReadPlan, parts: StatementParts): ExportColumn[] {
  return parts.columns.flatMap((c) => (c.key === null ? [] : [{ path: c.path, key: c.key, type: c.type, entity: entityAt(plan.output, c.path) }]));
}

async function* keysetBatches(database: Database, plan: ReadPlan, batchRows: number, select: SelectOptions, signal: AbortSignal | undefined): RowBatches {
  let keyset: Keyset = { after: null };
  for (;;) {
    const page = compileRead({ ...plan, page: 0, size: batchRows, keyset }, database.dialect, select).page;
    const rows = (await database.driver.query(render(page, database.dialect.sql), { signal })).rows;
    const kept = rows.slice(0, batchRows);
    const last = kept[kept.length - 1];
    if (kept.length > 0) yield kept;
    if (rows.length <= batchRows || !last) return;
    keyset = keysetAfter(plan, last);
  }
}

/** One plan's rows: its statement, how it selects, and how many rows a batch holds. */
interface Source {
  readonly database: Database;
  readonly plan: ReadPlan;
  readonly statement: Sql;
  readonly select: SelectOptions;
  readonly batchRows: number;
  readonly signal: AbortSignal | undefined;
}

function rowBatches(source: Source): RowBatches {
  const { driver, dialect } = source.database;
  const { signal } = source;
  return driver.stream ? driver.stream(render(source.statement, dialect.sql), source.batchRows, { signal }) : keysetBatches(source.database, source.plan, source.batchRows, source.select, signal);
}

async function* converted<T>(source: Source, convert: (rows: Record<string, unknown>[]) => T[] | Promise<T[]>): AsyncGenerator<T[], void, undefined> {
  try {
    for await (const rows of rowBatches(source)) yield await convert(rows);
  } catch (error) {
    throw translateDbError(source.database.dialect, source.plan.root.entity, error);
  }
}

/** Both formats read timestamps as the dialect's exact text and cut it to the wire form themselves (no Date per value). */
const TIMESTAMPS_AS_TEXT: SelectOptions = { timestampsAsText: true };

function planExport(scope: ReadScope, request: ReadRequest): ReadPlan {
  return planRead(scope, { ...request, page: 0, count: 'none' });
}

function source(database: Database, plan: ReadPlan, select: SelectOptions, options: ExportOptions): { source: Source; parts: StatementParts } {
  const unpaged = compileUnpaged(plan, database.dialect, select);
  return { source: { database, plan, statement: unpaged.statement, select, batchRows: options.batchRows ?? EXPORT_BATCH_ROWS, signal: options.signal }, parts: unpaged.parts };
}

/**
 * NDJSON: the records the JSON list returns, one-to-many arrays included, timestamps read as text
 * as for CSV. Plans at once (every 400 before a byte is sent); rows are read as `batches` is pulled.
 */
export function exportRecords(database: Database, scope: ReadScope, request: ReadRequest, options: ExportOptions = {}): RecordExport<JsonRecord> {
  const plan = planExport(scope, request);
  // Unpaged: the bound holds per row, so memory stays flat however many rows stream.
  checkResponseItems(plan, 1, options.maxResponseItems ?? DEFAULT_MAX_RESPONSE_ITEMS);
  const { source: from, parts } = source(database, plan, TIMESTAMPS_AS_TEXT, options);
  const assemble = assembler(parts.columns, database.dialect.capabilities.jsonArrivesAsText, wireValueOfExport);
  const batches = converted(from, (rows) => assembleWithArrays(database.driver, database.dialect, { assemble, arrays: parts.arrays }, rows));
  return { entity: plan.root.entity.name, columns: columnsOf(plan, parts), batches };
}

/**
 * CSV: written by the database when its driver can (`Driver.csvCopy`), else each row's cells, in
 * `columns` order; the same bytes either way. One-to-many arrays have no flat form and are
 * refused (400).
 */
export function exportCells(database: Database, scope: ReadScope, request: ReadRequest, options: ExportOptions = {}): RecordExport<Cell[]> | CopiedExport {
  const plan = planExport(scope, request);
  if (plan.expandSizes) {
    throw badRequest(`one-to-many arrays (${Object.keys(plan.expandSizes).join(', ')}) cannot be exported as CSV; use format=ndjson or leave them out of 'expand'`);
  }
  const { source: from, parts } = source(database, plan, TIMESTAMPS_AS_TEXT, options);
  const columns = columnsOf(plan, parts);
  const copied = copiedCsv(database, plan, options.signal);
  if (copied) return { entity: plan.root.entity.name, columns, chunks: copied };
  const cells = rowCells(parts.columns, database.dialect.capabilities.jsonArrivesAsText);
  return { entity: plan.root.entity.name, columns, batches: converted(from, (rows) => rows.map(cells)) };
}
