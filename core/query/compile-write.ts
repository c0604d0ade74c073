/** Write plans → SQL through the bound dialect, with the same predicate compiler as reads. */
import { ident, join, sql, type Sql } from '../sql.ts';
import type { BoundDialect, UpdateStatement } from '../../dialects/dialect.ts';
import type { Entity } from '../schema/model.ts';
import { conjunction, type CompileContext } from './compile-read.ts';
import { ROOT_ALIAS } from './joins.ts';
import type { HiddenRowsPlan, RowWritePlan, UpdatePlan } from './plan-write.ts';

/** A write touches one table, aliased as reads alias their root, and joins nothing. */
function singleTable(dialect: BoundDialect, entity: Entity): CompileContext {
  return { dialect, root: entity, rootAlias: ROOT_ALIAS, joins: new Map() };
}

/** The UPDATE in parts, for a vendor that reads the row back in the same round trip (`updateAndRead`). */
export function compileUpdateParts(plan: UpdatePlan, dialect: BoundDialect, id: unknown): UpdateStatement {
  const assignments = join([...plan.values.entries()].map(([f, v]) => sql`${ident(f.column)} = ${dialect.sql.encodeValue(f.type, v)}`));
  const where = conjunction(singleTable(dialect, plan.entity), plan.where);
  const key = dialect.sql.encodeValue(plan.entity.idField.type, id);
  return { table: plan.entity.table, alias: ROOT_ALIAS, assignments, where, key };
}

export function compileUpdate(plan: UpdatePlan, dialect: BoundDialect): Sql {
  const { assignments, where } = compileUpdateParts(plan, dialect, null);
  return dialect.sql.updateStatement(dialect.tableRef(plan.entity.table), ROOT_ALIAS, assignments, where);
}

export function compileDelete(plan: RowWritePlan, dialect: BoundDialect): Sql {
  return dialect.sql.deleteStatement(dialect.tableRef(plan.entity.table), ROOT_ALIAS, conjunction(singleTable(dialect, plan.entity), plan.where));
}

/** `SELECT key columns AS k0… WHERE (matches a candidate) AND NOT (visible)`. */
export function compileHiddenRows(plan: HiddenRowsPlan, dialect: BoundDialect): Sql {
  const keyColumns = plan.keyFields.map((f) => ident(ROOT_ALIAS, f.column));
  const matchOne = (values: readonly unknown[]) =>
    sql`(${join(plan.keyFields.map((f, i) => sql`${keyColumns[i]} = ${dialect.sql.encodeValue(f.type, values[i])}`), ' AND ')})`;
  const matches = join(plan.candidates.map(matchOne), ' OR ');
  const columns = join(keyColumns.map((column, i) => sql`${column} AS ${ident(`k${i}`)}`));
  const visible = conjunction(singleTable(dialect, plan.entity), plan.visible);
  return sql`SELECT ${columns} FROM ${dialect.tableRef(plan.entity.table)} ${ident(ROOT_ALIAS)} WHERE (${matches}) AND NOT (${visible})`;
}
