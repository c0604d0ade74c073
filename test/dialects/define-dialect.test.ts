/**
 * defineDialect: a vendor that writes only what is its own gets standard SQL for the rest, and
 * bind(config) applies the workspace's schema so core never passes DatabaseConfig around.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ident, render, sql, type CompiledSql } from '../../core/sql.ts';
import { defineDialect } from '../../dialects/define-dialect.ts';
import type { Executor } from '../../dialects/dialect.ts';
import { createPGliteDriver, openPGlite } from '../../dialects/postgres/index.ts';
import { postgresFormula } from '../../dialects/postgres/postgres-formula.ts';
import { postgresDialect } from '../../dialects/postgres/index.ts';

const unused = async (): Promise<never> => {
  throw new Error('not used by this test');
};

/** The fewest members a vendor can write: the rest is defaults. */
const minimal = defineDialect({
  name: 'minimal',
  sql: {
    quoteIdent: (name) => `"${name.replace(/"/g, '""')}"`,
    placeholder: (i) => `$${i}`,
    like: (expr, pattern) => sql`${expr} LIKE ${pattern} ESCAPE '\\'`,
    columnType: () => 'text',
  },
  writer: { insert: unused, upsert: unused },
  introspector: { introspect: unused },
  errors: () => null,
  formula: postgresFormula,
  connect: unused,
});

const text = (statement: Parameters<typeof render>[0]): CompiledSql => render(statement, minimal.sql);

describe('defineDialect defaults', () => {
  it('spells paging, NULL ordering, UPDATE, DELETE and DDL in standard SQL', () => {
    const table = minimal.bind({ vendor: 'minimal', schema: 'shop' }).tableRef('orders');
    expect(text(table).text).toBe('"shop"."orders"');
    expect(text(sql`ORDER BY ${minimal.sql.orderTerm(ident('t0', 'a'), 'asc', true)}, ${minimal.sql.orderTerm(ident('t0', 'b'), 'desc', true)}${minimal.sql.paginate(20, 40)}`))
      .toEqual({ text: 'ORDER BY "t0"."a" ASC NULLS LAST, "t0"."b" DESC NULLS FIRST LIMIT $1 OFFSET $2', params: [20, 40] });
    // A term that cannot be NULL is plain: the form an index serves on every vendor.
    expect(text(sql`ORDER BY ${minimal.sql.orderTerm(ident('t0', 'a'), 'asc', false)}, ${minimal.sql.orderTerm(ident('t0', 'b'), 'desc', false)}`).text)
      .toBe('ORDER BY "t0"."a" ASC, "t0"."b" DESC');
    expect(text(minimal.sql.updateStatement(table, 't0', sql`${ident('a')} = ${1}`, sql`${ident('t0', 'id')} = ${2}`)).text)
      .toBe('UPDATE "shop"."orders" AS "t0" SET "a" = $1 WHERE "t0"."id" = $2');
    expect(text(minimal.sql.deleteStatement(table, 't0', sql`${ident('t0', 'id')} = ${2}`)).text).toBe('DELETE FROM "shop"."orders" AS "t0" WHERE "t0"."id" = $1');
    expect(text(minimal.sql.addColumnStatement(table, 'note', 'text')).text).toBe('ALTER TABLE "shop"."orders" ADD COLUMN "note" text NULL');
    expect(text(minimal.sql.dropColumnStatement(table, 'note')).text).toBe('ALTER TABLE "shop"."orders" DROP COLUMN "note"');
    expect(text(minimal.bind({ vendor: 'minimal' }).createTableIfMissing('marks', sql`id integer`)).text).toBe('CREATE TABLE IF NOT EXISTS "marks" (id integer)');
  });

  it('encodes json as JSON text and dates as ISO text, and leaves other values alone', () => {
    expect(minimal.sql.encodeValue('json', [1, 'x'])).toBe('[1,"x"]');
    expect(minimal.sql.encodeValue('timestamp', new Date(0))).toBe('1970-01-01T00:00:00.000Z');
    expect(minimal.sql.encodeValue('integer', 7)).toBe(7);
    expect(minimal.sql.encodeValue('text', null)).toBeNull();
  });

  it('has the documented capabilities, no URL check and no estimate', async () => {
    expect(minimal.capabilities).toEqual({
      needsUrl: true, maxParams: 65535, upsertMatchesAnyUniqueKey: false, jsonArrivesAsText: true, maxIdentifierLength: { limit: 63, unit: 'bytes' },
    });
    expect(minimal.urlProblem('anything')).toBeNull();
    const db: Executor = { query: unused };
    expect(await minimal.bind({ vendor: 'minimal' }).estimateRows(db, { text: 'SELECT 1', params: [] }, 'orders')).toBeNull();
  });

  it('keeps a vendor spelling over the default and lets capabilities be overridden one by one', () => {
    const custom = defineDialect({
      name: 'custom',
      capabilities: { maxParams: 10 },
      sql: { ...minimal.sql, paginate: (limit) => sql` FETCH FIRST ${limit} ROWS ONLY` },
      writer: minimal.writer, introspector: minimal.introspector, errors: minimal.errors, formula: minimal.formula, connect: minimal.connect,
    });
    expect(text(custom.sql.paginate(5, 0)).text).toBe(' FETCH FIRST $1 ROWS ONLY');
    expect(custom.capabilities.maxParams).toBe(10);
    expect(custom.capabilities.needsUrl).toBe(true);
  });

  it('a dialect derived by spreading binds its own parts, not those of its base', () => {
    const derived = { ...minimal, sql: { ...minimal.sql, tableRef: () => ident('elsewhere') } };
    expect(text(derived.bind({ vendor: 'minimal', schema: 'shop' }).tableRef('orders')).text).toBe('"elsewhere"');
  });

  it('binds the default schema when a workspace names none', () => {
    expect(render(postgresDialect.bind({ vendor: 'postgres' }).tableRef('t'), postgresDialect.sql).text).toBe('"public"."t"');
    expect(text(minimal.bind({ vendor: 'minimal' }).tableRef('t')).text).toBe('"t"');
  });
});

describe('the default schemaExists, on a real database', () => {
  let embedded: Awaited<ReturnType<typeof openPGlite>>;
  let db: Executor;
  beforeAll(async () => {
    embedded = await openPGlite();
    db = createPGliteDriver(embedded);
    await db.query({ text: 'CREATE SCHEMA present', params: [] });
  });
  afterAll(async () => {
    await embedded.close();
  });

  it('finds a schema in information_schema.schemata and not one that is missing', async () => {
    expect(await minimal.bind({ vendor: 'minimal', schema: 'present' }).schemaExists(db)).toBe(true);
    expect(await minimal.bind({ vendor: 'minimal', schema: 'absent' }).schemaExists(db)).toBe(false);
    expect(await minimal.bind({ vendor: 'minimal' }).schemaExists(db)).toBe(true);
  });
});
