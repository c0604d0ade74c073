/** The where box's placeholder names the entity's own fields (plugins/admin-app/ui/src/lib/where-example.ts). */
import { describe, expect, it } from 'vitest';
import { whereExample } from '../../plugins/admin-app/ui/src/lib/where-example.ts';

describe('where placeholder', () => {
  it('uses a number and a text field of the entity', () => {
    expect(whereExample([{ name: 'id', type: 'integer', primaryKey: true }, { name: 'name', type: 'text' }, { name: 'population', type: 'bigint' }])).toBe("population > 0 AND name <> ''");
  });

  it('names only fields the entity has', () => {
    const fields = [{ name: 'id', type: 'integer', primaryKey: true }, { name: 'active', type: 'boolean' }];
    expect(whereExample(fields)).toBe('id > 0');
    expect(whereExample([{ name: 'active', type: 'boolean' }])).toBe('active IS NOT NULL');
  });
});
