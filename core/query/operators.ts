/**
 * Every filter operator, once (DESIGN §6). The parser, the SQL compiler (compile-read.ts), the value
 * coercion (filter-values.ts), the OpenAPI document and the admin application's filter menu read
 * this table; each of them keeps its own per-operator table typed over `FilterOperator`, so an
 * operator added here and forgotten there is a type error instead of a silent fallback (a missing
 * compiler case once compiled to LIKE).
 *
 * No imports: the admin application's bundle includes this file as it is.
 */
export const FILTER_OPERATORS = [
  'eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'like', 'ilike', 'contains', 'startsWith', 'endsWith', 'in', 'nin', 'isNull',
] as const;

export type FilterOperator = (typeof FILTER_OPERATORS)[number];

/** The field kinds a client offers an operator for: text (and uuid), ordered values, booleans. */
export type OperandKind = 'text' | 'ordered' | 'boolean';

export interface OperatorSpec {
  /** One line for documents and menus. */
  readonly summary: string;
  /** What the filter's value is: one value, a comma-separated list, `true`/`false`, or text to match. */
  readonly value: 'one' | 'list' | 'boolean' | 'pattern' | 'literal';
  readonly offeredFor: readonly OperandKind[];
}

const ALL: readonly OperandKind[] = ['text', 'ordered', 'boolean'];
const VALUES: readonly OperandKind[] = ['text', 'ordered'];

export const OPERATORS = {
  eq: { summary: 'equals', value: 'one', offeredFor: ALL },
  neq: { summary: 'differs from (a NULL matches neither)', value: 'one', offeredFor: ALL },
  gt: { summary: 'greater than', value: 'one', offeredFor: ['ordered'] },
  gte: { summary: 'greater than or equal to', value: 'one', offeredFor: ['ordered'] },
  lt: { summary: 'less than', value: 'one', offeredFor: ['ordered'] },
  lte: { summary: 'less than or equal to', value: 'one', offeredFor: ['ordered'] },
  like: { summary: 'matches a LIKE pattern (% and _, \\ escapes), case-sensitive', value: 'pattern', offeredFor: ['text'] },
  ilike: { summary: 'matches a LIKE pattern, case-insensitive', value: 'pattern', offeredFor: ['text'] },
  contains: { summary: 'contains the text (case-sensitive, taken literally)', value: 'literal', offeredFor: ['text'] },
  startsWith: { summary: 'starts with the text (case-sensitive, taken literally)', value: 'literal', offeredFor: ['text'] },
  endsWith: { summary: 'ends with the text (case-sensitive, taken literally)', value: 'literal', offeredFor: ['text'] },
  in: { summary: 'equals one of a comma-separated list (at most 500 values)', value: 'list', offeredFor: VALUES },
  nin: { summary: 'equals none of a comma-separated list (a NULL matches neither)', value: 'list', offeredFor: VALUES },
  isNull: { summary: 'is NULL (`true`) or is not (`false`)', value: 'boolean', offeredFor: ALL },
} as const satisfies Record<FilterOperator, OperatorSpec>;

/** The operators a client offers for a field of this kind, in the table's order. */
export function operatorsFor(kind: OperandKind): FilterOperator[] {
  return FILTER_OPERATORS.filter((op) => (OPERATORS[op].offeredFor as readonly OperandKind[]).includes(kind));
}
