/**
 * Cursor (keyset) paging, DESIGN §13: which query a cursor belongs to, the seek a cursor turns
 * into, and the cursor of a page's last row. The values travel in their wire forms, except that
 * decimals and timestamps keep every digit, and are coerced back to each sort key's type, so they
 * reach SQL only as bound parameters.
 */
import type { ColumnType } from '../schema/introspection.ts';
import { parseScalar } from '../schema/coerce.ts';
import { exactTimestamp, toWireValue } from '../schema/values.ts';
import { cursorMismatch, openCursor, signCursor } from './cursor-token.ts';
import { targetType } from './filter-values.ts';
import type { Keyset, OrderTerm, ReadPlan, ReadScope } from './plan.ts';
import type { ReadRequest } from './request.ts';
import { planSeek } from './seek.ts';

/**
 * Request members that may change from one page to the next. Every other member (sort, filters,
 * and whatever narrows the rows in future, such as `where`) is part of the query's identity, so
 * a new row-narrowing parameter is covered without touching this module.
 */
const PER_PAGE: ReadonlySet<string> = new Set(['page', 'size', 'paging', 'count', 'expand', 'fields', 'arrays']);

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * What a cursor is tied to: the workspace and entity (or view) read, and every request member that
 * narrows or orders the rows. The cursor secret is the deployment's, so without the workspace the
 * same sort on a table of the same name in another workspace would accept the cursor.
 */
export function queryIdentity(scope: ReadScope, request: ReadRequest): string {
  const narrowing = Object.fromEntries(Object.entries(request).filter(([key]) => !PER_PAGE.has(key)));
  const source = { workspace: scope.workspaceId, entity: scope.root.entity.name, ...(scope.viewUuid ? { view: scope.viewUuid } : {}) };
  return stableJson({ ...source, ...narrowing });
}

/**
 * A sort key's value as the cursor carries it: exact decimals stay text, timestamps keep every
 * fractional digit the page statement read (the dialect's `exactText`), the rest in wire form.
 */
function cursorValue(type: ColumnType, raw: unknown): unknown {
  if (raw === null || raw === undefined) return null;
  if (type === 'decimal' && typeof raw === 'string') return raw;
  if (type === 'timestamp') return exactTimestamp(raw) ?? toWireValue(type, raw, true);
  return toWireValue(type, raw, true);
}

function coerceCursorValue(term: OrderTerm, value: unknown): unknown {
  if (value === null) return null;
  const type = targetType(term.target);
  const coerced = parseScalar(type, value);
  if (!coerced.ok) throw cursorMismatch();
  // parseScalar validates but cuts a timestamp to milliseconds; the seek needs all its digits.
  return type === 'timestamp' ? exactTimestamp(value) : coerced.value;
}

/** The sort-key values `after` carries, checked against `identity` and coerced to each key's type; a 400 otherwise. */
export function cursorValues(plan: ReadPlan, after: string, identity: string, secret: string): unknown[] {
  return openCursor(secret, identity, after, plan.order.length).map((value, i) => {
    const term = plan.order[i];
    if (!term) throw cursorMismatch();
    return coerceCursorValue(term, value);
  });
}

/** The plan of the page after the row whose sort keys are `values` (coerced, see cursorValues). */
export function seekPlan(plan: ReadPlan, values: readonly unknown[]): ReadPlan {
  return { ...plan, page: 0, keyset: planSeek(plan.order, values) };
}

/** The plan of a cursor page: the seek after `paging.after`, or the first page. Unchanged without cursor paging. */
export function planCursor(plan: ReadPlan, request: ReadRequest, identity: string, secret: string): ReadPlan {
  if (!request.paging) return plan;
  const after = request.paging.after;
  if (after === null) return { ...plan, page: 0, keyset: { after: null } };
  return seekPlan(plan, cursorValues(plan, after, identity, secret));
}

/** The column alias under which the page statement returns the i-th sort key (compile-read.ts). */
export function sortKeyAlias(i: number): string {
  return `k${i}`;
}

/** The cursor that continues after `row` (a raw page row holding the sort keys). */
export function cursorAfter(plan: ReadPlan, row: Record<string, unknown>, identity: string, secret: string): string {
  const values = plan.order.map((term, i) => cursorValue(targetType(term.target), row[sortKeyAlias(i)]));
  return signCursor(secret, identity, values);
}

/**
 * The keyset that continues after `row` without a signed token: the export's portable reading in
 * batches (core/query/export.ts), for drivers without a stream of their own.
 */
export function keysetAfter(plan: ReadPlan, row: Record<string, unknown>): Keyset {
  const values = plan.order.map((term, i) => coerceCursorValue(term, cursorValue(targetType(term.target), row[sortKeyAlias(i)])));
  return planSeek(plan.order, values);
}
