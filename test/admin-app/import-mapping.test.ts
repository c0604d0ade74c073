/** The import wizard's mapping preview (plugins/admin-app/ui/src/lib/import-mapping.ts), without a browser. */
import { describe, expect, it } from 'vitest';
import { autoMapping, importableColumns, mappingHeader } from '../../plugins/admin-app/ui/src/lib/import-mapping.ts';

const field = (name: string, column: string, extra: Partial<{ primaryKey: boolean; autoIncrement: boolean; autoTimestamp: string | null; generated: boolean }> = {}) => ({
  name,
  column,
  primaryKey: false,
  autoIncrement: false,
  autoTimestamp: null,
  generated: false,
  ...extra,
});

const FIELDS = [
  field('id', 'id', { primaryKey: true, autoIncrement: true }),
  field('fullName', 'full_name'),
  field('regionId', 'region_id'),
  field('createdAt', 'created_at', { autoTimestamp: 'create' }),
  field('slug', 'slug', { generated: true }),
];
const COLUMNS = [
  { kind: 'FIELD', fieldName: 'id', displayName: 'Id' },
  { kind: 'FIELD', fieldName: 'fullName', displayName: 'Full Name' },
  { kind: 'RELATIONSHIP', fieldName: 'regionId', displayName: 'Region' },
  { kind: 'FIELD', fieldName: 'createdAt', displayName: 'Created At' },
  { kind: 'FIELD', fieldName: 'slug', displayName: 'Slug' },
  { kind: 'COMPUTED', fieldName: 'shout', displayName: 'Shout' },
];

describe('import mapping preview', () => {
  it('offers regular and foreign-key columns; the auto-increment key only for UPDATE; never timestamps, generated or computed columns', () => {
    expect(importableColumns(COLUMNS, FIELDS, 'INSERT').map((c) => c.fieldName)).toEqual(['fullName', 'regionId']);
    expect(importableColumns(COLUMNS, FIELDS, 'UPDATE').map((c) => c.fieldName)).toEqual(['id', 'fullName', 'regionId']);
  });

  it('maps by display name in any case, then field name, then database column; unknown and repeated columns are skipped', () => {
    const importable = importableColumns(COLUMNS, FIELDS, 'INSERT');
    expect(autoMapping(['FULL NAME', 'region_id', 'fullName', 'colour'], importable)).toEqual({ 'FULL NAME': 'fullName', region_id: 'regionId', fullName: null, colour: null });
    expect(autoMapping([' regionId ', 'createdAt'], importable)).toEqual({ ' regionId ': 'regionId', createdAt: null });
  });
});

describe('the X-Import-Mapping value', () => {
  it('is percent-encoded JSON: ASCII only, starting with %7B, and decodes to the mapping', () => {
    const mapping = { 名前: 'name', 'Größe €': 'email', skipped: null };
    const header = mappingHeader(mapping);
    expect(header.startsWith('%7B')).toBe(true);
    expect(/^[\x21-\x7e]*$/.test(header)).toBe(true);
    expect(JSON.parse(decodeURIComponent(header))).toEqual(mapping);
  });
});
