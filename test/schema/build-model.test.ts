import { describe, expect, it } from 'vitest';
import { buildModel } from '../../core/schema/build-model.ts';
import type { DatabaseSchema } from '../../core/schema/introspection.ts';
import type { Entity, SchemaModel } from '../../core/schema/model.ts';
import { col, fk, intCol, serialId, shop, tbl } from '../support/schema-fixtures.ts';

function entity(model: SchemaModel, name: string): Entity {
  const found = model.entities.get(name);
  if (!found) throw new Error(`no entity ${name}; have ${[...model.entities.keys()].join(', ')}`);
  return found;
}

function relationshipNames(e: Entity): string[] {
  return [...e.relationships.keys()].sort();
}

describe('buildModel: entities and fields', () => {
  const model = buildModel(shop());

  it('names entities by camelCase of the table and skips tables without a single-column key', () => {
    expect([...model.entities.keys()].sort()).toEqual(['addresses', 'customers', 'employees', 'orders', 'regions']);
    expect(model.skipped).toEqual([
      { table: 'event_log', reason: 'no primary key' },
      { table: 'order_lines', reason: 'composite primary key (order_id, line_no)' },
    ]);
  });

  it('exposes the primary key as id whatever its column, fields in column order', () => {
    const customers = entity(model, 'customers');
    expect(customers.table).toBe('customers');
    expect(customers.fields.map((f) => [f.name, f.column])).toEqual([
      ['id', 'customer_no'],
      ['email', 'email'],
      ['regionId', 'region_id'],
      ['createdAt', 'created_at'],
      ['updatedAt', 'updated_at'],
    ]);
    expect(customers.idField).toMatchObject({ name: 'id', column: 'customer_no', primaryKey: true, autoIncrement: true });
    expect(customers.fieldsByName.get('email')).toMatchObject({ maxLength: 255, nullable: false, primaryKey: false });
  });

  it('copies column facts and derives hasDefault and autoTimestamp', () => {
    const customers = entity(model, 'customers');
    expect(customers.fieldsByName.get('createdAt')).toMatchObject({ autoTimestamp: 'create', hasDefault: true, type: 'timestamp' });
    expect(customers.fieldsByName.get('updatedAt')).toMatchObject({ autoTimestamp: 'update', hasDefault: false });
    expect(customers.fieldsByName.get('email')).toMatchObject({ autoTimestamp: null, hasDefault: false });
    expect(entity(model, 'addresses').idField).toMatchObject({ type: 'uuid', hasDefault: true, autoIncrement: false });
    expect(entity(model, 'orders').fieldsByName.get('total')).toMatchObject({
      type: 'decimal',
      nativeType: 'numeric(10,2)',
      numericPrecision: 10,
      numericScale: 2,
    });
  });

  it('maps unique keys to API field names and keeps the row estimate', () => {
    expect(entity(model, 'orders').uniqueKeys).toEqual([
      { name: 'orders_pkey', fields: ['id'], primary: true },
      { name: 'orders_customer_no_key', fields: ['customerId', 'orderNo'], primary: false },
    ]);
    expect(entity(model, 'customers').uniqueKeys).toEqual([{ name: 'customers_pkey', fields: ['id'], primary: true }]);
    expect(entity(model, 'regions').estimatedRows).toBe(3);
  });
});

describe('buildModel: relationships', () => {
  const model = buildModel(shop());

  it('names a many-to-one after its foreign key field without Id', () => {
    expect(entity(model, 'customers').relationships.get('region')).toEqual({
      name: 'region',
      kind: 'manyToOne',
      field: 'regionId',
      target: 'regions',
      targetField: 'id',
    });
  });

  it('targets the API name of the referenced column (id for a renamed primary key)', () => {
    expect(entity(model, 'orders').relationships.get('customer')).toEqual({
      name: 'customer',
      kind: 'manyToOne',
      field: 'customerId',
      target: 'customers',
      targetField: 'id',
    });
  });

  it('names the reverse side after the source entity', () => {
    expect(entity(model, 'regions').relationships.get('customers')).toEqual({
      name: 'customers',
      kind: 'oneToMany',
      field: 'regionId',
      target: 'customers',
      targetField: 'id',
    });
    expect(relationshipNames(entity(model, 'customers'))).toEqual(['orders', 'region']);
  });

  it('qualifies every reverse side when a table has several keys to the same target', () => {
    const addresses = entity(model, 'addresses');
    expect(relationshipNames(addresses)).toEqual(['ordersByBillingAddressId', 'ordersByShippingAddressId']);
    expect(addresses.relationships.get('ordersByShippingAddressId')).toEqual({
      name: 'ordersByShippingAddressId',
      kind: 'oneToMany',
      field: 'shippingAddressId',
      target: 'orders',
      targetField: 'id',
    });
    expect(relationshipNames(entity(model, 'orders'))).toEqual(['billingAddress', 'customer', 'shippingAddress']);
  });

  it('handles a self reference', () => {
    const employees = entity(model, 'employees');
    expect(relationshipNames(employees)).toEqual(['employees', 'manager']);
    expect(employees.relationships.get('employees')).toMatchObject({ kind: 'oneToMany', field: 'managerId', target: 'employees' });
  });

  it('ignores composite foreign keys and keys into tables that are not exposed', () => {
    const schema: DatabaseSchema = {
      tables: [
        tbl('order_lines', [intCol('order_id'), intCol('line_no')], ['order_id', 'line_no']),
        tbl('notes', [serialId(), intCol('order_id'), intCol('line_no')], ['id'], {
          foreignKeys: [{ name: 'notes_line_fk', columns: ['order_id', 'line_no'], refTable: 'order_lines', refColumns: ['order_id', 'line_no'] }],
        }),
        tbl('parents', [serialId()], ['id']),
        tbl('kids', [serialId(), intCol('parent_id')], ['id'], {
          foreignKeys: [
            { name: 'kids_pair_fk', columns: ['id', 'parent_id'], refTable: 'parents', refColumns: ['id', 'id'] },
          ],
        }),
      ],
    };
    const model2 = buildModel(schema);
    expect(entity(model2, 'notes').relationships.size).toBe(0);
    expect(entity(model2, 'kids').relationships.size).toBe(0);
    expect(entity(model2, 'parents').relationships.size).toBe(0);
  });
});

describe('buildModel: name clashes', () => {
  it('renames a non-key column called id to id2', () => {
    const model = buildModel({ tables: [tbl('legacy', [serialId('legacy_no'), col('id'), col('name')], ['legacy_no'])] });
    expect(entity(model, 'legacy').fields.map((f) => [f.name, f.column])).toEqual([
      ['id', 'legacy_no'],
      ['id2', 'id'],
      ['name', 'name'],
    ]);
  });

  it('suffixes a column whose camelCase name is already taken, in column order', () => {
    const model = buildModel({ tables: [tbl('t', [serialId(), col('created_at'), col('createdAt')], ['id'])] });
    expect(entity(model, 't').fields.map((f) => f.name)).toEqual(['id', 'createdAt', 'createdAt2']);
  });

  it('suffixes entities whose camelCase names clash, in table-name order', () => {
    const model = buildModel({ tables: [tbl('order_items', [serialId()], ['id']), tbl('orderItems', [serialId()], ['id'])] });
    expect(entity(model, 'orderItems').table).toBe('orderItems');
    expect(entity(model, 'orderItems2').table).toBe('order_items');
  });

  it('uses the target entity name when the column does not end in _id, then {target}By{Field}', () => {
    const model = buildModel({
      tables: [
        tbl('users', [serialId(), col('name')], ['id']),
        tbl('docs', [serialId(), intCol('owner'), intCol('editor'), intCol('users')], ['id'], {
          foreignKeys: [fk('docs', 'owner', 'users'), fk('docs', 'editor', 'users')],
        }),
      ],
    });
    // `users` is a field of docs, so neither key can take the entity name.
    expect(relationshipNames(entity(model, 'docs'))).toEqual(['usersByEditor', 'usersByOwner']);
    expect(relationshipNames(entity(model, 'users'))).toEqual(['docsByEditor', 'docsByOwner']);
  });

  it('gives the entity name to the first non-_id key and qualifies the next', () => {
    const model = buildModel({
      tables: [
        tbl('users', [serialId()], ['id']),
        tbl('docs', [serialId(), intCol('owner'), intCol('editor')], ['id'], {
          foreignKeys: [fk('docs', 'owner', 'users'), fk('docs', 'editor', 'users')],
        }),
      ],
    });
    expect(relationshipNames(entity(model, 'docs'))).toEqual(['users', 'usersByEditor']);
    expect(entity(model, 'docs').relationships.get('users')?.field).toBe('owner');
  });

  it('avoids a many-to-one name that is already a field', () => {
    const model = buildModel({
      tables: [
        tbl('customers', [serialId()], ['id']),
        tbl('orders', [serialId(), intCol('customer_id'), col('customer')], ['id'], {
          foreignKeys: [fk('orders', 'customer_id', 'customers')],
        }),
      ],
    });
    expect(relationshipNames(entity(model, 'orders'))).toEqual(['customersByCustomerId']);
  });

  it('avoids a reverse name that is already a field of the target', () => {
    const model = buildModel({
      tables: [
        tbl('customers', [serialId(), intCol('orders')], ['id']),
        tbl('orders', [serialId(), intCol('customer_id')], ['id'], { foreignKeys: [fk('orders', 'customer_id', 'customers')] }),
      ],
    });
    expect(relationshipNames(entity(model, 'customers'))).toEqual(['ordersByCustomerId']);
  });

  it('treats a foreign key on the primary key column (1:1 extension) without an empty name', () => {
    const model = buildModel({
      tables: [
        tbl('users', [serialId()], ['id']),
        tbl('profiles', [intCol('id'), col('bio')], ['id'], { foreignKeys: [fk('profiles', 'id', 'users')] }),
      ],
    });
    expect(entity(model, 'profiles').relationships.get('users')).toMatchObject({ kind: 'manyToOne', field: 'id', target: 'users' });
    expect(entity(model, 'users').relationships.get('profiles')).toMatchObject({ kind: 'oneToMany', field: 'id' });
  });

  it('makes one relationship of duplicate constraints', () => {
    const model = buildModel({
      tables: [
        tbl('customers', [serialId()], ['id']),
        tbl('orders', [serialId(), intCol('customer_id')], ['id'], {
          foreignKeys: [fk('orders', 'customer_id', 'customers'), { ...fk('orders', 'customer_id', 'customers'), name: 'dup' }],
        }),
      ],
    });
    expect(relationshipNames(entity(model, 'orders'))).toEqual(['customer']);
    expect(relationshipNames(entity(model, 'customers'))).toEqual(['orders']);
  });

  it('is deterministic whatever the order of tables and keys', () => {
    const schema = shop();
    const reversed: DatabaseSchema = {
      tables: [...schema.tables].reverse().map((t) => ({ ...t, foreignKeys: [...t.foreignKeys].reverse() })),
    };
    const summary = (m: SchemaModel) =>
      [...m.entities.values()]
        .map((e) => [e.name, e.fields.map((f) => f.name), [...e.relationships.values()]] as const)
        .sort((a, b) => a[0].localeCompare(b[0]));
    expect(summary(buildModel(reversed))).toEqual(summary(buildModel(schema)));
  });
});

describe('buildModel: autoTimestamp', () => {
  it('applies only to created/updated columns of timestamp or date type', () => {
    const model = buildModel({
      tables: [
        tbl(
          't',
          [
            serialId(),
            col('createdAt', { type: 'date', nativeType: 'date' }),
            col('updatedAt', { type: 'timestamp', nativeType: 'timestamp' }),
            col('created_on', { type: 'timestamp', nativeType: 'timestamp' }),
          ],
          ['id'],
        ),
        tbl('u', [serialId(), col('created_at'), col('updated_at', { type: 'integer', nativeType: 'integer' })], ['id']),
      ],
    });
    const t = entity(model, 't');
    expect(t.fields.map((f) => f.autoTimestamp)).toEqual([null, 'create', 'update', null]);
    expect(entity(model, 'u').fields.map((f) => f.autoTimestamp)).toEqual([null, null, null]);
  });
});
