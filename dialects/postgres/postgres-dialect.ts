import { ident, raw, render, sql, type CompiledSql, type Sql } from '../../core/sql.ts';
import type { ColumnType } from '../../core/schema/introspection.ts';
import type { DatabaseConfig, Dialect, Driver, Executor, InsertStatement, UpdateStatement, UpsertStatement, WrittenRowRead } from '../dialect.ts';
import { defineDialect } from '../define-dialect.ts';
import { createPgDriver } from './postgres-driver.ts';
import { mapPostgresError } from './postgres-errors.ts';
import { postgresFormula, postgresOwnFormula } from './postgres-formula.ts';
import { introspectPostgres, postgresSchemaExists } from './postgres-introspector.ts';
import { urlProblem } from '../connection-url.ts';
import { insertHead, runUpsert } from './postgres-upsert.ts';
import { quoteIdent } from './quote-ident.ts';

function placeholder(index: number): string {
  return `$${index}`;
}

const renderer = { quoteIdent, placeholder };
const renderSql = (fragment: Sql): CompiledSql => render(fragment, renderer);

/** Native types for columns created through the API; fixed strings, never user input. */
const COLUMN_TYPES: Partial<Record<ColumnType, string>> = {
  integer: 'integer', bigint: 'bigint', decimal: 'numeric(18,6)', float: 'double precision', boolean: 'boolean',
  date: 'date', timestamp: 'timestamptz', time: 'time', uuid: 'uuid', text: 'text', json: 'jsonb', binary: 'bytea',
};

async function insert(db: Executor, table: Sql, statement: InsertStatement): Promise<unknown[]> {
  const result = await db.query(renderSql(sql`${insertHead(table, statement)} RETURNING ${ident(statement.returning)} AS ${raw('"returned"')}`));
  return result.rows.map((row) => row.returned);
}

/** The CTE holding the written row: the read shape's base relation in place of the table. */
const WRITTEN = 'written';

/**
 * `WITH written AS (INSERT … RETURNING *) SELECT <read shape> FROM written AS t0 …`: one
 * statement. The other tables of the shape are read from the statement's snapshot, which is why a
 * shape that reads the written table itself (a self-reference) is left to a second statement.
 */
/** A rendered insert-and-read: its text, and the read's own parameters, which follow the values. */
interface RenderedInsert {
  readonly text: string;
  readonly readParams: readonly unknown[];
}

/**
 * Rendered statements per read shape (kept while the scope's read cache keeps the shape), then per
 * column list, then per row count: rendering the whole read again for every create was ~2% of a
 * create's CPU. The column lists are a path of Maps, one step per column name (the schema's own
 * strings, hashed once), so a create builds no key string; joining the names took ~2 µs a create.
 */
interface RenderedByColumns {
  readonly next: Map<string, RenderedByColumns>;
  readonly byRowCount: Map<number, RenderedInsert>;
}

const renderedInserts = new WeakMap<WrittenRowRead, RenderedByColumns>();

const emptyNode = (): RenderedByColumns => ({ next: new Map(), byRowCount: new Map() });

function renderedNode(read: WrittenRowRead, columns: readonly string[]): RenderedByColumns {
  let node: RenderedByColumns | undefined = renderedInserts.get(read);
  if (!node) renderedInserts.set(read, (node = emptyNode()));
  for (const column of columns) {
    let child: RenderedByColumns | undefined = node.next.get(column);
    if (!child) node.next.set(column, (child = emptyNode()));
    node = child;
  }
  return node;
}

function renderInsertAndRead(table: Sql, statement: InsertStatement, read: WrittenRowRead, values: readonly unknown[]): RenderedInsert {
  // The table is the read's entity's, so the columns and the row count fix the text.
  const byRowCount = renderedNode(read, statement.columns).byRowCount;
  let rendered = byRowCount.get(statement.rows.length);
  if (!rendered) {
    const head = statement.columns.length === 0 ? sql`INSERT INTO ${table} DEFAULT VALUES` : insertHead(table, statement);
    const compiled = renderSql(sql`WITH ${ident(WRITTEN)} AS (${head} RETURNING *) ${read.over(ident(WRITTEN))}`);
    rendered = { text: compiled.text, readParams: compiled.params.slice(values.length) };
    byRowCount.set(statement.rows.length, rendered);
  }
  return rendered;
}

/** The rows' values in row order, as insertHead binds them (Array.prototype.flat took ~5 µs a create). */
function rowValues(rows: readonly (readonly unknown[])[]): unknown[] {
  const values: unknown[] = [];
  for (const row of rows) for (const value of row) values.push(value);
  return values;
}

async function insertAndRead(db: Executor, table: Sql, statement: InsertStatement, read: WrittenRowRead): Promise<Record<string, unknown>[] | null> {
  if (read.readsWrittenTable) return null;
  const values = rowValues(statement.rows);
  const { text, readParams } = renderInsertAndRead(table, statement, read, values);
  return (await db.query({ text, params: readParams.length === 0 ? values : [...values, ...readParams] })).rows;
}

/** `WITH written AS (UPDATE … RETURNING t0.*) SELECT <read shape> FROM written AS t0 …`, as for an insert. */
async function updateAndRead(db: Executor, table: Sql, update: UpdateStatement, read: WrittenRowRead): Promise<Record<string, unknown>[] | null> {
  if (read.readsWrittenTable) return null;
  const statement = sql`UPDATE ${table} AS ${ident(update.alias)} SET ${update.assignments} WHERE ${update.where} RETURNING ${ident(update.alias)}.*`;
  return (await db.query(renderSql(sql`WITH ${ident(WRITTEN)} AS (${statement}) ${read.over(ident(WRITTEN))}`))).rows;
}

async function estimateRows(db: Executor, select: CompiledSql): Promise<number | null> {
  const result = await db.query({ text: `EXPLAIN (FORMAT JSON) ${select.text}`, params: select.params });
  const plan = result.rows[0]?.['QUERY PLAN'];
  const parsed = (typeof plan === 'string' ? JSON.parse(plan) : plan) as { Plan?: { 'Plan Rows'?: number } }[] | undefined;
  const rows = parsed?.[0]?.Plan?.['Plan Rows'];
  return typeof rows === 'number' ? rows : null;
}

/**
 * pg and PGlite parse timestamps to milliseconds (wire text or Dates): a cursor reads them as
 * their text, which has the microseconds ('2026-11-22 10:00:00.123456+00'; the drivers' own
 * parsers already rely on the ISO DateStyle). Not to_char: it prints 'infinity' as NULL and
 * drops a BC year's era, which would seek from the wrong place instead of refusing the cursor.
 */
function exactText(expr: Sql, type: ColumnType): Sql {
  return type === 'timestamp' ? sql`CAST(${expr} AS text)` : expr;
}

export interface PostgresDialectOptions {
  readonly name?: string;
  /** Opens the workspace's database; a `pg` Pool by default, the shared PGlite for the embedded vendor. */
  readonly connect?: (config: DatabaseConfig) => Promise<Driver>;
  /** False for the embedded vendor, whose database the service holds itself. */
  readonly needsUrl?: boolean;
}

/** The PostgreSQL dialect: standard SQL nearly everywhere (every spelling default but LIKE). */
export function createPostgresDialect(options: PostgresDialectOptions = {}): Dialect {
  return defineDialect({
    name: options.name ?? 'postgres',
    defaultSchema: 'public',
    capabilities: { needsUrl: options.needsUrl ?? true, jsonArrivesAsText: false },
    sql: {
      quoteIdent,
      placeholder,
      columnType: (type) => COLUMN_TYPES[type] ?? 'text',
      like: (expr, pattern, caseInsensitive) =>
        caseInsensitive ? sql`${expr}::text ILIKE ${pattern} ESCAPE '\\'` : sql`${expr}::text LIKE ${pattern} ESCAPE '\\'`,
      exactText,
      // Doubles through the formulas' exact decimal (shortest digits, 15 significant), as on MySQL.
      sum: (expr, type) => (type === 'float' ? sql`SUM(${postgresOwnFormula.exact(expr)})` : sql`SUM(${expr})`),
    },
    writer: { insert, upsert: (db: Executor, table: Sql, statement: UpsertStatement) => runUpsert(db, renderSql, table, statement), insertAndRead, updateAndRead },
    introspector: {
      introspect: (db, schema) => introspectPostgres(db, schema ?? 'public'),
      schemaExists: (db, schema) => postgresSchemaExists(db, schema ?? 'public'),
      estimateRows,
    },
    errors: mapPostgresError,
    formula: postgresFormula,
    connect: options.connect ?? (async (config) => createPgDriver(config)),
    urlProblem: (url) => urlProblem(url, ['postgres:', 'postgresql:'], 'postgres://user:password@host:5432/database'),
  });
}

export const postgresDialect = createPostgresDialect();
