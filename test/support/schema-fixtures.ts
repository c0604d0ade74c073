/** Literal DatabaseSchema fixtures for the schema unit tests. */
import type { ColumnInfo, DatabaseSchema, ForeignKeyInfo, TableInfo } from '../../core/schema/introspection.ts';

export function col(name: string, overrides: Partial<ColumnInfo> = {}): ColumnInfo {
  return {
    name,
    type: 'text',
    nativeType: 'text',
    nullable: true,
    maxLength: null,
    numericPrecision: null,
    numericScale: null,
    defaultValue: null,
    autoIncrement: false,
    generated: false,
    enumValues: null,
    ...overrides,
  };
}

export function serialId(name = 'id'): ColumnInfo {
  return col(name, {
    type: 'integer',
    nativeType: 'integer',
    nullable: false,
    defaultValue: `nextval('${name}_seq'::regclass)`,
    autoIncrement: true,
  });
}

export function intCol(name: string, overrides: Partial<ColumnInfo> = {}): ColumnInfo {
  return col(name, { type: 'integer', nativeType: 'integer', ...overrides });
}

export function fk(table: string, column: string, refTable: string, refColumn = 'id'): ForeignKeyInfo {
  return { name: `${table}_${column}_fkey`, columns: [column], refTable, refColumns: [refColumn] };
}

/** A table whose primary key is `pk` (a column name list); unique keys default to the PK's. */
export function tbl(name: string, columns: ColumnInfo[], pk: string[], extra: Partial<TableInfo> = {}): TableInfo {
  return {
    name,
    columns,
    primaryKey: pk,
    uniqueKeys: pk.length > 0 ? [{ name: `${name}_pkey`, columns: pk, primary: true }] : [],
    foreignKeys: [],
    estimatedRows: -1,
    ...extra,
  };
}

/** The demo shop: regions ← customers ← orders → addresses (twice), employees → employees. */
export function shop(): DatabaseSchema {
  return {
    tables: [
      tbl('regions', [serialId(), col('code', { nativeType: 'character(2)', maxLength: 2, nullable: false }), col('name')], ['id'], {
        uniqueKeys: [
          { name: 'regions_pkey', columns: ['id'], primary: true },
          { name: 'regions_code_key', columns: ['code'], primary: false },
        ],
        estimatedRows: 3,
      }),
      tbl(
        'customers',
        [
          serialId('customer_no'),
          col('email', { nativeType: 'character varying(255)', maxLength: 255, nullable: false }),
          intCol('region_id'),
          col('created_at', { type: 'timestamp', nativeType: 'timestamp with time zone', defaultValue: 'now()' }),
          col('updated_at', { type: 'timestamp', nativeType: 'timestamp with time zone' }),
        ],
        ['customer_no'],
        { foreignKeys: [fk('customers', 'region_id', 'regions')] },
      ),
      tbl(
        'addresses',
        [col('id', { type: 'uuid', nativeType: 'uuid', nullable: false, defaultValue: 'gen_random_uuid()' }), col('street')],
        ['id'],
      ),
      tbl(
        'orders',
        [
          serialId(),
          intCol('customer_id', { nullable: false }),
          col('shipping_address_id', { type: 'uuid', nativeType: 'uuid' }),
          col('billing_address_id', { type: 'uuid', nativeType: 'uuid' }),
          col('total', { type: 'decimal', nativeType: 'numeric(10,2)', numericPrecision: 10, numericScale: 2 }),
          intCol('order_no'),
        ],
        ['id'],
        {
          uniqueKeys: [
            { name: 'orders_pkey', columns: ['id'], primary: true },
            { name: 'orders_customer_no_key', columns: ['customer_id', 'order_no'], primary: false },
          ],
          foreignKeys: [
            fk('orders', 'shipping_address_id', 'addresses'),
            fk('orders', 'billing_address_id', 'addresses'),
            fk('orders', 'customer_id', 'customers', 'customer_no'),
          ],
        },
      ),
      tbl('employees', [intCol('id', { nullable: false }), intCol('manager_id'), col('name')], ['id'], {
        foreignKeys: [fk('employees', 'manager_id', 'employees')],
      }),
      tbl('event_log', [col('at'), col('message')], []),
      tbl('order_lines', [intCol('order_id'), intCol('line_no')], ['order_id', 'line_no']),
    ],
  };
}
