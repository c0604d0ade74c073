/**
 * An upsert must not let a row-level-security user overwrite a row they cannot see: before an
 * UPDATE-mode batch, rows whose key matches an existing row hidden by the policy are refused.
 */
import { render } from '../sql.ts';
import type { BoundDialect, ConflictAction, Executor } from '../../dialects/dialect.ts';
import { compileHiddenRows } from '../query/compile-write.ts';
import type { ReadScope } from '../query/plan.ts';
import { planHiddenRows } from '../query/plan-write.ts';
import type { Field } from '../schema/model.ts';
import type { BulkError, ValidRow } from './bulk-request.ts';

function keyOf(values: readonly unknown[]): string {
  return JSON.stringify(values.map(String));
}

export async function hiddenConflicts(
  dialect: BoundDialect,
  tx: Executor,
  scope: ReadScope,
  rows: readonly ValidRow[],
  conflictFields: readonly Field[],
  action: ConflictAction,
): Promise<{ writable: ValidRow[]; hidden: BulkError[] }> {
  const keyed = rows.filter((row) => conflictFields.every((f) => row.values.get(f) !== undefined && row.values.get(f) !== null));
  if (action !== 'UPDATE' || keyed.length === 0 || !planHiddenRows(scope, conflictFields, [])) return { writable: [...rows], hidden: [] };
  const perStatement = Math.max(1, Math.floor((dialect.capabilities.maxParams - 100) / Math.max(1, conflictFields.length)));
  const hiddenKeys = new Set<string>();
  for (let start = 0; start < keyed.length; start += perStatement) {
    const candidates = keyed.slice(start, start + perStatement).map((row) => conflictFields.map((f) => row.values.get(f)));
    const plan = planHiddenRows(scope, conflictFields, candidates);
    if (!plan) break;
    for (const found of (await tx.query(render(compileHiddenRows(plan, dialect), dialect.sql))).rows) {
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
