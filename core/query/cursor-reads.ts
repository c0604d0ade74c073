/**
 * Later cursor pages from the read cache (core/query/read-cache.ts). A page's statement differs
 * from the next page's only in the cursor's values, bound as parameters, and in which of them are
 * NULL (the seek spells `IS NULL` there, core/query/seek.ts). So it is compiled once per request
 * shape and NULL pattern, with a stand-in per value, and each request binds its cursor's values
 * into a copy of the parameters through the dialect's `encodeValue`, as compiling would: walking a
 * table costs no compile per page. The cursor is still opened and checked on every request.
 */
import type { BoundDialect } from '../../dialects/dialect.ts';
import type { ColumnType } from '../schema/introspection.ts';
import { cursorValues, seekPlan } from './cursor.ts';
import { targetType } from './filter-values.ts';
import type { ReadPlan, ReadScope } from './plan.ts';
import { planRead } from './plan-read.ts';
import { prepare, type PreparedRead } from './prepared-read.ts';
import type { ReadCache } from './read-cache.ts';
import { requestKey } from './request-key.ts';
import type { ReadRequest } from './request.ts';

/** Stands for a cursor's i-th value while a seek page is compiled; never bound. */
interface CursorSlot {
  readonly cursorSlot: number;
}

const cursorSlots: CursorSlot[] = [];

function cursorSlot(i: number): CursorSlot {
  return (cursorSlots[i] ??= Object.freeze({ cursorSlot: i }));
}

function isCursorSlot(value: unknown): value is CursorSlot {
  return typeof value === 'object' && value !== null && cursorSlots.includes(value as CursorSlot);
}

/** A seek page compiled for one NULL pattern: where each cursor value is bound among its parameters. */
interface PreparedSeek extends PreparedRead {
  readonly bindings: readonly { readonly param: number; readonly value: number }[];
}

/** A request shape's plan without its cursor, and its seek pages by NULL pattern ('1' where NULL). */
interface SeekShape {
  readonly base: ReadPlan;
  readonly types: readonly ColumnType[];
  readonly pages: Map<string, PreparedSeek | null>;
}

/**
 * The seek page of `shape` for cursors NULL where `nulls` says so. Null when a value would not
 * reach the parameters as itself (a dialect that re-encodes a key's type): such pages compile
 * every time.
 */
function prepareSeek(shape: SeekShape, nulls: string, dialect: BoundDialect): PreparedSeek | null {
  const standIns = shape.types.map((type, i) => (nulls[i] === '1' ? null : cursorSlot(i)));
  if (standIns.some((slot, i) => slot !== null && dialect.sql.encodeValue(shape.types[i] ?? 'text', slot) !== slot)) return null;
  const prepared = prepare(seekPlan(shape.base, standIns), dialect);
  const bindings = prepared.page.params.flatMap((value, param) => (isCursorSlot(value) ? [{ param, value: value.cursorSlot }] : []));
  const bound = new Set(bindings.map((binding) => binding.value));
  return standIns.every((slot, i) => slot === null || bound.has(i)) ? { ...prepared, bindings } : null;
}

/** The key of a request's shape: the request without its cursor. Kept per request object, as requestKey is. */
const shapeKeys = new WeakMap<ReadRequest, string>();

function shapeKeyOf(request: ReadRequest): string {
  const known = shapeKeys.get(request);
  if (known !== undefined) return known;
  const key = `seek:${requestKey({ ...request, paging: { mode: 'cursor', after: null } })}`;
  shapeKeys.set(request, key);
  return key;
}

/** The read of the cursor page after `after` (a 400 when the cursor does not belong to the query). */
export function prepareAfterCursor(
  dialect: BoundDialect,
  { scope, reads, request }: { scope: ReadScope; reads: ReadCache; request: ReadRequest },
  { after, identity, secret }: { after: string; identity: string; secret: string },
): PreparedRead {
  const shape = reads.get(shapeKeyOf(request), (): SeekShape => {
    const base = planRead(scope, request);
    return { base, types: base.order.map((term) => targetType(term.target)), pages: new Map() };
  });
  const values = cursorValues(shape.base, after, identity, secret);
  const nulls = values.map((value) => (value === null ? '1' : '0')).join('');
  let page = shape.pages.get(nulls);
  if (page === undefined) shape.pages.set(nulls, (page = prepareSeek(shape, nulls, dialect)));
  if (!page) return prepare(seekPlan(shape.base, values), dialect);
  const params = [...page.page.params];
  for (const { param, value } of page.bindings) params[param] = dialect.sql.encodeValue(shape.types[value] ?? 'text', values[value]);
  return { plan: page.plan, compiled: page.compiled, page: { text: page.page.text, params } };
}
