/**
 * Write plans: which rows an UPDATE, a DELETE or the upsert's visibility check touches, decided
 * once from the scope (row policy and key), as plan-read does for reads. compile-write.ts turns
 * them into SQL; the writers (core/write, core/import) only run it.
 */
import type { Entity, Field } from '../schema/model.ts';
import type { Predicate, ReadScope } from './plan.ts';
import { idPredicate } from './plan-read.ts';

/** One row chosen by its key, if the caller's row policy lets them see it. */
export interface RowWritePlan {
  readonly entity: Entity;
  /** The policy predicates and the key: a row must satisfy all of them to be changed. */
  readonly where: readonly Predicate[];
}

export interface UpdatePlan extends RowWritePlan {
  /** New values by field, already coerced to the column types. */
  readonly values: ReadonlyMap<Field, unknown>;
}

/**
 * The stored rows whose `keyFields` equal one of `candidates` and that the caller's policy hides:
 * an upsert must not overwrite them (core/write/bulk-visibility.ts).
 */
export interface HiddenRowsPlan {
  readonly entity: Entity;
  readonly keyFields: readonly Field[];
  readonly candidates: readonly (readonly unknown[])[];
  /** The policy predicates: a stored row is hidden when it fails them. */
  readonly visible: readonly Predicate[];
}

export function planRowWrite(scope: ReadScope, id: unknown): RowWritePlan {
  const entity = scope.root.entity;
  return { entity, where: [...scope.policy.rowPredicates(entity), idPredicate(entity.idField, id)] };
}

export function planUpdate(scope: ReadScope, id: unknown, values: ReadonlyMap<Field, unknown>): UpdatePlan {
  return { ...planRowWrite(scope, id), values };
}

/** Null when nothing can be hidden: the scope has no row policy. */
export function planHiddenRows(scope: ReadScope, keyFields: readonly Field[], candidates: readonly (readonly unknown[])[]): HiddenRowsPlan | null {
  const entity = scope.root.entity;
  const visible = scope.policy.rowPredicates(entity);
  return visible.length === 0 ? null : { entity, keyFields, candidates, visible };
}
