import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mapPostgresError } from '../../../dialects/postgres/postgres-errors.ts';

/** Real errors from an in-process PostgreSQL, mapped to the service's error kinds. */
describe('mapPostgresError', () => {
  let db: PGlite;
  const kindOf = async (text: string, params: unknown[] = []): Promise<string | undefined> => {
    try {
      await db.query(text, params);
      return 'no error';
    } catch (error) {
      return mapPostgresError(error)?.kind;
    }
  };

  beforeAll(async () => {
    db = await PGlite.create();
    await db.exec(`CREATE TABLE parent (id int PRIMARY KEY, code text UNIQUE);
      CREATE TABLE child (id int PRIMARY KEY, parent_id int REFERENCES parent(id), v jsonb, n int NOT NULL DEFAULT 0 CHECK (n >= 0));
      INSERT INTO parent VALUES (1, 'a');`);
  });
  afterAll(async () => db?.close());

  it.each([
    ['unique_violation', "INSERT INTO parent VALUES (2, 'a')", []],
    ['foreign_key_violation', 'INSERT INTO child (id, parent_id) VALUES (1, 99)', []],
    ['not_null_violation', 'INSERT INTO child (id, n) VALUES (2, NULL)', []],
    ['check_violation', 'INSERT INTO child (id, n) VALUES (3, -1)', []],
    ['invalid_value', 'INSERT INTO child (id, v) VALUES (4, $1)', [JSON.stringify({ a: 'x\u0000y' })]],
    ['invalid_value', "SELECT 'abc'::int", []],
    ['division_by_zero', 'SELECT 1 / 0', []],
    ['undefined_column', 'SELECT nope FROM parent', []],
    ['undefined_function', 'SELECT no_such_function(1)', []],
  ] as const)('%s from %s', async (kind, text, params) => {
    expect(await kindOf(text, [...params])).toBe(kind);
  });

  it('a missing column or table names it as the server spelled it, quotes removed', async () => {
    const failure = async (text: string) => db.query(text).then(() => null, (error: unknown) => mapPostgresError(error));
    expect(await failure('SELECT t0.nope FROM parent t0')).toEqual({ kind: 'undefined_column', column: 't0.nope' });
    expect(await failure('SELECT "Odd name" FROM parent')).toEqual({ kind: 'undefined_column', column: 'Odd name' });
    expect(await failure('INSERT INTO parent (id, nope) VALUES (5, 1)')).toEqual({ kind: 'undefined_column', column: 'nope' });
    expect(await failure('SELECT 1 FROM public.gone')).toEqual({ kind: 'undefined_table', table: 'public.gone' });
    expect(await failure('DELETE FROM gone')).toEqual({ kind: 'undefined_table', table: 'gone' });
  });

  it('leaves errors it does not know unmapped', () => {
    expect(mapPostgresError(new Error('boom'))).toBeNull();
    expect(mapPostgresError('not an error')).toBeNull();
  });
});
