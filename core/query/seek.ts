/**
 * The keyset seek: "rows after this position in the sort order" as plain predicates, so the one
 * predicate compiler spells it for every vendor (SQL Server has no row-value comparison).
 *
 * With keys k1..kn (the id tiebreak last) and the cursor row's values v1..vn, a row comes after
 * the cursor when, for some i, it equals the cursor on k1..k(i-1) and comes after it on ki:
 *   (k1 after v1) OR (k1 = v1 AND k2 after v2) OR …
 * "Equal" and "after" follow DESIGN §12's NULL ordering (NULLs last ascending, first descending):
 *   equal:            v NULL → k IS NULL;       else k = v
 *   after, ascending: v NULL → nothing;         else k > v, or k IS NULL (NULLs come last)
 *   after, desc:      v NULL → k IS NOT NULL;   else k < v (NULLs came first)
 *
 * Planners do not read an index range out of that OR (PostgreSQL filters the index from its
 * start: a page deep in the table reads every row before it), so the seek also carries the bound
 * every branch implies on the first key, `k1 >= v1` (`<=` descending), where it is a plain range.
 */
import type { Keyset, OrderTerm, Predicate, Target } from './plan.ts';
import { canBeNull } from './filter-values.ts';

/** One alternative of the OR: every predicate must hold. */
export type SeekBranch = readonly Predicate[];

function isNull(target: Target, yes: boolean): Predicate {
  return { target, op: 'isNull', value: yes };
}

function equalTo(target: Target, value: unknown): Predicate {
  return value === null ? isNull(target, true) : { target, op: 'eq', value };
}

/** The alternatives by which a row comes strictly after `value` on this key alone. */
function afterOn(term: OrderTerm, value: unknown): Predicate[] {
  const { target, direction } = term;
  if (direction === 'asc') {
    if (value === null) return [];
    const greater: Predicate = { target, op: 'gt', value };
    return canBeNull(target) ? [greater, isNull(target, true)] : [greater];
  }
  return value === null ? [isNull(target, false)] : [{ target, op: 'lt', value }];
}

/**
 * The seek condition for the cursor row's `values` (one per order term, already coerced to each
 * target's type), as an OR of AND-ed branches. Never empty: the id tiebreak is never NULL, so its
 * branch always exists.
 */
function seekBranches(order: readonly OrderTerm[], values: readonly unknown[]): SeekBranch[] {
  const branches: SeekBranch[] = [];
  const prefix: Predicate[] = [];
  order.forEach((term, i) => {
    const value = values[i] ?? null;
    for (const after of afterOn(term, value)) branches.push([...prefix, after]);
    prefix.push(equalTo(term.target, value));
  });
  return branches;
}

/**
 * `k1 >= v1` ascending, `k1 <= v1` descending: true of every row after the cursor, unless NULLs
 * can still follow (ascending over a nullable key) or the cursor's own key is NULL.
 */
function firstKeyBound(term: OrderTerm | undefined, value: unknown): Predicate | null {
  if (!term || value === null || value === undefined) return null;
  if (term.direction === 'asc') return canBeNull(term.target) ? null : { target: term.target, op: 'gte', value };
  return { target: term.target, op: 'lte', value };
}

/** The keyset after the cursor row whose sort keys are `values`. */
export function planSeek(order: readonly OrderTerm[], values: readonly unknown[]): Keyset {
  return { after: seekBranches(order, values), bound: firstKeyBound(order[0], values[0]) };
}
