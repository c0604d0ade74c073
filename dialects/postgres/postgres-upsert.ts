import { ident, join, sql, type Sql } from '../../core/sql.ts';
import type { Executor, InsertStatement, UpsertOutcome, UpsertStatement } from '../dialect.ts';

export function valuesList(rows: readonly (readonly unknown[])[]): Sql {
  return join(rows.map((row) => sql`(${join(row.map((value) => sql`${value}`))})`));
}

export function insertHead(table: Sql, statement: InsertStatement): Sql {
  const columns = join(statement.columns.map((c) => ident(c)));
  return sql`INSERT INTO ${table} (${columns}) VALUES ${valuesList(statement.rows)}`;
}

/**
 * INSERT … ON CONFLICT (cols) DO NOTHING | DO UPDATE. `RETURNING (xmax = 0)` tells inserted
 * rows from updated ones; rows skipped by DO NOTHING return nothing. The caller has already
 * removed rows sharing a conflict key, which PostgreSQL refuses ("cannot affect row a second time").
 */
export function renderPostgresUpsert(table: Sql, statement: UpsertStatement): Sql {
  const head = insertHead(table, statement);
  // ERROR and IGNORE are counted from the affected rows; only UPDATE needs a row back per row.
  if (statement.action === 'ERROR') return head;
  const target = join(statement.conflictColumns.map((c) => ident(c)));
  if (statement.action === 'IGNORE') return sql`${head} ON CONFLICT (${target}) DO NOTHING`;
  // With nothing to overwrite, rewrite the first match column to itself so the row still counts as updated.
  const assigned = statement.updateColumns.length > 0 ? statement.updateColumns : statement.conflictColumns.slice(0, 1);
  const sets = join(assigned.map((c) => sql`${ident(c)} = EXCLUDED.${ident(c)}`));
  return sql`${head} ON CONFLICT (${target}) DO UPDATE SET ${sets} RETURNING (xmax = 0) AS inserted`;
}

export async function runUpsert(
  db: Executor,
  render: (fragment: Sql) => { text: string; params: readonly unknown[] },
  table: Sql,
  statement: UpsertStatement,
): Promise<UpsertOutcome> {
  const result = await db.query(render(renderPostgresUpsert(table, statement)));
  if (statement.action !== 'UPDATE') {
    return { inserted: result.affectedRows, updated: 0, ignored: statement.rows.length - result.affectedRows };
  }
  const inserted = result.rows.filter((row) => row.inserted === true).length;
  return { inserted, updated: result.rows.length - inserted, ignored: statement.rows.length - result.rows.length };
}
