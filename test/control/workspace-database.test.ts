/**
 * How the admin API shows and reads a workspace's `database` settings: passwords masked in every
 * connection-string form the drivers take, and a PATCH merged onto the stored settings.
 */
import { describe, expect, it } from 'vitest';
import { PayloadReader } from '../../core/payload.ts';
import { maskCredentials, readDatabase } from '../../core/control/workspace-database.ts';
import { EmbeddedDatabase } from '../../dialects/postgres/index.ts';
import { createDialectRegistry } from '../../server/dialect-registry.ts';

const dialects = createDialectRegistry(new EmbeddedDatabase());

describe('maskCredentials', () => {
  it.each([
    ['postgres://app:s3cret@db.example:5432/shop', 'postgres://app:***@db.example:5432/shop'],
    ['mysql://root@127.0.0.1:3306/test', 'mysql://root@127.0.0.1:3306/test'],
    ['postgres://db.example/shop?user=app&password=s3cret&sslmode=require', 'postgres://db.example/shop?user=app&password=***&sslmode=require'],
    ['mssql://sa:p%40ss@sql:1433/db?encrypt=false', 'mssql://sa:***@sql:1433/db?encrypt=false'],
    ['Server=tcp:db,1433;Database=shop;User Id=sa;Password=s3cret;Encrypt=true', 'Server=tcp:db,1433;Database=shop;User Id=sa;Password=***;Encrypt=true'],
    ['Server=db;PWD=s3cret', 'Server=db;PWD=***'],
  ])('%s → %s', (url, masked) => {
    expect(maskCredentials(url)).toBe(masked);
  });
});

describe('readDatabase', () => {
  const current = { vendor: 'postgres', url: 'postgres://app:s3cret@db.example/shop', schema: 'sales', poolSize: 5 };
  const read = (body: unknown, base?: typeof current) => {
    const reader = new PayloadReader(body, ['name', 'database']);
    const database = readDatabase(reader, dialects, base);
    reader.done();
    return database;
  };

  it('a PATCH keeps what it does not send, null clears schema and poolSize', () => {
    expect(read({ database: { schema: 'archive' } }, current)).toEqual({ ...current, schema: 'archive' });
    expect(read({ database: { schema: null, poolSize: null } }, current)).toEqual({ vendor: 'postgres', url: current.url });
    expect(read({ name: 'x' }, current)).toEqual(current);
  });

  it('the masked URL sent back keeps the stored password; another URL replaces it', () => {
    expect(read({ database: { url: maskCredentials(current.url) } }, current)?.url).toBe(current.url);
    expect(read({ database: { url: 'postgres://app:new@db.example/shop' } }, current)?.url).toBe('postgres://app:new@db.example/shop');
  });

  it('unknown keys, wrong types and URLs of another vendor are refused by field', () => {
    expect(() => read({ database: { host: 'x' } }, current)).toThrow(/database\.host/);
    expect(() => read({ database: { poolSize: '5' } }, current)).toThrow(/database\.poolSize/);
    expect(() => read({ database: { vendor: 'mysql' } }, current)).toThrow(/database\.url/);
    expect(() => read({ database: { vendor: 'postgres' } })).toThrow(/database\.url: is required/);
    expect(() => read({})).toThrow(/database/);
  });
});
