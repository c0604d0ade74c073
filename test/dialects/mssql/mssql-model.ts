/**
 * The shared fixture as SQL Server's catalog reports it (rows shaped like the introspector's
 * queries return them through mssql), an executor that answers those queries, and the read
 * scope over the model built from it. No server involved: the rows are what sys.* would give
 * for test/support/mssql-target.ts's DDL.
 */
import { render, type CompiledSql, type Sql } from '../../../core/sql.ts';
import { buildModel } from '../../../core/schema/build-model.ts';
import type { SchemaModel } from '../../../core/schema/model.ts';
import { DEFAULT_ENTITY_OPTIONS } from '../../../core/schema/entity-options.ts';
import type { ReadScope, ViewShape } from '../../../core/query/plan.ts';
import { NO_POLICY } from '../../../core/query/plan.ts';
import type { Executor, QueryResult } from '../../../dialects/dialect.ts';
import { createMssqlDialect } from '../../../dialects/mssql/index.ts';
import { COLUMNS, FOREIGN_KEYS, JSON_CHECKS, TABLES, UNIQUE_KEYS } from '../../../dialects/mssql/mssql-introspector.ts';

export const dialect = createMssqlDialect();
export const config = { vendor: 'mssql' } as const;

export function renderMssql(fragment: Sql): CompiledSql {
  return render(fragment, dialect.sql);
}

type Row = Record<string, unknown>;

function column(table: string, name: string, id: number, type: string, extra: Partial<Row> = {}): Row {
  const lengths: Record<string, number> = { int: 4, bit: 1, date: 3, 'datetime2': 7, decimal: 9 };
  return {
    table_name: table, column_name: name, column_id: id, type_name: type, base_type: type,
    max_length: lengths[type] ?? 0, precision: 0, scale: 0, is_nullable: false, is_identity: false,
    is_computed: false, generated_always_type: 0, default_value: null, ...extra,
  };
}

const nvarchar = (chars: number): Partial<Row> => ({ max_length: chars === -1 ? -1 : chars * 2 });

export const catalogRows: Record<string, Row[]> = {
  [TABLES]: [
    { table_name: 'customers', row_count: '12' },
    { table_name: 'orders', row_count: '45' },
    { table_name: 'products', row_count: '3' },
    { table_name: 'regions', row_count: '3' },
  ],
  [COLUMNS]: [
    column('customers', 'id', 1, 'int', { is_identity: true, precision: 10 }),
    column('customers', 'name', 2, 'nvarchar', nvarchar(100)),
    column('customers', 'email', 3, 'nvarchar', nvarchar(200)),
    column('customers', 'region_id', 4, 'int', { is_nullable: true, precision: 10 }),
    column('customers', 'vip', 5, 'bit', { default_value: '((0))' }),
    column('customers', 'birth_date', 6, 'date', { is_nullable: true }),
    column('customers', 'created_at', 7, 'datetime2', { scale: 3, default_value: '(sysutcdatetime())' }),
    column('orders', 'id', 1, 'int', { is_identity: true, precision: 10 }),
    column('orders', 'customer_id', 2, 'int', { precision: 10 }),
    column('orders', 'product_id', 3, 'int', { is_nullable: true, precision: 10 }),
    column('orders', 'quantity', 4, 'int', { precision: 10, default_value: '((1))' }),
    column('orders', 'amount', 5, 'decimal', { precision: 12, scale: 2 }),
    column('orders', 'status', 6, 'nvarchar', { ...nvarchar(20), default_value: "('new')" }),
    column('orders', 'note', 7, 'nvarchar', { ...nvarchar(-1), is_nullable: true }),
    column('orders', 'ordered_at', 8, 'datetime2', { scale: 3 }),
    column('orders', 'created_at', 9, 'datetime2', { scale: 3, default_value: '(sysutcdatetime())' }),
    column('orders', 'updated_at', 10, 'datetime2', { scale: 3, default_value: '(sysutcdatetime())' }),
    column('products', 'id', 1, 'int', { is_identity: true, precision: 10 }),
    column('products', 'sku', 2, 'nvarchar', nvarchar(20)),
    column('products', 'name', 3, 'nvarchar', nvarchar(100)),
    column('products', 'price', 4, 'decimal', { precision: 10, scale: 2 }),
    column('regions', 'id', 1, 'int', { is_identity: true, precision: 10 }),
    column('regions', 'name', 2, 'nvarchar', nvarchar(50)),
  ],
  [UNIQUE_KEYS]: [
    { table_name: 'customers', key_name: 'customers_email_key', is_primary_key: false, key_ordinal: 1, column_name: 'email' },
    { table_name: 'customers', key_name: 'customers_pkey', is_primary_key: true, key_ordinal: 1, column_name: 'id' },
    { table_name: 'orders', key_name: 'orders_pkey', is_primary_key: true, key_ordinal: 1, column_name: 'id' },
    { table_name: 'products', key_name: 'products_pkey', is_primary_key: true, key_ordinal: 1, column_name: 'id' },
    { table_name: 'products', key_name: 'products_sku_key', is_primary_key: false, key_ordinal: 1, column_name: 'sku' },
    { table_name: 'regions', key_name: 'regions_name_key', is_primary_key: false, key_ordinal: 1, column_name: 'name' },
    { table_name: 'regions', key_name: 'regions_pkey', is_primary_key: true, key_ordinal: 1, column_name: 'id' },
  ],
  [FOREIGN_KEYS]: [
    { table_name: 'customers', fk_name: 'customers_region_id_fkey', ord: 1, column_name: 'region_id', ref_table: 'regions', ref_column: 'id' },
    { table_name: 'orders', fk_name: 'orders_customer_id_fkey', ord: 1, column_name: 'customer_id', ref_table: 'customers', ref_column: 'id' },
    { table_name: 'orders', fk_name: 'orders_product_id_fkey', ord: 1, column_name: 'product_id', ref_table: 'products', ref_column: 'id' },
  ],
  [JSON_CHECKS]: [],
};

/** Answers the introspector's queries from `rows` and records every statement it is given. */
export function catalogExecutor(rows: Record<string, Row[]> = catalogRows): Executor & { readonly statements: CompiledSql[] } {
  const statements: CompiledSql[] = [];
  return {
    statements,
    async query(statement: CompiledSql): Promise<QueryResult> {
      statements.push(statement);
      const answer = rows[statement.text];
      if (!answer) throw new Error(`unexpected statement: ${statement.text.slice(0, 80)}`);
      return { rows: answer.map((r) => ({ ...r })), affectedRows: 0 };
    },
  };
}

export async function fixtureModel(): Promise<SchemaModel> {
  return buildModel(await dialect.bind(config).introspect(catalogExecutor()));
}

export function shapeOf(model: SchemaModel, name: string): ViewShape {
  const entity = model.entities.get(name);
  if (!entity) throw new Error(`no entity ${name}`);
  return { entity, computed: [], options: DEFAULT_ENTITY_OPTIONS, migration: null };
}

export function scopeOf(model: SchemaModel, root: string, shape: ViewShape = shapeOf(model, root)): ReadScope {
  return { workspaceId: 'test', model, root: shape, defaultView: (name) => shapeOf(model, name), policy: NO_POLICY };
}
