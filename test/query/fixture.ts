/**
 * The planner's golden-SQL fixture: one vendor-neutral introspection (regions ← customers ←
 * orders), the model built from it, read scopes over it, and the three SQL dialects with a syntax
 * check each. Nothing here connects to a database: the planner and the dialects' spelling are pure.
 *
 * Imports stay on the planner's own modules and the dialect objects (core/control and core/write
 * are being reorganised): the default entity options and the open read policy are
 * written out here instead of imported.
 */
import { expect } from 'vitest';
import { render, type CompiledSql, type Sql } from '../../core/sql.ts';
import { buildModel } from '../../core/schema/build-model.ts';
import type { DatabaseSchema } from '../../core/schema/introspection.ts';
import type { Entity, SchemaModel } from '../../core/schema/model.ts';
import type { Predicate, ReadPolicy, ReadScope, ViewShape } from '../../core/query/plan.ts';
import type { ReadRequest } from '../../core/query/request.ts';
import type { BoundDialect } from '../../dialects/dialect.ts';
import { createPostgresDialect } from '../../dialects/postgres/postgres-dialect.ts';
import { createMysqlDialect } from '../../dialects/mysql/mysql-dialect.ts';
import { createMssqlDialect } from '../../dialects/mssql/mssql-dialect.ts';
import { col, fk, intCol, serialId, tbl } from '../support/schema-fixtures.ts';
import { checkSyntax, type SyntaxFamily } from './syntax.ts';

const text = (name: string, nullable: boolean) => col(name, { nativeType: 'varchar(100)', maxLength: 100, nullable });

/** Nullable columns: regions.code, customers.email/region_id/owner, orders.note/ordered_at. */
export const SCHEMA: DatabaseSchema = {
  tables: [
    tbl('regions', [serialId(), text('name', false), text('code', true)], ['id']),
    tbl(
      'customers',
      [
        serialId(),
        text('name', false),
        text('email', true),
        intCol('region_id'),
        col('vip', { type: 'boolean', nativeType: 'boolean', nullable: false }),
        col('created_at', { type: 'timestamp', nativeType: 'timestamp', nullable: false }),
        text('owner', true),
      ],
      ['id'],
      {
        uniqueKeys: [
          { name: 'customers_pkey', columns: ['id'], primary: true },
          { name: 'customers_email_key', columns: ['email'], primary: false },
        ],
        foreignKeys: [fk('customers', 'region_id', 'regions')],
      },
    ),
    tbl(
      'orders',
      [
        serialId(),
        intCol('customer_id', { nullable: false }),
        col('amount', { type: 'decimal', nativeType: 'numeric(12,2)', numericPrecision: 12, numericScale: 2, nullable: false }),
        intCol('quantity', { nullable: false }),
        text('status', false),
        text('note', true),
        col('ordered_at', { type: 'timestamp', nativeType: 'timestamp' }),
      ],
      ['id'],
      { foreignKeys: [fk('orders', 'customer_id', 'customers')] },
    ),
  ],
};

export const model: SchemaModel = buildModel(SCHEMA);

export function entity(name: string): Entity {
  const found = model.entities.get(name);
  if (!found) throw new Error(`no entity ${name}`);
  return found;
}

/** The same values as DEFAULT_ENTITY_OPTIONS (core/control/types.ts). */
const DEFAULT_OPTIONS: ViewShape['options'] = {
  defaultExpand: null, expandable: null, maxExpandDepth: 3, defaultFields: null, countMode: null, constraints: null, validators: null, events: 'off',
};

export const OPEN_POLICY: ReadPolicy = { rowPredicates: () => [] };

/** Row-level security as the RLS plugin applies it: entities with an `owner` field show `owner = user`. */
export function ownerPolicy(user: string): ReadPolicy {
  return {
    rowPredicates(target: Entity): readonly Predicate[] {
      const owner = target.fieldsByName.get('owner');
      return owner ? [{ target: { kind: 'field', hops: [], field: owner }, op: 'eq', value: user }] : [];
    },
  };
}

export function shapeOf(name: string): ViewShape {
  return { entity: entity(name), computed: [], options: DEFAULT_OPTIONS, migration: null };
}

export function scopeOf(root: string | ViewShape, policy: ReadPolicy = OPEN_POLICY): ReadScope {
  return { workspaceId: 'test', model, root: typeof root === 'string' ? shapeOf(root) : root, defaultView: shapeOf, policy };
}

/** A request with no parameters (page 0, size 20), overridden by `overrides`. */
export function request(overrides: Partial<ReadRequest> = {}): ReadRequest {
  return { page: 0, size: 20, sort: [], expand: [], fields: null, filters: [], count: null, ...overrides };
}

export type VendorName = 'postgres' | 'mysql' | 'mssql';

export interface Vendor {
  readonly name: VendorName;
  /** The vendor's dialect bound to a workspace with no schema of its own, as the runtime holds it. */
  readonly dialect: BoundDialect;
  readonly syntax: SyntaxFamily;
}

export const VENDORS: readonly Vendor[] = [
  { name: 'postgres', dialect: createPostgresDialect().bind({ vendor: 'postgres' }), syntax: 'postgresql' },
  { name: 'mysql', dialect: createMysqlDialect().bind({ vendor: 'mysql' }), syntax: 'mysql' },
  { name: 'mssql', dialect: createMssqlDialect().bind({ vendor: 'mssql' }), syntax: 'transactsql' },
];

/** An expected statement: its text (one clause per line, joined by `separator`) and its bound values. */
export interface Golden {
  readonly text: string;
  readonly params: readonly unknown[];
}

export type PerVendor = Readonly<Record<VendorName, Golden>>;

/** Golden SQL is written one clause per line; the statement is those lines joined by spaces. */
export function golden(clauses: readonly string[], params: readonly unknown[], separator = ' '): Golden {
  return { text: clauses.join(separator), params };
}

/** A SQL Server batch: statements (each a list of clauses) separated by line breaks. */
export function batch(statements: readonly (readonly string[])[], params: readonly unknown[]): Golden {
  return golden(statements.map((clauses) => clauses.join(' ')), params, '\n');
}

/** Renders `fragment` for `vendor`, checks its syntax, and compares it with the golden statement. */
export function expectSql(vendor: Vendor, fragment: Sql, expected: Golden): void {
  expectCompiled(render(fragment, vendor.dialect.sql), expected);
  checkSyntax(vendor.syntax, expected.text);
}

export function expectCompiled(actual: CompiledSql, expected: Golden): void {
  expect(actual.text).toBe(expected.text);
  expect(actual.params).toEqual(expected.params);
}
