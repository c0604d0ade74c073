/**
 * The write statements as the writers send them, for golden-SQL tests.
 *
 * Writes have no plan yet (issue 13, finding 4): core/write/records.ts and
 * core/import/write-batch.ts assemble UPDATE and DELETE inside the functions that run them.
 * `updateOf` and `deleteOf` repeat that assembly from the same parts (the dialect's
 * updateStatement/deleteStatement, the planner's predicateSql over the root alias, policy
 * predicates then the id); when a plan-write exists they should call it instead.
 *
 * INSERT and upsert are rendered inside the dialects' `insert`/`upsert`, which run them: they are
 * captured here through a recording executor that answers like a server would.
 */
import { ident, join, sql, type CompiledSql, type Sql } from '../../core/sql.ts';
import type { Entity } from '../../core/schema/model.ts';
import { predicateSql, type CompileContext } from '../../core/query/compile-read.ts';
import { ROOT_ALIAS } from '../../core/query/joins.ts';
import type { Predicate, ReadPolicy } from '../../core/query/plan.ts';
import { idPredicate } from '../../core/query/plan-read.ts';
import type { Executor, InsertStatement, QueryResult, UpsertStatement } from '../../dialects/dialect.ts';
import type { Vendor } from './fixture.ts';

/** `(p1) AND (p2)` over the root alias: the writers' row condition (policy first, then the id). */
function rowCondition(vendor: Vendor, entity: Entity, policy: ReadPolicy, id: unknown): Sql {
  const ctx: CompileContext = { dialect: vendor.dialect, config: vendor.config, root: entity, joins: new Map() };
  const where: Predicate[] = [...policy.rowPredicates(entity), idPredicate(entity.idField, id)];
  return join(where.map((p) => sql`(${predicateSql(ctx, p)})`), ' AND ');
}

/** `values` by API field name, encoded for the column as the writers encode them. */
function assignments(vendor: Vendor, entity: Entity, values: Record<string, unknown>): Sql {
  return join(Object.entries(values).map(([name, value]) => {
    const field = entity.fieldsByName.get(name);
    if (!field) throw new Error(`no field ${entity.name}.${name}`);
    return sql`${ident(field.column)} = ${vendor.dialect.encodeValue(field.type, value)}`;
  }));
}

export function updateOf(vendor: Vendor, entity: Entity, policy: ReadPolicy, id: unknown, values: Record<string, unknown>): Sql {
  const table = vendor.dialect.tableRef(entity.table, vendor.config);
  return vendor.dialect.updateStatement(table, ROOT_ALIAS, assignments(vendor, entity, values), rowCondition(vendor, entity, policy, id));
}

export function deleteOf(vendor: Vendor, entity: Entity, policy: ReadPolicy, id: unknown): Sql {
  const table = vendor.dialect.tableRef(entity.table, vendor.config);
  return vendor.dialect.deleteStatement(table, ROOT_ALIAS, rowCondition(vendor, entity, policy, id));
}

/** What the MySQL dialect asks its server before an insert or upsert (mysql-upsert.ts serverOf). */
const SERVER_QUERY = 'SELECT VERSION() AS version, @@auto_increment_increment AS step';

/**
 * Records every statement except the MySQL server probe, which it answers with `version`; every
 * other statement gets one generated key (`returned`, `insertId`) and one affected row.
 */
export function recordingExecutor(version = '8.0.36'): Executor & { readonly statements: CompiledSql[] } {
  const statements: CompiledSql[] = [];
  return {
    statements,
    async query(statement: CompiledSql): Promise<QueryResult> {
      if (statement.text === SERVER_QUERY) return { rows: [{ version, step: 1 }], affectedRows: 0 };
      statements.push(statement);
      const answer: QueryResult & { insertId: bigint; info: string } = { rows: [{ returned: 1 }], affectedRows: 1, insertId: 1n, info: '' };
      return answer;
    },
  };
}

/** The one statement `dialect.insert` sends for `statement`. */
export async function insertSent(vendor: Vendor, statement: InsertStatement, version?: string): Promise<CompiledSql> {
  const db = recordingExecutor(version);
  await vendor.dialect.insert(db, statement, vendor.config);
  return onlyStatement(db.statements);
}

/** The one statement `dialect.upsert` sends for `statement`. */
export async function upsertSent(vendor: Vendor, statement: UpsertStatement, version?: string): Promise<CompiledSql> {
  const db = recordingExecutor(version);
  await vendor.dialect.upsert(db, statement, vendor.config);
  return onlyStatement(db.statements);
}

function onlyStatement(statements: readonly CompiledSql[]): CompiledSql {
  const [first, ...rest] = statements;
  if (!first || rest.length > 0) throw new Error(`expected one statement, got ${statements.length}`);
  return first;
}
