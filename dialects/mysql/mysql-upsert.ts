/**
 * INSERT and upsert for MySQL / MariaDB (DESIGN §8, peers B3).
 *
 * Upserts are `INSERT … ON DUPLICATE KEY UPDATE`, never `INSERT IGNORE` (which turns every other
 * error — truncation, bad values, dangling references — into a warning and writes the row anyway).
 * IGNORE is `ON DUPLICATE KEY UPDATE c = c` on the first conflict column: a duplicate changes
 * nothing, every other error still fails the statement.
 *
 * ON DUPLICATE KEY UPDATE fires on a duplicate of ANY primary or unique key of the table, not only
 * `conflictColumns` (MySQL has no conflict target). Core checks the conflict columns against the
 * introspected keys and warns about the other keys (DESIGN §12 Bulk).
 *
 * Counting (the driver's connections run without CLIENT_FOUND_ROWS, see mysql-driver.ts):
 * the statement's affected rows are 1 per inserted row, 2 per row an update changed and 0 per
 * duplicate left as it was ("INSERT … ON DUPLICATE KEY UPDATE" in the MySQL manual). A multi-row
 * INSERT also reports "Records: N  Duplicates: D" where D counts the changed rows (server code:
 * deleted + updated, `updated` being changed rows without FOUND_ROWS). So
 *   changed  = D (multi-row) — or, for one row (no info text), 1 when affected = 2, else 0
 *   inserted = affected − 2·changed
 *   updated (UPDATE) / ignored (IGNORE) = rows − inserted
 * An unchanged duplicate counts as updated in UPDATE mode, as PostgreSQL's DO UPDATE counts it.
 * A later row of the batch that hits an earlier row of the same batch counts as an update of it.
 */
import { ident, join, raw, sql, type CompiledSql, type Sql } from '../../core/sql.ts';
import type { Executor, InsertStatement, UpsertOutcome, UpsertStatement, WrittenRowRead } from '../dialect.ts';
import { isMysqlExecutor, type MysqlQueryResult, type MysqlServerInfo } from './mysql-executor.ts';

export type Render = (fragment: Sql) => CompiledSql;

/** The alias of the inserted row in `… AS new_row ON DUPLICATE KEY UPDATE c = new_row.c`. */
const ROW_ALIAS = 'new_row';

export function valuesList(rows: readonly (readonly unknown[])[]): Sql {
  return join(rows.map((row) => sql`(${join(row.map((value) => sql`${value}`))})`));
}

export function insertHead(table: Sql, statement: InsertStatement): Sql {
  const columns = join(statement.columns.map((c) => ident(c)));
  return sql`INSERT INTO ${table} (${columns}) VALUES ${valuesList(statement.rows)}`;
}

/** Server facts from the driver, or read here when the executor is not this driver's. */
export async function serverOf(db: Executor): Promise<MysqlServerInfo> {
  if (isMysqlExecutor(db)) return db.server();
  const row = (await db.query({ text: 'SELECT VERSION() AS version, @@auto_increment_increment AS step', params: [] })).rows[0] ?? {};
  const version = String(row.version ?? '');
  const [major = 0, minor = 0, patch = 0] = (/^(\d+)\.(\d+)\.(\d+)/.exec(version) ?? []).slice(1).map(Number);
  return { version, mariadb: /mariadb/i.test(version), versionNumbers: [major, minor, patch], autoIncrementIncrement: Math.max(1, Number(row.step ?? 1)) };
}

/**
 * MySQL 8.0.19 added the row alias and 8.0.20 deprecated VALUES(col) in this clause; MariaDB
 * has no row alias and keeps VALUES(col).
 */
export function usesRowAlias(server: MysqlServerInfo): boolean {
  if (server.mariadb) return false;
  const [major, minor, patch] = server.versionNumbers;
  return major > 8 || (major === 8 && (minor > 0 || patch >= 19));
}

export function renderMysqlUpsert(table: Sql, statement: UpsertStatement, rowAlias: boolean): Sql {
  const head = insertHead(table, statement);
  if (statement.action === 'ERROR') return head;
  const first = statement.conflictColumns[0] ?? statement.columns[0] ?? '';
  if (statement.action === 'IGNORE') return sql`${head} ON DUPLICATE KEY UPDATE ${ident(first)} = ${ident(first)}`;
  // With nothing to overwrite, the first conflict column is set to itself: the row counts as updated.
  const assigned = statement.updateColumns.length > 0 ? statement.updateColumns : [first];
  const incoming = (c: string): Sql => (rowAlias ? ident(ROW_ALIAS, c) : sql`VALUES(${ident(c)})`);
  const sets = join(assigned.map((c) => sql`${ident(c)} = ${incoming(c)}`));
  return rowAlias
    ? sql`${head} AS ${ident(ROW_ALIAS)} ON DUPLICATE KEY UPDATE ${sets}`
    : sql`${head} ON DUPLICATE KEY UPDATE ${sets}`;
}

/** Derives the outcome from affected rows and the info text (see the header comment). */
export function upsertOutcome(action: UpsertStatement['action'], rows: number, affected: number, info: string): UpsertOutcome {
  const duplicates = /Duplicates:\s*(\d+)/i.exec(info);
  const changed = duplicates ? Number(duplicates[1]) : affected === 2 && rows === 1 ? 1 : 0;
  const inserted = Math.max(0, Math.min(rows, affected - 2 * changed));
  const rest = rows - inserted;
  return action === 'IGNORE' ? { inserted, updated: 0, ignored: rest } : { inserted, updated: rest, ignored: 0 };
}

export async function runUpsert(db: Executor, render: Render, table: Sql, statement: UpsertStatement): Promise<UpsertOutcome> {
  const rowAlias = statement.action === 'UPDATE' && usesRowAlias(await serverOf(db));
  const result = (await db.query(render(renderMysqlUpsert(table, statement, rowAlias)))) as Partial<MysqlQueryResult> & { affectedRows: number };
  return upsertOutcome(statement.action, statement.rows.length, result.affectedRows, result.info ?? '');
}

function wireId(id: bigint): number | string {
  return id <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(id) : id.toString();
}

/**
 * Runs an INSERT and returns the `returning` column's values in row order.
 * - Values given for the column in every row: those values.
 * - Values given for some rows only (a "mixed-mode insert"): one statement per row.
 * - MariaDB 10.5+: INSERT … RETURNING, which also reads back keys filled by other defaults.
 * - MySQL: the AUTO_INCREMENT ids. The OK packet carries the first one; a plain multi-row
 *   INSERT is a "simple insert" whose ids InnoDB allocates consecutively in every
 *   innodb_autoinc_lock_mode (gaps appear only for bulk and mixed-mode inserts, MySQL manual
 *   "AUTO_INCREMENT Handling in InnoDB"), spaced by @@auto_increment_increment. A key filled by
 *   another default (DEFAULT (UUID())) cannot be read back there, and the insert says so.
 */
export async function runInsert(db: Executor, render: Render, table: Sql, statement: InsertStatement, server: MysqlServerInfo): Promise<unknown[]> {
  const index = statement.columns.indexOf(statement.returning);
  const given = index < 0 ? [] : statement.rows.map((row) => row[index]);
  const provided = given.filter((value) => value !== null && value !== undefined).length;
  if (index >= 0 && provided === statement.rows.length) {
    await db.query(render(insertHead(table, statement)));
    return given;
  }
  if (provided > 0 && statement.rows.length > 1) {
    const ids: unknown[] = [];
    for (const row of statement.rows) ids.push(...(await runInsert(db, render, table, { ...statement, rows: [row] }, server)));
    return ids;
  }
  if (supportsReturning(server)) {
    const returning = sql`${insertHead(table, statement)} RETURNING ${ident(statement.returning)} AS ${raw('`returned`')}`;
    return (await db.query(render(returning))).rows.map((row) => row.returned);
  }
  const result = (await db.query(render(insertHead(table, statement)))) as Partial<MysqlQueryResult>;
  const first = BigInt(result.insertId ?? 0);
  if (first <= 0n) {
    throw new Error(`mysql: the insert into '${statement.table}' generated no AUTO_INCREMENT value for '${statement.returning}'`);
  }
  const step = BigInt(server.autoIncrementIncrement);
  return statement.rows.map((_, i) => wireId(first + BigInt(i) * step));
}

/** INSERT … RETURNING exists on MariaDB 10.5+ only. */
export function supportsReturning(server: MysqlServerInfo): boolean {
  const [major, minor] = server.versionNumbers;
  return server.mariadb && (major > 10 || (major === 10 && minor >= 5));
}

/**
 * MariaDB 10.5+: `INSERT … RETURNING <read shape>`, one statement, when the shape reads the
 * inserted row alone. RETURNING takes expressions over that row (computed columns, the row
 * policy's 1/0) but sits in no CTE and joins nothing, so an expansion or a computed column through
 * a relationship is left to the read-back statement; MySQL has no RETURNING at all. MariaDB's
 * UPDATE has no RETURNING either: updates always read back (docs/writes-and-import.md).
 */
export async function runInsertAndRead(db: Executor, render: Render, table: Sql, statement: InsertStatement, read: WrittenRowRead): Promise<Record<string, unknown>[] | null> {
  const columns = read.ownColumns(table);
  if (!columns || statement.rows.length !== 1 || !supportsReturning(await serverOf(db))) return null;
  return (await db.query(render(sql`${insertHead(table, statement)} RETURNING ${columns}`))).rows;
}
