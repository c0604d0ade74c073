/**
 * An upsert must not let a row-level-security user overwrite a row they cannot see: before an
 * UPDATE-mode batch, rows whose key matches an existing row hidden by the policy are refused.
 */
import { ident, join, render, sql } from '../sql.ts';
import type { ConflictAction, Executor } from '../../dialects/dialect.ts';
import type { WorkspaceRuntime } from '../workspace/runtime.ts';
import { predicateSql, type CompileContext } from '../query/compile-read.ts';
import { ROOT_ALIAS } from '../query/joins.ts';
import type { ReadScope } from '../query/plan.ts';
import type { Field } from '../schema/model.ts';
import type { BulkError, ValidRow } from './bulk-request.ts';

function keyOf(values: readonly unknown[]): string {
  return JSON.stringify(values.map(String));
}

export async function hiddenConflicts(
  runtime: WorkspaceRuntime,
  tx: Executor,
  scope: ReadScope,
  rows: readonly ValidRow[],
  conflictFields: readonly Field[],
  action: ConflictAction,
): Promise<{ writable: ValidRow[]; hidden: BulkError[] }> {
  const entity = scope.root.entity;
  const policy = scope.policy.rowPredicates(entity);
  const keyed = rows.filter((row) => conflictFields.every((f) => row.values.get(f) !== undefined && row.values.get(f) !== null));
  if (action !== 'UPDATE' || policy.length === 0 || keyed.length === 0) return { writable: [...rows], hidden: [] };
  const ctx: CompileContext = { dialect: runtime.dialect, config: runtime.config, root: entity, joins: new Map() };
  const visible = join(policy.map((p) => sql`(${predicateSql(ctx, p)})`), ' AND ');
  const perStatement = Math.max(1, Math.floor((runtime.dialect.maxParams - 100) / Math.max(1, conflictFields.length)));
  const hiddenKeys = new Set<string>();
  for (let start = 0; start < keyed.length; start += perStatement) {
    const chunk = keyed.slice(start, start + perStatement);
    const matches = join(chunk.map((row) => sql`(${join(conflictFields.map((f) => sql`${ident(ROOT_ALIAS, f.column)} = ${runtime.dialect.encodeValue(f.type, row.values.get(f))}`), ' AND ')})`), ' OR ');
    const columns = join(conflictFields.map((f, i) => sql`${ident(ROOT_ALIAS, f.column)} AS ${ident(`k${i}`)}`));
    const statement = sql`SELECT ${columns} FROM ${runtime.dialect.tableRef(entity.table, runtime.config)} ${ident(ROOT_ALIAS)} WHERE (${matches}) AND NOT (${visible})`;
    for (const found of (await tx.query(render(statement, runtime.dialect))).rows) {
      hiddenKeys.add(keyOf(conflictFields.map((_, i) => found[`k${i}`])));
    }
  }
  const hidden: BulkError[] = [];
  const writable = rows.filter((row) => {
    const values = conflictFields.map((f) => row.values.get(f));
    if (!hiddenKeys.has(keyOf(values))) return true;
    hidden.push({ row: row.index, code: 'FORBIDDEN', message: 'a row with the same key exists and is not visible to you' });
    return false;
  });
  return { writable, hidden };
}
