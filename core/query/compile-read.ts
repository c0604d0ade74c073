/** ReadPlan → SQL through the dialect: one statement for the page (joins included) and one for the count. */
import { ident, join, raw, sql, type Sql } from '../sql.ts';
import type { BoundDialect } from '../../dialects/dialect.ts';
import type { Entity } from '../schema/model.ts';
import { ROOT_ALIAS } from './joins.ts';
import type { ArrayNode, ExistsPlan, JoinNode, OutputNode, Predicate, ReadPlan, Target } from './plan.ts';
import { canBeNull, targetType } from './filter-values.ts';
import { assembler, type Column, type RecordAssembler } from './assemble.ts';
import { sortKeyAlias } from './cursor.ts';

export interface CompiledRead {
  readonly page: Sql;
  readonly count: Sql;
  /** SELECT over the filtered rows without paging, for planner estimates. */
  readonly estimate: Sql;
  readonly assemble: RecordAssembler;
  /** The one-to-many expansions to read after the page, each with its parent key's column. */
  readonly arrays: readonly ArrayColumn[];
}

/** An array of the output, hung on the node at `at`, whose parent key the page returns as `alias`. */
export interface ArrayColumn {
  readonly alias: string;
  readonly at: readonly string[];
  readonly node: ArrayNode;
}

export interface CompileContext {
  readonly dialect: BoundDialect;
  readonly root: Entity;
  readonly rootAlias: string;
  readonly joins: ReadonlyMap<string, JoinNode>;
}

/** The alias and entity of the node reached by `hops` from the root. */
function nodeAt(ctx: CompileContext, hops: readonly string[]): { alias: string; entity: Entity } {
  if (hops.length === 0) return { alias: ctx.rootAlias, entity: ctx.root };
  const node = ctx.joins.get(hops.join('.'));
  if (!node) throw new Error(`join for '${hops.join('.')}' was not planned`);
  return node;
}

/** Qualified column for a formula's field path (API names) relative to the node at `base`. */
function columnRefAt(ctx: CompileContext, base: readonly string[]) {
  return (path: readonly string[]): Sql => {
    const hops = [...base, ...path.slice(0, -1)];
    const name = path[path.length - 1] ?? '';
    const node = nodeAt(ctx, hops);
    const field = node.entity.fieldsByName.get(name);
    if (!field) throw new Error(`formula field '${path.join('.')}' is not in the model`);
    return ident(node.alias, field.column);
  };
}

export function targetExpr(ctx: CompileContext, target: Target): Sql {
  if (target.kind === 'field') return ident(nodeAt(ctx, target.hops).alias, target.field.column);
  if (target.computed.broken) return raw('NULL');
  return sql`(${target.computed.emit(columnRefAt(ctx, target.hops), ctx.dialect.formula)})`;
}

function bind(ctx: CompileContext, target: Target, value: unknown): Sql {
  return sql`${ctx.dialect.sql.encodeValue(targetType(target), value)}`;
}

/**
 * A boolean formula (`where`, or a filter on a computed column) as a condition. Behind guards (the row policy) it is nested in CASE,
 * whose branches every vendor evaluates in order, so it never runs on a row the guards hide.
 */
function holdsSql(ctx: CompileContext, expr: Sql, guards: readonly Predicate[]): Sql {
  if (guards.length === 0) return expr;
  return sql`(CASE WHEN ${conjunction(ctx, guards)} THEN (CASE WHEN ${expr} THEN 1 END) END) = 1`;
}

type PredicateSql = (ctx: CompileContext, expr: Sql, predicate: Predicate) => Sql;

function comparison(symbol: string): PredicateSql {
  const operator = raw(symbol);
  return (ctx, expr, p) => sql`${expr} ${operator} ${bind(ctx, p.target, p.value)}`;
}

function membership(keyword: string): PredicateSql {
  const operator = raw(keyword);
  return (ctx, expr, p) => sql`${expr} ${operator} (${join((p.value as unknown[]).map((v) => bind(ctx, p.target, v)))})`;
}

function likeSql(caseInsensitive: boolean): PredicateSql {
  return (ctx, expr, p) => ctx.dialect.sql.like(expr, sql`${p.value}`, caseInsensitive);
}

/** One spelling per operator, the planner's own included: a missing one is a type error. */
const PREDICATE_SQL: Record<Predicate['op'], PredicateSql> = {
  eq: comparison('='),
  neq: comparison('<>'),
  gt: comparison('>'),
  gte: comparison('>='),
  lt: comparison('<'),
  lte: comparison('<='),
  like: likeSql(false),
  ilike: likeSql(true),
  contains: likeSql(false),
  startsWith: likeSql(false),
  endsWith: likeSql(false),
  in: membership('IN'),
  nin: membership('NOT IN'),
  isNull: (_ctx, expr, p) => (p.value ? sql`${expr} IS NULL` : sql`${expr} IS NOT NULL`),
  never: () => raw('1 = 0'),
  holds: (ctx, expr, p) => holdsSql(ctx, expr, p.value as readonly Predicate[]),
  exists: (ctx, expr, p) => existsSql(ctx, expr, p.value as ExistsPlan),
};

export function predicateSql(ctx: CompileContext, predicate: Predicate): Sql {
  const unguarded = PREDICATE_SQL[predicate.op](ctx, targetExpr(ctx, predicate.target), predicate);
  return predicate.guards ? holdsSql(ctx, unguarded, predicate.guards) : unguarded;
}

/** `(p1) AND (p2) …`: every condition of a read or a write is a conjunction. */
export function conjunction(ctx: CompileContext, predicates: readonly Predicate[]): Sql {
  return join(predicates.map((p) => sql`(${predicateSql(ctx, p)})`), ' AND ');
}

/** `EXISTS (SELECT 1 FROM items … WHERE items.fk = <parent key> AND …)`: its own aliases, its own joins. */
function existsSql(ctx: CompileContext, parentKey: Sql, exists: ExistsPlan): Sql {
  const inner: CompileContext = { dialect: ctx.dialect, root: exists.entity, rootAlias: exists.rootAlias, joins: exists.joins };
  const from = fromTables(inner, exists.entity, [...exists.joins.values()]);
  const link = sql`${ident(exists.rootAlias, exists.itemField.column)} = ${parentKey}`;
  const where = exists.where.length > 0 ? sql` AND ${conjunction(inner, exists.where)}` : raw('');
  return sql`EXISTS (SELECT 1 FROM ${from} WHERE ${link}${where})`;
}

export function joinSql(ctx: CompileContext, node: JoinNode): Sql {
  const table = ctx.dialect.tableRef(node.entity.table);
  const on = sql`${ident(node.alias, node.targetField.column)} = ${ident(node.parentAlias, node.parentField.column)}`;
  // Policy predicates are written relative to the joined entity: re-root them at this node.
  const conditions = node.conditions.map((p) => ({ ...p, target: { ...p.target, hops: [...node.path, ...p.target.hops] } }));
  const extra = conditions.length > 0 ? sql` AND ${conjunction(ctx, conditions)}` : raw('');
  return sql` LEFT JOIN ${table} ${ident(node.alias)} ON ${on}${extra}`;
}

function usedHops(predicates: readonly Predicate[]): Set<string> {
  const used = new Set<string>();
  for (const p of predicates) {
    const hops = p.target.hops;
    for (let i = 1; i <= hops.length; i++) used.add(hops.slice(0, i).join('.'));
    if (p.target.kind === 'computed') {
      for (const ref of p.target.computed.refs) {
        const all = [...hops, ...ref.slice(0, -1)];
        for (let i = 1; i <= all.length; i++) used.add(all.slice(0, i).join('.'));
      }
    }
  }
  return used;
}

export function fromTables(ctx: CompileContext, root: Entity, joins: readonly JoinNode[]): Sql {
  const table = sql`${ctx.dialect.tableRef(root.table)} ${ident(ctx.rootAlias)}`;
  return sql`${table}${join(joins.map((node) => joinSql(ctx, node)), '')}`;
}

function fromSql(ctx: CompileContext, plan: ReadPlan, only?: Set<string>): Sql {
  const joins = [...ctx.joins.entries()].filter(([key]) => !only || only.has(key)).map(([, node]) => node);
  return fromTables(ctx, plan.root.entity, joins);
}

function whereSql(ctx: CompileContext, plan: ReadPlan): Sql {
  return plan.where.length > 0 ? sql` WHERE ${conjunction(ctx, plan.where)}` : raw('');
}

/** `(b1) OR (b2) …`, each branch a conjunction: the keyset seek (core/query/seek.ts). */
function disjunction(ctx: CompileContext, branches: readonly (readonly Predicate[])[]): Sql {
  return join(branches.map((branch) => sql`(${conjunction(ctx, branch)})`), ' OR ');
}

/**
 * The page of a cursor read: the filters plus the seek after the cursor row, one row beyond the
 * size (it tells whether a next page exists), and every sort key under its own alias, so the
 * next cursor is cut from the row whatever `fields` selects (computed and related keys included).
 * The keys are read through the dialect's `exactText` (every digit the database compares on); the
 * seek still compares the plain expressions, so an index on a key serves it.
 */
function keysetPageSql(ctx: CompileContext, plan: ReadPlan, exprs: readonly Sql[], order: Sql): Sql {
  const keys = plan.order.map((term, i) => {
    const key = ctx.dialect.sql.exactText(targetExpr(ctx, term.target), targetType(term.target));
    return sql`${key} AS ${ident(sortKeyAlias(i))}`;
  });
  const { after, bound } = plan.keyset ?? {};
  const seek = after ? [...(bound ? [sql`(${predicateSql(ctx, bound)})`] : []), sql`(${disjunction(ctx, after)})`] : [];
  const conditions = [...plan.where.map((p) => sql`(${predicateSql(ctx, p)})`), ...seek];
  const where = conditions.length > 0 ? sql` WHERE ${join(conditions, ' AND ')}` : raw('');
  return sql`SELECT ${join([...exprs, ...keys])} FROM ${fromSql(ctx, plan)}${where} ORDER BY ${order}${ctx.dialect.sql.paginate(plan.size + 1, 0)}`;
}

interface SelectList {
  readonly exprs: Sql[];
  readonly columns: Column[];
  readonly arrays: ArrayColumn[];
  /** Output timestamps through the dialect's `exactText` (see SelectOptions). */
  readonly timestampsAsText: boolean;
}

/** How the select list reads its values; the default is what the JSON list reads. */
export interface SelectOptions {
  /**
   * Output timestamps (not hidden keys) as the dialect's `exactText`: the export turns that text
   * into the wire form without building a Date per value (core/query/export-cells.ts).
   */
  readonly timestampsAsText?: boolean;
}

function addSelect(list: SelectList, expr: Sql, column: Omit<Column, 'alias'>, dialect: BoundDialect): void {
  const alias = `c${list.columns.length}`;
  const asText = list.timestampsAsText && column.key !== null && column.type === 'timestamp';
  list.columns.push({ ...column, alias });
  list.exprs.push(sql`${asText ? dialect.sql.exactText(expr, column.type) : expr} AS ${ident(alias)}`);
}

function selectList(ctx: CompileContext, node: OutputNode, path: readonly string[], list: SelectList): void {
  const idField = node.view.entity.idField;
  // An expanded node's key tells a missing (or hidden) related row from one whose fields are null.
  if (path.length > 0) addSelect(list, ident(node.alias, idField.column), { path, key: null, type: idField.type }, ctx.dialect);
  for (const field of node.fields) addSelect(list, ident(node.alias, field.column), { path, key: field.name, type: field.type }, ctx.dialect);
  for (const computed of node.computed) {
    const target: Target = { kind: 'computed', hops: path, computed };
    addSelect(list, targetExpr(ctx, target), { path, key: computed.fieldName, type: targetType(target) }, ctx.dialect);
  }
  for (const [name, child] of node.children) selectList(ctx, child, [...path, name], list);
  for (const array of node.arrays.values()) {
    const alias = `a${list.arrays.length}`;
    list.arrays.push({ alias, at: path, node: array });
    list.exprs.push(sql`${ident(node.alias, array.parentField.column)} AS ${ident(alias)}`);
  }
}

/** What every statement over a plan shares: the select list, FROM, WHERE and ORDER BY. */
export interface StatementParts {
  readonly ctx: CompileContext;
  readonly select: readonly Sql[];
  readonly from: Sql;
  readonly where: Sql;
  readonly order: Sql;
  readonly assemble: RecordAssembler;
  readonly arrays: readonly ArrayColumn[];
  /** The select list's columns in order, as the assembler reads them. */
  readonly columns: readonly Column[];
}

export function statementParts(plan: ReadPlan, dialect: BoundDialect, options: SelectOptions = {}): StatementParts {
  const ctx: CompileContext = { dialect, root: plan.root.entity, rootAlias: ROOT_ALIAS, joins: plan.joins };
  const list: SelectList = { exprs: [], columns: [], arrays: [], timestampsAsText: options.timestampsAsText ?? false };
  selectList(ctx, plan.output, [], list);
  return {
    ctx,
    select: list.exprs,
    from: fromSql(ctx, plan),
    where: whereSql(ctx, plan),
    order: join(plan.order.map((term) => dialect.sql.orderTerm(targetExpr(ctx, term.target), term.direction, canBeNull(term.target)))),
    assemble: assembler(list.columns, dialect.capabilities.jsonArrivesAsText),
    arrays: list.arrays,
    columns: list.columns,
  };
}

/** Every row of the plan in its order, unpaged: the statement an export streams (DESIGN §14). */
export function compileUnpaged(plan: ReadPlan, dialect: BoundDialect, options: SelectOptions = {}): { statement: Sql; parts: StatementParts } {
  const parts = statementParts(plan, dialect, options);
  return { statement: sql`SELECT ${join(parts.select)} FROM ${parts.from}${parts.where} ORDER BY ${parts.order}`, parts };
}

export function compileRead(plan: ReadPlan, dialect: BoundDialect, options: SelectOptions = {}): CompiledRead {
  const parts = statementParts(plan, dialect, options);
  const { ctx, from, where, order } = parts;
  const page = plan.keyset
    ? keysetPageSql(ctx, plan, parts.select, order)
    : sql`SELECT ${join(parts.select)} FROM ${from}${where} ORDER BY ${order}${dialect.sql.paginate(plan.size, plan.page * plan.size)}`;
  const filteredFrom = fromSql(ctx, plan, usedHops(plan.where));
  return {
    page,
    count: sql`SELECT COUNT(*) AS ${ident('total')} FROM ${filteredFrom}${where}`,
    estimate: sql`SELECT 1 FROM ${filteredFrom}${where}`,
    assemble: parts.assemble,
    arrays: parts.arrays,
  };
}
