/**
 * A create or an update and the read of its row in ONE batch: one round trip.
 *
 * Insert: `INSERT … OUTPUT INSERTED.<key> INTO @out`, then the read shape over the table by
 * `key = (SELECT [returned] FROM @out)`. OUTPUT goes INTO a table variable, as every insert of
 * this dialect does, because a bare OUTPUT is refused on a table with enabled triggers (error
 * 334); the variable is declared with the key's own type so that the read compares like with like
 * and seeks the primary key (a sql_variant would convert the column). A key whose native type is
 * not one of SQL Server's own (an alias type) is left to the two-statement path.
 *
 * Update: the UPDATE, then the read shape by the key it was given; the read carries the row
 * policy as its visibility column, so a row the UPDATE could not see reads as hidden (404).
 *
 * The batch answers one result set, the read's: DECLARE, INSERT … INTO and UPDATE answer none.
 */
import { ident, raw, sql, type Sql } from '../../core/sql.ts';
import type { Executor, InsertStatement, UpdateStatement, WrittenRowRead } from '../dialect.ts';
import { columnList, valuesList, withIdentityInsert, writesColumn, type Render } from './mssql-upsert.ts';

/** System types a table variable's column can be declared with, with an optional (n), (max) or (p,s). */
const DECLARABLE_KEY =
  /^(bigint|int|smallint|tinyint|bit|decimal|numeric|money|smallmoney|uniqueidentifier|n?varchar|n?char|varbinary|binary|date|time|datetime|datetime2|datetimeoffset|smalldatetime)(\((\d+|max)(,\d+)?\))?$/i;

export function renderMssqlInsertAndRead(table: Sql, tableText: string, statement: InsertStatement, read: WrittenRowRead): Sql | null {
  const keyType = read.key.nativeType.replace(/\s+/g, '');
  if (!DECLARABLE_KEY.test(keyType) || statement.rows.length !== 1) return null;
  const returned = ident('INSERTED', statement.returning);
  const output = sql`OUTPUT ${returned} INTO @out ([returned])`;
  const body =
    statement.columns.length === 0
      ? sql`INSERT INTO ${table} ${output} DEFAULT VALUES;`
      : sql`INSERT INTO ${table} (${columnList(statement.columns)}) ${output} VALUES ${valuesList(statement.rows)};`;
  const guarded = writesColumn(statement, statement.returning) ? withIdentityInsert(table, tableText, statement.returning, body) : body;
  return sql`DECLARE @out TABLE ([returned] ${raw(keyType)});\n${guarded}\n${read.byKey(raw('(SELECT [returned] FROM @out)'))};`;
}

export function renderMssqlUpdateAndRead(table: Sql, update: UpdateStatement, read: WrittenRowRead): Sql {
  const alias = ident(update.alias);
  return sql`UPDATE ${alias} SET ${update.assignments} FROM ${table} AS ${alias} WHERE ${update.where};\n${read.byKey(sql`${update.key}`)};`;
}

export async function runInsertAndRead(db: Executor, render: Render, table: Sql, statement: InsertStatement, read: WrittenRowRead): Promise<Record<string, unknown>[] | null> {
  const batch = renderMssqlInsertAndRead(table, render(table).text, statement, read);
  return batch ? (await db.query(render(batch))).rows : null;
}

export async function runUpdateAndRead(db: Executor, render: Render, table: Sql, update: UpdateStatement, read: WrittenRowRead): Promise<Record<string, unknown>[]> {
  return (await db.query(render(renderMssqlUpdateAndRead(table, update, read)))).rows;
}
