/** A small entity model for formula tests: orders → customer → region. */
import type { ColumnType } from '../../core/schema/introspection.ts';
import type { Entity, Field, Relationship, SchemaModel } from '../../core/schema/model.ts';

export function field(name: string, column: string, type: ColumnType, nativeType: string): Field {
  return {
    name,
    column,
    type,
    nativeType,
    nullable: name !== 'id',
    maxLength: null,
    numericPrecision: null,
    numericScale: null,
    enumValues: null,
    hasDefault: false,
    autoIncrement: name === 'id',
    primaryKey: name === 'id',
    autoTimestamp: null,
    generated: false,
  };
}

export function entity(name: string, table: string, fields: Field[], relationships: Relationship[] = []): Entity {
  const idField = fields.find((f) => f.primaryKey);
  if (!idField) throw new Error(`fixture ${name} needs an id`);
  return {
    name,
    table,
    fields,
    fieldsByName: new Map(fields.map((f) => [f.name, f])),
    idField,
    relationships: new Map(relationships.map((r) => [r.name, r])),
    uniqueKeys: [{ name: `${table}_pkey`, fields: ['id'], primary: true }],
    estimatedRows: -1,
  };
}

export const regions = entity('regions', 'regions', [field('id', 'id', 'integer', 'integer'), field('name', 'name', 'text', 'text')], [
  { name: 'customers', kind: 'oneToMany', field: 'regionId', target: 'customers', targetField: 'id' },
]);

export const customers = entity(
  'customers',
  'customers',
  [
    field('id', 'id', 'integer', 'integer'),
    field('name', 'name', 'text', 'text'),
    field('regionId', 'region_id', 'integer', 'integer'),
    field('vip', 'vip', 'boolean', 'boolean'),
  ],
  [{ name: 'region', kind: 'manyToOne', field: 'regionId', target: 'regions', targetField: 'id' }],
);

export const orders = entity(
  'orders',
  'orders',
  [
    field('id', 'id', 'integer', 'integer'),
    field('amount', 'amount', 'float', 'double precision'),
    field('qty', 'qty', 'integer', 'integer'),
    field('price', 'price', 'decimal', 'numeric'),
    field('note', 'note', 'text', 'text'),
    field('code', 'code', 'text', 'character varying(20)'),
    field('paid', 'paid', 'boolean', 'boolean'),
    field('orderDate', 'order_date', 'date', 'date'),
    field('createdAt', 'created_at', 'timestamp', 'timestamp without time zone'),
    field('shippedAt', 'shipped_at', 'timestamp', 'timestamp with time zone'),
    field('customerId', 'customer_id', 'integer', 'integer'),
    field('token', 'token', 'uuid', 'uuid'),
    field('blob', 'blob', 'binary', 'bytea'),
  ],
  [{ name: 'customer', kind: 'manyToOne', field: 'customerId', target: 'customers', targetField: 'id' }],
);

export const model: SchemaModel = {
  entities: new Map([
    ['orders', orders],
    ['customers', customers],
    ['regions', regions],
  ]),
  skipped: [],
};

export const context = { entity: orders, model };

/**
 * The same model as MySQL/MariaDB introspection reports it for the MariaDB fixture tables
 * (db.ts): native types drive the dialect's `fieldValue`, so the MariaDB target checks formulas
 * against this model. Both timestamps are datetime(3): TIMESTAMP stops at 2038 and the rows go
 * to 2040; char(36) (a uuid) introspects as text.
 */
const mysqlRegions = entity('regions', 'regions', [field('id', 'id', 'integer', 'int'), field('name', 'name', 'text', 'text')], [
  { name: 'customers', kind: 'oneToMany', field: 'regionId', target: 'customers', targetField: 'id' },
]);
const mysqlCustomers = entity(
  'customers',
  'customers',
  [
    field('id', 'id', 'integer', 'int'),
    field('name', 'name', 'text', 'text'),
    field('regionId', 'region_id', 'integer', 'int'),
    field('vip', 'vip', 'boolean', 'tinyint(1)'),
  ],
  [{ name: 'region', kind: 'manyToOne', field: 'regionId', target: 'regions', targetField: 'id' }],
);
export const mysqlOrders = entity(
  'orders',
  'orders',
  [
    field('id', 'id', 'integer', 'int'),
    field('amount', 'amount', 'float', 'double'),
    field('qty', 'qty', 'integer', 'int'),
    field('price', 'price', 'decimal', 'decimal(38,15)'),
    field('note', 'note', 'text', 'text'),
    field('code', 'code', 'text', 'varchar(20)'),
    field('paid', 'paid', 'boolean', 'tinyint(1)'),
    field('orderDate', 'order_date', 'date', 'date'),
    field('createdAt', 'created_at', 'timestamp', 'datetime(3)'),
    field('shippedAt', 'shipped_at', 'timestamp', 'datetime(3)'),
    field('customerId', 'customer_id', 'integer', 'int'),
    field('token', 'token', 'text', 'char(36)'),
    field('blob', 'blob', 'binary', 'blob'),
  ],
  [{ name: 'customer', kind: 'manyToOne', field: 'customerId', target: 'customers', targetField: 'id' }],
);
export const mysqlModel: SchemaModel = {
  entities: new Map([
    ['orders', mysqlOrders],
    ['customers', mysqlCustomers],
    ['regions', mysqlRegions],
  ]),
  skipped: [],
};
export const mysqlContext = { entity: mysqlOrders, model: mysqlModel };

/** Renders fragments the way PostgreSQL does, without depending on the postgres dialect. */
export const pgRenderer = {
  quoteIdent: (n: string): string => `"${n.replace(/"/g, '""')}"`,
  placeholder: (i: number): string => `$${i}`,
};
