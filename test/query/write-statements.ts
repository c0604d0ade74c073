/**
 * The write statements as the writers send them, for golden-SQL tests.
 *
 * UPDATE and DELETE come from the write planner (core/query/plan-write.ts, compile-write.ts),
 * which core/write/records.ts and core/import/write-batch.ts call too.
 *
 * INSERT and upsert are rendered inside the dialects' `insert`/`upsert`, which run them: they are
 * captured here through a recording executor that answers like a server would.
 */
import type { CompiledSql, Sql } from '../../core/sql.ts';
import type { Entity, Field } from '../../core/schema/model.ts';
import { compileDelete, compileUpdate } from '../../core/query/compile-write.ts';
import type { ReadPolicy } from '../../core/query/plan.ts';
import { planRowWrite, planUpdate } from '../../core/query/plan-write.ts';
import type { Executor, InsertStatement, QueryResult, UpsertStatement } from '../../dialects/dialect.ts';
import { scopeOf, type Vendor } from './fixture.ts';

/** `values` by API field name as the field map a writer holds after validation. */
function valuesOf(entity: Entity, values: Record<string, unknown>): Map<Field, unknown> {
  return new Map(Object.entries(values).map(([name, value]) => {
    const field = entity.fieldsByName.get(name);
    if (!field) throw new Error(`no field ${entity.name}.${name}`);
    return [field, value];
  }));
}

export function updateOf(vendor: Vendor, entity: Entity, policy: ReadPolicy, id: unknown, values: Record<string, unknown>): Sql {
  return compileUpdate(planUpdate(scopeOf(entity.name, policy), id, valuesOf(entity, values)), vendor.dialect);
}

export function deleteOf(vendor: Vendor, entity: Entity, policy: ReadPolicy, id: unknown): Sql {
  return compileDelete(planRowWrite(scopeOf(entity.name, policy), id), vendor.dialect);
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
  await vendor.dialect.insert(db, statement);
  return onlyStatement(db.statements);
}

/** The one statement `dialect.upsert` sends for `statement`. */
export async function upsertSent(vendor: Vendor, statement: UpsertStatement, version?: string): Promise<CompiledSql> {
  const db = recordingExecutor(version);
  await vendor.dialect.upsert(db, statement);
  return onlyStatement(db.statements);
}

function onlyStatement(statements: readonly CompiledSql[]): CompiledSql {
  const [first, ...rest] = statements;
  if (!first || rest.length > 0) throw new Error(`expected one statement, got ${statements.length}`);
  return first;
}
