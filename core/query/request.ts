/** A read request as parsed from HTTP, not yet checked against the schema. */
import type { CountMode } from '../schema/entity-options.ts';
import type { FilterOperator } from './operators.ts';

export type SortDirection = 'asc' | 'desc';

export interface SortRequest {
  readonly path: readonly string[];
  readonly direction: SortDirection;
}

export interface FilterRequest {
  readonly path: readonly string[];
  readonly op: FilterOperator;
  readonly value: string;
}

export interface ReadRequest {
  readonly page: number;
  readonly size: number;
  readonly sort: readonly SortRequest[];
  /** Relationship paths; null when the parameter is absent (the entity's default applies). */
  readonly expand: readonly (readonly string[])[] | null;
  /** Field paths; null when the parameter is absent (the entity's default applies). */
  readonly fields: readonly (readonly string[])[] | null;
  readonly filters: readonly FilterRequest[];
  readonly count: CountMode | null;
  /** The `where` formula text (DESIGN §13); only the list routes take it. */
  readonly where?: string;
  /** Cursor (keyset) paging, DESIGN §13; absent: offset paging by `page`. */
  readonly paging?: CursorPaging;
  /** Per one-to-many path: `expandSize[…]`, `expandSort[…]`, `expandWhere[…]` (DESIGN §13). */
  readonly arrays?: ArrayRequests;
}

/** The options of one-to-many arrays, keyed by the array's dotted path from the root. */
export interface ArrayRequests {
  readonly size: ReadonlyMap<string, number>;
  readonly sort: ReadonlyMap<string, readonly SortRequest[]>;
  readonly where: ReadonlyMap<string, string>;
}

/** `paging=cursor`, and `after=<nextCursor>` from the previous page (null on the first page). */
export interface CursorPaging {
  readonly mode: 'cursor';
  readonly after: string | null;
}

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 1000;
export const DEFAULT_ARRAY_SIZE = 20;
export const MAX_ARRAY_SIZE = 1000;
