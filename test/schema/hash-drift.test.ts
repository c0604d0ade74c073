import { describe, expect, it } from 'vitest';
import { diffSchemas, hasDrift } from '../../core/schema/drift.ts';
import { schemaHash } from '../../core/schema/hash.ts';
import type { DatabaseSchema, TableInfo } from '../../core/schema/introspection.ts';
import { col, fk, intCol, shop } from '../support/schema-fixtures.ts';

/** The shop with `edit` applied to table `name`. */
function withTable(name: string, edit: (t: TableInfo) => TableInfo): DatabaseSchema {
  return { tables: shop().tables.map((t) => (t.name === name ? edit(t) : t)) };
}

describe('schemaHash', () => {
  const base = schemaHash(shop());

  it('is a sha256 hex digest, stable across calls', () => {
    expect(base).toMatch(/^[0-9a-f]{64}$/);
    expect(schemaHash(shop())).toBe(base);
  });

  it('ignores the order of tables, columns, keys and foreign keys', () => {
    const shuffled: DatabaseSchema = {
      tables: [...shop().tables].reverse().map((t) => ({
        ...t,
        columns: [...t.columns].reverse(),
        uniqueKeys: [...t.uniqueKeys].reverse(),
        foreignKeys: [...t.foreignKeys].reverse(),
      })),
    };
    expect(schemaHash(shuffled)).toBe(base);
  });

  it('ignores row estimates', () => {
    expect(schemaHash(withTable('regions', (t) => ({ ...t, estimatedRows: 123456 })))).toBe(base);
  });

  it.each<[string, (t: TableInfo) => TableInfo]>([
    ['a column added', (t) => ({ ...t, columns: [...t.columns, col('note')] })],
    ['a column renamed', (t) => ({ ...t, columns: t.columns.map((c) => (c.name === 'name' ? { ...c, name: 'label' } : c)) })],
    ['nullability', (t) => ({ ...t, columns: t.columns.map((c) => (c.name === 'name' ? { ...c, nullable: false } : c)) })],
    ['native type', (t) => ({ ...t, columns: t.columns.map((c) => (c.name === 'name' ? { ...c, nativeType: 'varchar(10)' } : c)) })],
    ['max length', (t) => ({ ...t, columns: t.columns.map((c) => (c.name === 'code' ? { ...c, maxLength: 3 } : c)) })],
    ['precision', (t) => ({ ...t, columns: t.columns.map((c) => (c.name === 'code' ? { ...c, numericPrecision: 3 } : c)) })],
    ['scale', (t) => ({ ...t, columns: t.columns.map((c) => (c.name === 'code' ? { ...c, numericScale: 1 } : c)) })],
    ['default', (t) => ({ ...t, columns: t.columns.map((c) => (c.name === 'name' ? { ...c, defaultValue: "''" } : c)) })],
    ['autoIncrement', (t) => ({ ...t, columns: t.columns.map((c) => (c.name === 'id' ? { ...c, autoIncrement: false } : c)) })],
    ['generated', (t) => ({ ...t, columns: t.columns.map((c) => (c.name === 'name' ? { ...c, generated: true } : c)) })],
    ['enum values', (t) => ({ ...t, columns: t.columns.map((c) => (c.name === 'name' ? { ...c, enumValues: ['a'] } : c)) })],
    ['a unique key dropped', (t) => ({ ...t, uniqueKeys: t.uniqueKeys.filter((k) => k.primary) })],
    ['key column order', (t) => ({ ...t, uniqueKeys: [...t.uniqueKeys, { name: 'k', columns: ['name', 'code'], primary: false }] })],
    ['a foreign key added', (t) => ({ ...t, foreignKeys: [fk('regions', 'code', 'addresses')] })],
    ['the primary key', (t) => ({ ...t, primaryKey: ['code'] })],
  ])('changes with %s', (_what, edit) => {
    expect(schemaHash(withTable('regions', edit))).not.toBe(base);
  });

  it('tells key column orders apart', () => {
    const key = (columns: string[]) =>
      schemaHash(withTable('regions', (t) => ({ ...t, uniqueKeys: [{ name: 'k', columns, primary: false }] })));
    expect(key(['name', 'code'])).not.toBe(key(['code', 'name']));
  });
});

describe('diffSchemas', () => {
  it('reports every table as added on the first sync', () => {
    const drift = diffSchemas(null, shop());
    expect(drift).toEqual({
      addedTables: ['addresses', 'customers', 'employees', 'event_log', 'order_lines', 'orders', 'regions'],
      removedTables: [],
      changedTables: [],
    });
    expect(hasDrift(drift)).toBe(true);
  });

  it('reports nothing for equal schemas, whatever their order', () => {
    const reordered: DatabaseSchema = { tables: [...shop().tables].reverse().map((t) => ({ ...t, columns: [...t.columns].reverse() })) };
    const drift = diffSchemas(shop(), reordered);
    expect(drift).toEqual({ addedTables: [], removedTables: [], changedTables: [] });
    expect(hasDrift(drift)).toBe(false);
    expect(hasDrift(diffSchemas({ tables: [] }, { tables: [] }))).toBe(false);
  });

  it('ignores row estimates', () => {
    expect(hasDrift(diffSchemas(shop(), withTable('orders', (t) => ({ ...t, estimatedRows: 99 }))))).toBe(false);
  });

  it('reports added and removed tables, sorted', () => {
    const before = shop();
    const after: DatabaseSchema = {
      tables: [
        ...before.tables.filter((t) => t.name !== 'orders' && t.name !== 'employees'),
        { ...before.tables[0]!, name: 'zones' },
        { ...before.tables[0]!, name: 'areas' },
      ],
    };
    expect(diffSchemas(before, after)).toMatchObject({
      addedTables: ['areas', 'zones'],
      removedTables: ['employees', 'orders'],
      changedTables: [],
    });
  });

  it('reports added, removed and changed columns with each property change', () => {
    const after: DatabaseSchema = {
      tables: shop().tables.map((t) => {
        if (t.name === 'orders') {
          return {
            ...t,
            columns: [
              ...t.columns
                .filter((c) => c.name !== 'order_no')
                .map((c) => (c.name === 'total' ? { ...c, nativeType: 'numeric(12,3)', numericPrecision: 12, numericScale: 3 } : c)),
              col('note'),
              col('added_by'),
            ],
          };
        }
        if (t.name === 'regions') {
          return { ...t, columns: t.columns.map((c) => (c.name === 'name' ? { ...c, nullable: false, enumValues: ['x'] } : c)) };
        }
        return t;
      }),
    };
    const drift = diffSchemas(shop(), after);
    expect(drift.addedTables).toEqual([]);
    expect(drift.removedTables).toEqual([]);
    expect(drift.changedTables).toEqual([
      {
        table: 'orders',
        addedColumns: ['added_by', 'note'],
        removedColumns: ['order_no'],
        changedColumns: [
          {
            column: 'total',
            changes: [
              { property: 'nativeType', before: 'numeric(10,2)', after: 'numeric(12,3)' },
              { property: 'numericPrecision', before: 10, after: 12 },
              { property: 'numericScale', before: 2, after: 3 },
            ],
          },
        ],
        changedConstraints: [],
      },
      {
        table: 'regions',
        addedColumns: [],
        removedColumns: [],
        changedColumns: [
          {
            column: 'name',
            changes: [
              { property: 'nullable', before: true, after: false },
              { property: 'enumValues', before: null, after: ['x'] },
            ],
          },
        ],
        changedConstraints: [],
      },
    ]);
    expect(hasDrift(drift)).toBe(true);
  });

  it('reports key and foreign key changes', () => {
    const after = withTable('customers', (t) => ({
      ...t,
      columns: [...t.columns, intCol('referrer_id')],
      primaryKey: ['email'],
      uniqueKeys: [
        { name: 'customers_pkey', columns: ['email'], primary: true },
        { name: 'customers_email_key', columns: ['email'], primary: false },
      ],
      foreignKeys: [fk('customers', 'referrer_id', 'customers')],
    }));
    const [customers] = diffSchemas(shop(), after).changedTables;
    expect(customers?.addedColumns).toEqual(['referrer_id']);
    expect(customers?.changedConstraints).toEqual([
      { kind: 'primaryKey', name: 'customers_pkey', change: 'changed' },
      { kind: 'uniqueKey', name: 'customers_email_key', change: 'added' },
      { kind: 'uniqueKey', name: 'customers_pkey', change: 'changed' },
      { kind: 'foreignKey', name: 'customers_referrer_id_fkey', change: 'added' },
      { kind: 'foreignKey', name: 'customers_region_id_fkey', change: 'removed' },
    ]);
  });

  it('hasDrift agrees with the schema hash on every case above', () => {
    const variants = [
      withTable('regions', (t) => ({ ...t, estimatedRows: 5 })),
      withTable('regions', (t) => ({ ...t, columns: t.columns.slice(1) })),
      withTable('orders', (t) => ({ ...t, foreignKeys: [] })),
      withTable('orders', (t) => ({ ...t, columns: t.columns.map((c) => ({ ...c, defaultValue: 'x' })) })),
    ];
    for (const variant of variants) {
      expect(hasDrift(diffSchemas(shop(), variant))).toBe(schemaHash(variant) !== schemaHash(shop()));
    }
  });
});
