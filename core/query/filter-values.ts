/** Filter values arrive as text; they are coerced to the target's type before binding (DESIGN §6). */
import { badRequest } from '../errors.ts';
import type { ColumnType } from '../schema/introspection.ts';
import type { FilterOperator } from './operators.ts';
import type { Target, ValueType } from './plan.ts';
import { parseScalar } from '../schema/coerce.ts';

/** Bound parameters per list stay well under every vendor's cap (SQL Server: 2100 per statement). */
export const MAX_IN_VALUES = 500;

/** Escapes LIKE wildcards so `contains` and friends match the value literally (escape char `\`). */
export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

const COLUMN_TYPE_OF_VALUE: Record<ValueType, ColumnType> = {
  text: 'text',
  number: 'float',
  boolean: 'boolean',
  date: 'date',
  timestamp: 'timestamp',
  null: 'text',
};

export function targetType(target: Target): ColumnType {
  return target.kind === 'field' ? target.field.type : COLUMN_TYPE_OF_VALUE[target.computed.valueType];
}

/**
 * A root column declared NOT NULL cannot be NULL; a related value can (the LEFT JOIN may find no
 * row), and so can a computed one. The seek and the ORDER BY spelling both rest on this.
 */
export function canBeNull(target: Target): boolean {
  return target.kind === 'computed' || target.hops.length > 0 || target.field.nullable;
}

export function targetName(target: Target): string {
  return [...target.hops, target.kind === 'field' ? target.field.name : target.computed.fieldName].join('.');
}

function coerce(target: Target, text: string): unknown {
  const type = targetType(target);
  if (type === 'json' || type === 'binary') throw badRequest(`filter: '${targetName(target)}' cannot be compared`);
  const result = parseScalar(type, text, { fromText: true });
  if (!result.ok) throw badRequest(`filter: '${text}' is not a valid value for '${targetName(target)}' (${result.message})`);
  // Decimals pass as exact text; one beyond double range (1e999999) would only fail inside the database.
  if ((type === 'decimal' || type === 'float') && !Number.isFinite(Number(result.value))) {
    throw badRequest(`filter: '${text}' is out of range for '${targetName(target)}'`);
  }
  return result.value;
}

/** True when the LIKE pattern ends in an unpaired escape character, which the database refuses. */
function endsWithEscape(pattern: string): boolean {
  const trailing = /\\*$/.exec(pattern)?.[0].length ?? 0;
  return trailing % 2 === 1;
}

type ValueReader = (target: Target, text: string, op: FilterOperator) => unknown;

function pattern(_target: Target, text: string, op: FilterOperator): string {
  if (endsWithEscape(text)) throw badRequest(`filter: a ${op} pattern must not end with the escape character '\\'`);
  return text;
}

function list(target: Target, text: string, op: FilterOperator): unknown[] {
  const items = text.split(',');
  if (items.length > MAX_IN_VALUES) throw badRequest(`filter: ${op} takes at most ${MAX_IN_VALUES} values, got ${items.length}`);
  return items.map((item) => coerce(target, item));
}

function isNull(_target: Target, text: string): boolean {
  if (text !== 'true' && text !== 'false') throw badRequest(`filter: isNull takes true or false, got '${text}'`);
  return text === 'true';
}

/** How each operator reads its value: one entry per operator, or the table does not type-check. */
const VALUE_READERS: Record<FilterOperator, ValueReader> = {
  eq: coerce,
  neq: coerce,
  gt: coerce,
  gte: coerce,
  lt: coerce,
  lte: coerce,
  like: pattern,
  ilike: pattern,
  contains: (_target, text) => `%${escapeLike(text)}%`,
  startsWith: (_target, text) => `${escapeLike(text)}%`,
  endsWith: (_target, text) => `%${escapeLike(text)}`,
  in: list,
  nin: list,
  isNull,
};

export function coerceFilterValue(target: Target, op: FilterOperator, text: string): unknown {
  // No text column can hold U+0000 (PostgreSQL refuses it outright): a plain 400, not a driver error.
  if (text.includes('\u0000')) throw badRequest(`filter: the value for '${targetName(target)}' contains the NUL character (U+0000)`);
  return VALUE_READERS[op](target, text, op);
}
