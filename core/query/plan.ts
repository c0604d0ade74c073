/** The validated read plan: what to select, join, filter and sort. Pure data, no SQL text. */
import type { Sql } from '../sql.ts';
import type { Expr } from '../formula/ast.ts';
import type { FormulaDialect } from '../formula/formula-dialect.ts';
import type { MigrationFlag } from '../workspace/types.ts';
import type { CountMode, EntityOptions } from '../schema/entity-options.ts';
import type { Entity, Field, SchemaModel } from '../schema/model.ts';
import type { SortDirection } from './request.ts';
import type { FilterOperator } from './operators.ts';
import type { ReadCache } from './read-cache.ts';

export type ValueType = 'text' | 'number' | 'boolean' | 'date' | 'timestamp' | 'null';

/** A computed column as the planner sees it: compiled elsewhere (core/formula), emitted here. */
export interface ComputedField {
  readonly fieldName: string;
  readonly valueType: ValueType;
  /** Field paths the formula reads, relative to its entity (['amount'], ['customer', 'name']). */
  readonly refs: readonly (readonly string[])[];
  /** Emits the expression; `columnRef` turns a ref path into a qualified column. */
  readonly emit: (columnRef: (path: readonly string[]) => Sql, formula: FormulaDialect) => Sql;
  /** Set when the formula no longer compiles against the schema; the column reads as null. */
  readonly broken: string | null;
  /** The checked tree (API names), for formulas that name the column (a `where` inlines it). */
  readonly ast?: Expr;
}

/** An entity as read through one of its views. */
export interface ViewShape {
  readonly entity: Entity;
  readonly computed: readonly ComputedField[];
  readonly options: EntityOptions;
  readonly migration: MigrationFlag | null;
}

/** Row predicates that a policy plugin (RLS) adds to every node reading an entity. */
export interface ReadPolicy {
  rowPredicates(entity: Entity): readonly Predicate[];
}

/** The policy of owners: every row. */
export const NO_POLICY: ReadPolicy = { rowPredicates: () => [] };

export interface ReadScope {
  /** The workspace read, so a cursor signed in one workspace is refused in another (cursor.ts). */
  readonly workspaceId: string;
  readonly model: SchemaModel;
  /** The view being read (the entity's default view for record endpoints). */
  readonly root: ViewShape;
  /** The default view of any entity (used for expansions). */
  defaultView(entityName: string): ViewShape;
  readonly policy: ReadPolicy;
  /** The named view read by the view data query; absent for the entity's default view. */
  readonly viewUuid?: string;
  /** Compiled reads of this root view by request shape; absent where the policy binds values (read-cache.ts). */
  readonly reads?: ReadCache;
}

/** A value reachable from a node: a field or computed column, possibly through many-to-one hops. */
export type Target =
  | { readonly kind: 'field'; readonly hops: readonly string[]; readonly field: Field }
  | { readonly kind: 'computed'; readonly hops: readonly string[]; readonly computed: ComputedField };

export interface Predicate {
  readonly target: Target;
  /**
   * `never` matches no row (a policy that cannot be satisfied, e.g. a missing claim); `holds`
   * keeps the rows where a boolean computed target (a `where` formula, core/query/where.ts) is
   * true, and its value lists the predicates that must hold before the formula is evaluated.
   */
  readonly op: FilterOperator | 'never' | 'holds' | 'exists';
  /**
   * Coerced value: a scalar, an array for in/nin, a boolean for isNull, a LIKE pattern for text
   * operators; for `exists` the ExistsPlan whose rows point at the target (a filter through a
   * one-to-many relationship).
   */
  readonly value: unknown;
  /**
   * The row policy's predicates that must hold before this predicate is evaluated: a filter on a
   * computed column runs its formula, which may raise (a failing CAST), only on rows they admit.
   */
  readonly guards?: readonly Predicate[];
}

/**
 * "Some related row matches": a correlated subquery over the item entity of a one-to-many
 * relationship, its rows joined to the target (the parent's referenced field) by `itemField`.
 * Its aliases carry their own prefix, so it nests inside any statement.
 */
export interface ExistsPlan {
  readonly entity: Entity;
  readonly rootAlias: string;
  readonly joins: ReadonlyMap<string, JoinNode>;
  readonly itemField: Field;
  readonly where: readonly Predicate[];
}

export interface JoinNode {
  readonly alias: string;
  /** Relationship names from the root. */
  readonly path: readonly string[];
  readonly parentAlias: string;
  readonly entity: Entity;
  /** The foreign key field on the parent and the referenced field on this entity. */
  readonly parentField: Field;
  readonly targetField: Field;
  /** Policy predicates on this entity, placed in the ON clause so hidden rows read as null. */
  readonly conditions: readonly Predicate[];
}

export interface OutputNode {
  readonly alias: string;
  readonly view: ViewShape;
  readonly fields: readonly Field[];
  readonly computed: readonly ComputedField[];
  /** Many-to-one expansions, read by the same statement. */
  readonly children: ReadonlyMap<string, OutputNode>;
  /** One-to-many expansions, each read by one batched statement of its own. */
  readonly arrays: ReadonlyMap<string, ArrayNode>;
}

/**
 * A one-to-many expansion (DESIGN §13): the items of every parent row on the page, read by one
 * statement over the parents' keys with a per-parent limit (core/query/items.ts).
 */
export interface ArrayNode {
  /** The relationship name: the parent's key in the output. */
  readonly name: string;
  /** The path from the request root ('orders', 'customer.orders', 'orders.items'). */
  readonly key: string;
  /** The referenced field on the parent entity, and the foreign key on the item entity. */
  readonly parentField: Field;
  readonly itemField: Field;
  /** At most this many items per parent (`expandSize`). */
  readonly size: number;
  /** The items' read: their view, joins, selection, row policy, `expandWhere` and order. */
  readonly plan: ReadPlan;
}

export interface OrderTerm {
  readonly target: Target;
  readonly direction: SortDirection;
}

export interface ReadPlan {
  readonly root: ViewShape;
  /** Every join, parents before children, keyed by the dotted path. */
  readonly joins: ReadonlyMap<string, JoinNode>;
  readonly output: OutputNode;
  readonly where: readonly Predicate[];
  readonly order: readonly OrderTerm[];
  readonly page: number;
  readonly size: number;
  readonly countMode: CountMode;
  /** Cursor paging (core/query/cursor.ts): a keyset seek instead of an offset. */
  readonly keyset?: Keyset;
  /** `meta.expandSizes`: the item limit of every expanded one-to-many path (none: absent). */
  readonly expandSizes?: Readonly<Record<string, number>>;
}

/**
 * A keyset page: rows after the cursor position in `order`, read one beyond `size` so that the
 * last page is known. `after` is an OR of AND-ed predicates (core/query/seek.ts); null on the
 * first page. `bound`, when there is one, is implied by `after` and ANDed before it: a plain
 * range on the first key that an index can start from.
 */
export interface Keyset {
  readonly after: readonly (readonly Predicate[])[] | null;
  readonly bound?: Predicate | null;
}
