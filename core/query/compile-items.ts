/**
 * The items of a one-to-many expansion for a batch of parents, in one statement (DESIGN §13):
 * the items' read restricted to the parents' keys, numbered per parent in the items' order, and
 * cut at the array's size. A window function does the per-parent limit on every vendor.
 */
import { ident, join, sql, type Sql } from '../sql.ts';
import type { BoundDialect } from '../../dialects/dialect.ts';
import type { RecordAssembler } from './assemble.ts';
import { statementParts, type ArrayColumn } from './compile-read.ts';
import type { ArrayNode, Predicate } from './plan.ts';

/** The parent key each item row carries, and the item's position within its parent. */
export const ITEM_PARENT = 'p';
const ITEM_NUMBER = 'n';

export interface CompiledItems {
  readonly page: Sql;
  readonly assemble: RecordAssembler;
  readonly arrays: readonly ArrayColumn[];
}

/** `keys`: the parents' key values, already coerced to the item's foreign key type. */
export function compileItems(node: ArrayNode, keys: readonly unknown[], dialect: BoundDialect): CompiledItems {
  const ofParents: Predicate = { target: { kind: 'field', hops: [], field: node.itemField }, op: 'in', value: keys };
  const plan = { ...node.plan, where: [...node.plan.where, ofParents] };
  const parts = statementParts(plan, dialect);
  const parent = ident(parts.ctx.rootAlias, node.itemField.column);
  const numbered = sql`ROW_NUMBER() OVER (PARTITION BY ${parent} ORDER BY ${parts.order})`;
  const select = join([...parts.select, sql`${parent} AS ${ident(ITEM_PARENT)}`, sql`${numbered} AS ${ident(ITEM_NUMBER)}`]);
  const inner = sql`SELECT ${select} FROM ${parts.from}${parts.where}`;
  const position = ident('q', ITEM_NUMBER);
  return {
    page: sql`SELECT * FROM (${inner}) ${ident('q')} WHERE ${position} <= ${node.size} ORDER BY ${position}`,
    assemble: parts.assemble,
    arrays: parts.arrays,
  };
}
