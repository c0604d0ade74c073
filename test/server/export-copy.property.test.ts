/**
 * The CSV export written by PostgreSQL's COPY (Driver.csvCopy, dialects/postgres/postgres-copy.ts)
 * is byte for byte the row path's (core/query/export-cells.ts + csv-stringify): random rows
 * (unicode, quotes, commas, CR/LF, `\.`, nulls, empty strings, extreme numbers, NaN and
 * infinities, BC and five-digit years, microseconds) exported through two workspaces over the same
 * database, one whose driver has `csvCopy` and one whose driver has it removed, under filters
 * (bound values), `where`, sorts, `fields`, a many-to-one expansion and display headers.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CsvCopyColumn, Driver } from '../../dialects/dialect.ts';
import { createPgDriver, createPostgresDialect } from '../../dialects/postgres/index.ts';
import type { CompiledSql } from '../../core/sql.ts';
import { ADMIN_TOKEN, fetchJson, startWorkspace, type TestWorkspace } from '../support/harness.ts';
import { postgresTarget, vendorsToRun } from '../support/vendors.ts';

/** How many exports went through COPY (csvCopy gave bytes, not null). */
let copies = 0;

const copyDialect = createPostgresDialect({
  name: 'postgres-copy',
  connect: async (config) => {
    const driver = createPgDriver(config);
    const csvCopy = (statement: CompiledSql, columns: readonly CsvCopyColumn[]) => {
      const chunks = driver.csvCopy?.(statement, columns) ?? null;
      if (chunks) copies++;
      return chunks;
    };
    return { ...driver, csvCopy };
  },
});

const rowsDialect = createPostgresDialect({
  name: 'postgres-rows',
  connect: async (config): Promise<Driver> => {
    const { csvCopy: _copy, ...driver } = createPgDriver(config);
    return driver;
  },
});

const vendors = await vendorsToRun([{ ...postgresTarget, dialects: [copyDialect, rowsDialect] }]);

const THINGS = `CREATE TABLE things (id integer PRIMARY KEY, label text NULL, code varchar(12) NULL, pad char(4) NULL,
  big bigint NULL, price numeric(20,6) NULL, free numeric NULL, flag boolean NULL, seen timestamptz NULL,
  local timestamp NULL, day date NULL, at time NULL, u uuid NULL, bytes bytea NULL,
  owner_id integer NULL REFERENCES owners(id))`;
const OWNERS = 'CREATE TABLE owners (id integer PRIMARY KEY, name text NULL, since timestamptz NULL)';
const MEASURES = 'CREATE TABLE measures (id integer PRIMARY KEY, score double precision NULL, ratio real NULL, doc jsonb NULL)';

const TRICKY = ['', ' ', ',', '"', '""', '\n', '\r\n', '\r', 'a,"b"\nc', '\\.', '\\', '=1+2', '-1', ' padded ', 'null', '\\N', 'Ωmega 東京 🚀', '\t', 'x\r\ny,'];
const noNul = (s: string): boolean => !s.includes('\u0000');
const text = fc.oneof(fc.constantFrom(...TRICKY), fc.string({ unit: 'grapheme', maxLength: 12 }), fc.string({ maxLength: 12 })).filter(noNul);
const orNull = <T>(arb: fc.Arbitrary<T>): fc.Arbitrary<T | null> => fc.option(arb, { nil: null, freq: 4 });

const two = (n: number): string => String(n).padStart(2, '0');
const micros = fc.oneof(fc.constant(''), fc.integer({ min: 0, max: 999_999 }).map((n) => `.${String(n).padStart(6, '0')}`), fc.constantFrom('.5', '.999999', '.000001', '.12'));
const dayText = fc.record({ year: fc.oneof(fc.integer({ min: 1, max: 9999 }), fc.integer({ min: 10_000, max: 20_000 }), fc.constantFrom(1, 44, 999, 1000, 9999)), month: fc.integer({ min: 1, max: 12 }), day: fc.integer({ min: 1, max: 28 }), bc: fc.boolean() })
  .map(({ year, month, day, bc }) => ({ text: `${String(year).padStart(4, '0')}-${two(month)}-${two(day)}`, bc: bc && year < 4000 }));
const clock = fc.tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }), fc.integer({ min: 0, max: 59 }), micros).map(([h, m, s, f]) => `${two(h)}:${two(m)}:${two(s)}${f}`);
const zone = fc.constantFrom('+00', 'Z', '+05:30', '-11');
const instant = fc.oneof(
  { weight: 8, arbitrary: fc.tuple(dayText, clock, zone).map(([d, c, z]) => `${d.text} ${c}${z}${d.bc ? ' BC' : ''}`) },
  { weight: 1, arbitrary: fc.constantFrom('infinity', '-infinity', '2000-01-01 00:00:00+00', '1969-12-31 23:59:59.999999+00') },
);
const localTime = fc.oneof({ weight: 8, arbitrary: fc.tuple(dayText, clock).map(([d, c]) => `${d.text} ${c}${d.bc ? ' BC' : ''}`) }, { weight: 1, arbitrary: fc.constantFrom('infinity', '-infinity') });
const date = fc.oneof({ weight: 8, arbitrary: dayText.map((d) => `${d.text}${d.bc ? ' BC' : ''}`) }, { weight: 1, arbitrary: fc.constantFrom('infinity', '-infinity') });
const digits = (max: number) => fc.bigInt({ min: 0n, max: 10n ** BigInt(max) - 1n }).map(String);
const price = fc.tuple(fc.boolean(), digits(14), digits(6)).map(([neg, whole, frac]) => `${neg ? '-' : ''}${whole}.${frac}`);
const free = fc.oneof(
  fc.constantFrom('NaN', 'Infinity', '-Infinity', '0', '-0.000', '0.5000', '1e-20', '123456789012345678901234567890.123456789', '100', '-7.10'),
  fc.tuple(fc.boolean(), digits(25), digits(12), fc.integer({ min: 0, max: 4 })).map(([neg, whole, frac, zeros]) => `${neg ? '-' : ''}${whole}.${frac}${'0'.repeat(zeros)}`),
);

const row = fc.record({
  label: orNull(text),
  code: orNull(fc.string({ maxLength: 12 }).filter(noNul)),
  pad: orNull(fc.oneof(fc.constantFrom('', ' ', 'a', ' b', 'ab  ', '"', ','), fc.string({ maxLength: 4 }).filter(noNul))),
  big: orNull(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }).map(String)),
  price: orNull(price),
  free: orNull(free),
  flag: orNull(fc.boolean()),
  seen: orNull(instant),
  local: orNull(localTime),
  day: orNull(date),
  at: orNull(clock),
  u: orNull(fc.uuid()),
  bytes: orNull(fc.uint8Array({ maxLength: 80 }).map((a) => Buffer.from(a))),
  owner: orNull(fc.constantFrom(1, 2)),
});
type Row = typeof row extends fc.Arbitrary<infer T> ? T : never;
const rows = fc.array(row, { minLength: 0, maxLength: 12 });

const where = (formula: string): string => `where=${encodeURIComponent(formula)}`;
const QUERIES = [
  'sort=id',
  'sort=id&expand=owner',
  'expand=owner&fields=id,label,owner.name,owner.since&sort=id,desc',
  'sort=price,desc&filter[price.gte]=0',
  'filter[label.contains]=a&sort=id',
  'filter[seen.lt]=2000-01-01T00:00:00Z&sort=seen',
  'filter[day.gte]=1500-01-01&sort=day,desc',
  'fields=label&sort=id',
  'fields=pad,code&sort=code',
  'filter[flag.eq]=true&filter[big.gt]=0&sort=id',
  'filter[id.in]=1,3,5,7&sort=id',
  'filter[label.isNull]=true&sort=id',
  `${where("big > 0 OR label = 'x' OR price < 1")}&sort=id`,
  'header=display&sort=id&expand=owner',
];

describe.each(vendors)('CSV export through COPY on $name', (target) => {
  let ws: TestWorkspace;
  const keys: Record<'copy' | 'rows', string> = { copy: '', rows: '' };

  async function addWorkspace(slug: 'copy' | 'rows', vendor: string): Promise<void> {
    const base = `${ws.url}/api/admin/v1/orgs/${ws.org}/workspaces`;
    const created = await fetchJson(base, 'POST', { body: { slug, name: slug, database: { ...ws.db.database, vendor } } }, ADMIN_TOKEN);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const key = await fetchJson(`${base}/${slug}/api-keys`, 'POST', { body: { name: 'test' } }, ADMIN_TOKEN);
    keys[slug] = String(key.body?.data?.key);
  }

  beforeAll(async () => {
    ws = await startWorkspace(target, { fixture: false });
    await ws.db.query(OWNERS);
    await ws.db.query(THINGS);
    await ws.db.query(MEASURES);
    await ws.db.query(`INSERT INTO owners VALUES (1, 'Ann, "the" first', '2026-11-22 10:00:00.123456+00'), (2, NULL, 'infinity')`);
    await addWorkspace('copy', 'postgres-copy');
    await addWorkspace('rows', 'postgres-rows');
  }, 60_000);
  afterAll(async () => ws?.close());

  async function exported(slug: 'copy' | 'rows', entity: string, query: string): Promise<{ status: number; text: string }> {
    const response = await fetch(`${ws.url}/api/v1/${ws.org}/${slug}/${entity}?format=csv&${query}`, { headers: { authorization: `Bearer ${keys[slug]}` } });
    return { status: response.status, text: await response.text() };
  }

  async function insert(generated: readonly Row[]): Promise<void> {
    await ws.db.query('DELETE FROM things');
    for (const [i, r] of generated.entries()) {
      await ws.db.query('INSERT INTO things VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)', [
        i + 1, r.label, r.code, r.pad, r.big, r.price, r.free, r.flag, r.seen, r.local, r.day, r.at, r.u, r.bytes, r.owner,
      ]);
    }
  }

  it('every query gives the same status and bytes through COPY as through the rows', async () => {
    await fc.assert(
      fc.asyncProperty(rows, async (generated) => {
        await insert(generated);
        for (const query of QUERIES) {
          const before = copies;
          const [copied, written] = [await exported('copy', 'things', query), await exported('rows', 'things', query)];
          expect(written.status, `${query}: ${written.text}`).toBe(200);
          expect(copied.status, query).toBe(200);
          expect(copies, `${query} went through COPY`).toBe(before + 1);
          expect(copied.text, query).toBe(written.text);
        }
      }),
      { numRuns: 25 },
    );
  }, 600_000);

  it('a type without an exact SQL text (double, real, jsonb) keeps the row path', async () => {
    await ws.db.query(`DELETE FROM measures`);
    await ws.db.query(`INSERT INTO measures VALUES (1, 1e21, 0.1, '{"b": 1, "a": [1.0, "x"]}'), (2, -0, 3.4e38, NULL), (3, 1e-7, NULL, '"s"')`);
    const before = copies;
    const [copied, written] = [await exported('copy', 'measures', 'sort=id'), await exported('rows', 'measures', 'sort=id')];
    expect(copies).toBe(before);
    expect(copied).toEqual(written);
    expect(copied.text).toContain('1e+21');
  });
});
