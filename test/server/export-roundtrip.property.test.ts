/**
 * DESIGN §14 "Round trip": random rows (unicode, quotes, commas, line breaks, nulls, empty strings,
 * extreme numbers, dates) exported as CSV and imported through the import endpoint into an empty
 * table of the same shape read back identical, on every vendor.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorkspace, type TestWorkspace } from '../support/harness.ts';
import { vendorsToRun } from '../support/vendors.ts';
import { doneOf, importFile, sync, viewUuidOf } from '../support/import-calls.ts';

const vendors = await vendorsToRun();

function shape(ws: TestWorkspace, name: string): string {
  const bool = ws.vendor === 'mariadb' ? 'tinyint(1)' : 'boolean';
  const instant = ws.vendor === 'mariadb' ? 'datetime(3)' : 'timestamptz';
  const float = ws.vendor === 'mariadb' ? 'double' : 'double precision';
  return `CREATE TABLE ${ws.db.table(name)} (id integer PRIMARY KEY, label varchar(200) NULL, score ${float} NULL, big bigint NULL,
    price decimal(18,4) NULL, flag ${bool} NULL, seen ${instant} NULL, day date NULL)`;
}

const TRICKY = ['', ' ', ',', '"', '""', '\n', '\r\n', '\r', 'a,"b"\nc', '=1+2', '+1', '-1', '@x', ' padded ', 'null', 'NULL', '\\N', 'Ωmega 東京 🚀', '\t'];

const text = fc.oneof(fc.constantFrom(...TRICKY), fc.string({ unit: 'grapheme', maxLength: 20 }), fc.string({ maxLength: 20 }));
const finiteScore = fc.oneof(fc.integer(), fc.double({ min: -1e15, max: 1e15, noNaN: true }), fc.constantFrom(1e300, -1e300, 1.7976931348623157e308, 2.2250738585072014e-308, 0.1, -123.456e-7))
  .filter((n) => !Object.is(n, -0));
const big = fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }).map(String);
const price = fc.tuple(fc.bigInt({ min: -(10n ** 14n) + 1n, max: 10n ** 14n - 1n }), fc.integer({ min: 0, max: 9999 })).map(([whole, frac]) => `${whole}.${String(frac).padStart(4, '0')}`);
const instant = fc.date({ min: new Date('1970-01-02T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString());
const day = fc.date({ min: new Date('1000-01-01T00:00:00Z'), max: new Date('9999-12-31T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));

const orNull = <T>(arb: fc.Arbitrary<T>): fc.Arbitrary<T | null> => fc.option(arb, { nil: null, freq: 4 });

const row = fc.record({ label: orNull(text), score: orNull(finiteScore), big: orNull(big), price: orNull(price), flag: orNull(fc.boolean()), seen: orNull(instant), day: orNull(day) });
const rows = fc.array(row, { minLength: 1, maxLength: 8 });

describe.each(vendors)('CSV export → import round trip on $name', (target) => {
  let ws: TestWorkspace;
  let copyView: string;

  beforeAll(async () => {
    ws = await startWorkspace(target, { fixture: false });
    await ws.db.query(shape(ws, 'rtsource'));
    await ws.db.query(shape(ws, 'rtcopy'));
    await sync(ws);
    copyView = await viewUuidOf(ws, 'rtcopy');
  }, 60_000);
  afterAll(async () => ws?.close());

  async function exported(entity: string, format: string): Promise<string> {
    const response = await fetch(`${ws.url}${ws.records(`/${entity}?format=${format}&sort=id`)}`, { headers: { authorization: `Bearer ${ws.apiKey}` } });
    expect(response.status).toBe(200);
    return response.text();
  }

  /** The price column as the database prints it, in id order. */
  async function decimals(table: string): Promise<string[]> {
    const rows = await ws.db.query(`SELECT price FROM ${ws.db.table(table)} ORDER BY id`);
    return rows.map((r) => (r.price === null ? 'NULL' : String(r.price)));
  }

  it('the copy reads back identical to the source', async () => {
    await fc.assert(
      fc.asyncProperty(rows, async (generated) => {
        await ws.db.query(`DELETE FROM ${ws.db.table('rtsource')}`);
        await ws.db.query(`DELETE FROM ${ws.db.table('rtcopy')}`);
        for (const [i, r] of generated.entries()) {
          const created = await ws.call('POST', ws.records('/rtsource'), { body: { id: i + 1, ...r } });
          expect(created.status, JSON.stringify([r, created.body])).toBe(201);
        }
        const csv = await exported('rtsource', 'csv');
        const done = doneOf(await importFile(ws, copyView, csv));
        expect(done, csv).toMatchObject({ totalCount: generated.length, successCount: generated.length, failureCount: 0 });
        expect(await exported('rtcopy', 'ndjson'), csv).toBe(await exported('rtsource', 'ndjson'));
        // JSON numbers are doubles: a DECIMAL(18,4) of 18 digits compares equal when one digit
        // was lost. The database's own digits must match too.
        expect(await decimals('rtcopy'), csv).toEqual(await decimals('rtsource'));
      }),
      { numRuns: 20 },
    );
  }, 300_000);
});
