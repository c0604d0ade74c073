/**
 * The read of a row a create or an update has just written, for the vendor to run in the same
 * round trip as the write (`WrittenRowRead` in dialects/dialect.ts). It is the
 * get-by-id read (readRecord in read.ts) with one change: the row policy and the request's filters
 * become a 1/0 column instead of the WHERE, and the key is selected too, so that a written row the
 * caller cannot read still answers 404 naming its key, exactly as the read-back SELECT did.
 */
import { ident, join, sql, type Sql, type SqlPart } from '../sql.ts';
import type { BoundDialect, WrittenRowRead } from '../../dialects/dialect.ts';
import type { Entity } from '../schema/model.ts';
import { conjunction, joinSql, statementParts, type StatementParts } from './compile-read.ts';
import { ROOT_ALIAS } from './joins.ts';
import type { ExistsPlan, Predicate, ReadPlan, ReadScope } from './plan.ts';
import { planRead } from './plan-read.ts';
import type { ReadRequest } from './request.ts';

/** The key of the written row, whatever `fields` selects. */
export const WRITTEN_KEY_ALIAS = 'written_key';
/** 1 when the caller may read the written row, 0 when the policy or a filter hides it; absent: 1. */
export const WRITTEN_VISIBLE_ALIAS = 'written_visible';

export interface PlannedWrittenRead {
  readonly read: WrittenRowRead;
  /** The assembler and the one-to-many arrays, read after the write as after any page. */
  readonly parts: Pick<StatementParts, 'assemble' | 'arrays'>;
}

/** Every EXISTS plan among the predicates, nested ones included. */
function existsPlans(predicates: readonly Predicate[]): ExistsPlan[] {
  return predicates.flatMap((p) => {
    if (p.op === 'exists') {
      const plan = p.value as ExistsPlan;
      return [plan, ...existsPlans(plan.where), ...[...plan.joins.values()].flatMap((j) => existsPlans(j.conditions))];
    }
    return p.op === 'holds' ? existsPlans(p.value as readonly Predicate[]) : [];
  });
}

function readsTable(plan: ReadPlan, table: string): boolean {
  const joined = [...plan.joins.values()];
  const exists = existsPlans([...plan.where, ...joined.flatMap((j) => j.conditions)]);
  return joined.some((j) => j.entity.table === table) || exists.some((e) => e.entity.table === table || [...e.joins.values()].some((j) => j.entity.table === table));
}

/** `fragment` with every column of the root alias qualified by `table` instead (RETURNING has no alias). */
function requalify(fragment: Sql, table: Sql): Sql {
  const parts = fragment.parts.map((part): SqlPart => {
    if (part.kind === 'fragment') return { kind: 'fragment', fragment: requalify(part.fragment, table) };
    if (part.kind !== 'ident' || part.names.length !== 2 || part.names[0] !== ROOT_ALIAS) return part;
    return { kind: 'fragment', fragment: sql`${table}.${ident(part.names[1] ?? '')}` };
  });
  return { parts };
}

function selectList(parts: StatementParts, plan: ReadPlan, entity: Entity): Sql {
  const extra = [sql`${ident(ROOT_ALIAS, entity.idField.column)} AS ${ident(WRITTEN_KEY_ALIAS)}`];
  if (plan.where.length > 0) extra.push(sql`CASE WHEN ${conjunction(parts.ctx, plan.where)} THEN 1 ELSE 0 END AS ${ident(WRITTEN_VISIBLE_ALIAS)}`);
  return join([...parts.select, ...extra]);
}

/** The written row's read through `scope` as `request` shapes it (planned before the write: a bad parameter writes nothing). */
export function planWrittenRead(scope: ReadScope, request: ReadRequest, dialect: BoundDialect): PlannedWrittenRead {
  const entity = scope.root.entity;
  const plan = planRead(scope, { ...request, page: 0, size: 1, sort: [], count: 'none' });
  const parts = statementParts(plan, dialect);
  const list = selectList(parts, plan, entity);
  const joins = join([...plan.joins.values()].map((node) => joinSql(parts.ctx, node)), '');
  const ownRow = plan.joins.size === 0 && existsPlans(plan.where).length === 0;
  const read: WrittenRowRead = {
    over: (relation) => sql`SELECT ${list} FROM ${relation} ${ident(ROOT_ALIAS)}${joins}`,
    byKey: (key) => sql`SELECT ${list} FROM ${parts.from} WHERE ${ident(ROOT_ALIAS, entity.idField.column)} = ${key}`,
    ownColumns: (table) => (ownRow ? requalify(list, table) : null),
    key: { column: entity.idField.column, nativeType: entity.idField.nativeType },
    readsWrittenTable: readsTable(plan, entity.table),
  };
  return { read, parts };
}

/**
 * PlanWrittenRead once per request shape where the scope keeps compiled reads (owners: nothing in
 * it is bound per caller), like the reads themselves (read-cache.ts).
 */
export function writtenReadOf(scope: ReadScope, request: ReadRequest, dialect: BoundDialect): PlannedWrittenRead {
  // Inline, not a named const: see prepareList in read.ts (tsx names each such closure as it is made).
  if (!scope.reads) return planWrittenRead(scope, request, dialect);
  return scope.reads.forRequest('written', request, () => planWrittenRead(scope, request, dialect));
}

/** The row of `rows` the caller may read, or undefined; with the written key for a 404's message. */
export function visibleRow(rows: readonly Record<string, unknown>[]): { row: Record<string, unknown> | undefined; key: unknown } {
  const row = rows[0];
  if (!row) return { row: undefined, key: undefined };
  const visible = row[WRITTEN_VISIBLE_ALIAS];
  const hidden = visible !== undefined && Number(visible) !== 1;
  return { row: hidden ? undefined : row, key: row[WRITTEN_KEY_ALIAS] };
}
