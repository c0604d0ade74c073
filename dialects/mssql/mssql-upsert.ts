/**
 * INSERT and upsert for SQL Server (DESIGN §8, peers B3).
 *
 * Upserts are `MERGE … WITH (HOLDLOCK)` on exactly the conflict columns: without HOLDLOCK
 * (serializable range locks on the matched keys) two concurrent MERGEs can both see "not
 * matched" and one fails with a duplicate key. MERGE refuses a source with two rows for one
 * target row (error 8672); callers remove rows sharing a conflict key first. MERGE must end
 * with `;`.
 *
 * Rows affected by the statement are collected with `OUTPUT … INTO` a table variable rather
 * than a bare OUTPUT, which SQL Server refuses on tables with enabled triggers (error 334).
 * Counting: `$action` is 'INSERT' or 'UPDATE' per written row; IGNORE has no WHEN MATCHED
 * clause, so rows not output were ignored. UPDATE with nothing to overwrite is the IGNORE
 * statement with the matched rows counted as updated (rewriting a key to itself would fail
 * on identity columns).
 *
 * A statement that writes the `returning` column (bulk upserts keyed on the primary key) turns
 * IDENTITY_INSERT on for the table when that column is an identity, and off again whatever
 * happens (it is a session setting and pooled sessions are reused). That needs ALTER permission
 * on the table, as any explicit identity value does on SQL Server.
 *
 * TDS carries at most 2100 parameters per request; statements are split at `maxParams` rows.
 */
import { ident, join, raw, sql, type CompiledSql, type Sql } from '../../core/sql.ts';
import type { Executor, InsertStatement, UpsertOutcome, UpsertStatement } from '../dialect.ts';

export type Render = (fragment: Sql) => CompiledSql;

/** The dialect's parameter budget per statement (TDS allows 2100; a few are kept for the wrapper). */
export const MSSQL_MAX_PARAMS = 2000;

const TARGET = 't';
const SOURCE = 's';
/** Source row number, so that OUTPUT can report generated keys in row order. */
const ORDINAL = '__row';

export function columnList(columns: readonly string[], qualifier?: string): Sql {
  return join(columns.map((c) => (qualifier ? ident(qualifier, c) : ident(c))));
}

export function valuesList(rows: readonly (readonly unknown[])[], ordinal = false): Sql {
  return join(
    rows.map((row, i) => {
      const values = row.map((value) => sql`${value}`);
      return sql`(${join(ordinal ? [raw(String(i)), ...values] : values)})`;
    }),
  );
}

/**
 * Wraps `body` so that explicit values for an identity `column` are accepted: IDENTITY_INSERT is
 * switched on only when the column is an identity, and switched off again on success and failure
 * (THROW re-raises the original error with its number).
 */
export function withIdentityInsert(table: Sql, tableText: string, column: string, body: Sql): Sql {
  const isIdentity = sql`COLUMNPROPERTY(OBJECT_ID(${tableText}), ${column}, 'IsIdentity') = 1`;
  return sql`DECLARE @identity bit = CASE WHEN ${isIdentity} THEN 1 ELSE 0 END;
BEGIN TRY
  IF @identity = 1 SET IDENTITY_INSERT ${table} ON;
  ${body}
  IF @identity = 1 SET IDENTITY_INSERT ${table} OFF;
END TRY
BEGIN CATCH
  IF @identity = 1 SET IDENTITY_INSERT ${table} OFF;
  THROW;
END CATCH;`;
}

export function writesColumn(statement: InsertStatement, column: string): boolean {
  return statement.columns.includes(column);
}

/** The MERGE (terminated by `;`) with `OUTPUT $action INTO @out`. */
export function renderMerge(table: Sql, statement: UpsertStatement): Sql {
  const on = join(statement.conflictColumns.map((c) => sql`${ident(TARGET, c)} = ${ident(SOURCE, c)}`), ' AND ');
  const matched =
    statement.action === 'UPDATE' && statement.updateColumns.length > 0
      ? sql` WHEN MATCHED THEN UPDATE SET ${join(statement.updateColumns.map((c) => sql`${ident(c)} = ${ident(SOURCE, c)}`))}`
      : raw('');
  return sql`MERGE INTO ${table} WITH (HOLDLOCK) AS ${ident(TARGET)} USING (VALUES ${valuesList(statement.rows)}) AS ${ident(SOURCE)} (${columnList(statement.columns)}) ON ${on}${matched} WHEN NOT MATCHED BY TARGET THEN INSERT (${columnList(statement.columns)}) VALUES (${columnList(statement.columns, SOURCE)}) OUTPUT $action INTO @out ([action]);`;
}

/** The whole batch of an upsert: counts per action come back as rows `{action, n}`. */
export function renderMssqlUpsert(table: Sql, tableText: string, statement: UpsertStatement): Sql {
  const head = raw('DECLARE @out TABLE ([action] nvarchar(10));\n');
  const tail = raw('\nSELECT [action], COUNT(*) AS [n] FROM @out GROUP BY [action];');
  const body =
    statement.action === 'ERROR'
      ? sql`INSERT INTO ${table} (${columnList(statement.columns)}) OUTPUT N'INSERT' INTO @out ([action]) VALUES ${valuesList(statement.rows)};`
      : renderMerge(table, statement);
  const guarded = writesColumn(statement, statement.returning) ? withIdentityInsert(table, tableText, statement.returning, body) : body;
  return sql`${head}${guarded}${tail}`;
}

export function upsertOutcome(statement: UpsertStatement, rows: readonly Record<string, unknown>[]): UpsertOutcome {
  const count = (action: string): number => rows.filter((r) => r.action === action).reduce((sum, r) => sum + Number(r.n ?? 0), 0);
  const inserted = count('INSERT');
  const updated = count('UPDATE');
  const rest = statement.rows.length - inserted - updated;
  // UPDATE without columns to overwrite runs the IGNORE statement: its matched rows count as updated.
  return statement.action === 'UPDATE' ? { inserted, updated: updated + rest, ignored: 0 } : { inserted, updated, ignored: rest };
}

/** Splits rows so that no statement carries more than `maxParams` parameters. */
export function chunkRows<T>(rows: readonly T[], columns: number, maxParams = MSSQL_MAX_PARAMS): T[][] {
  const size = Math.max(1, Math.floor(maxParams / Math.max(1, columns)));
  const chunks: T[][] = [];
  for (let start = 0; start < rows.length; start += size) chunks.push(rows.slice(start, start + size));
  return chunks;
}

export async function runUpsert(db: Executor, render: Render, table: Sql, statement: UpsertStatement): Promise<UpsertOutcome> {
  const tableText = render(table).text;
  const total = { inserted: 0, updated: 0, ignored: 0 };
  for (const rows of chunkRows(statement.rows, statement.columns.length)) {
    const part = { ...statement, rows };
    const result = await db.query(render(renderMssqlUpsert(table, tableText, part)));
    const outcome = upsertOutcome(part, result.rows);
    total.inserted += outcome.inserted;
    total.updated += outcome.updated;
    total.ignored += outcome.ignored;
  }
  return total;
}

/**
 * The INSERT batch returning the `returning` column in row order. One row is a plain INSERT;
 * several go through `MERGE … ON 1 = 0` because only MERGE's OUTPUT may name source columns
 * (the row ordinal): INSERT's OUTPUT order is not guaranteed to follow the VALUES order.
 * sql_variant holds any key type (int, bigint, uniqueidentifier, nvarchar(≤4000), dates).
 */
export function renderMssqlInsert(table: Sql, tableText: string, statement: InsertStatement): Sql {
  const head = raw(`DECLARE @out TABLE ([${ORDINAL}] int, [returned] sql_variant);\n`);
  const returned = ident('INSERTED', statement.returning);
  const body =
    statement.columns.length === 0
      ? sql`INSERT INTO ${table} OUTPUT 0, ${returned} INTO @out ([${raw(ORDINAL)}], [returned]) DEFAULT VALUES;`
      : statement.rows.length === 1
      ? sql`INSERT INTO ${table} (${columnList(statement.columns)}) OUTPUT 0, ${returned} INTO @out ([${raw(ORDINAL)}], [returned]) VALUES ${valuesList(statement.rows)};`
      : sql`MERGE INTO ${table} AS ${ident(TARGET)} USING (VALUES ${valuesList(statement.rows, true)}) AS ${ident(SOURCE)} (${columnList([ORDINAL, ...statement.columns])}) ON 1 = 0 WHEN NOT MATCHED BY TARGET THEN INSERT (${columnList(statement.columns)}) VALUES (${columnList(statement.columns, SOURCE)}) OUTPUT ${ident(SOURCE, ORDINAL)}, ${returned} INTO @out ([${raw(ORDINAL)}], [returned]);`;
  const guarded = writesColumn(statement, statement.returning) ? withIdentityInsert(table, tableText, statement.returning, body) : body;
  return sql`${head}${guarded}\nSELECT [returned] FROM @out ORDER BY [${raw(ORDINAL)}];`;
}

export async function runInsert(db: Executor, render: Render, table: Sql, statement: InsertStatement): Promise<unknown[]> {
  const tableText = render(table).text;
  const ids: unknown[] = [];
  // A row without columns is `DEFAULT VALUES`, one statement per row.
  const chunks = statement.columns.length === 0 ? statement.rows.map((row) => [row]) : chunkRows(statement.rows, statement.columns.length);
  for (const rows of chunks) {
    const result = await db.query(render(renderMssqlInsert(table, tableText, { ...statement, rows })));
    ids.push(...result.rows.map((row) => row.returned));
  }
  return ids;
}
