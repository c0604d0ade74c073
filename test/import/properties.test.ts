/**
 * Property (STYLE "comparison with a simpler model"): for random mixes of valid, invalid and
 * colliding rows, in every onConflict mode and across batch boundaries, the counts add up
 * (success + failure + skipped = total) and the table holds exactly what an in-memory model of
 * the batches says it should.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorkspace, type TestWorkspace } from '../support/harness.ts';
import { vendorsToRun } from '../support/vendors.ts';
import { doneOf, importFile, serialId, sync, viewUuidOf } from '../support/import-calls.ts';

const vendors = await vendorsToRun();
const BATCH = 500;

type Spec =
  | { kind: 'new'; key: number; qty: number }
  | { kind: 'existing'; key: number; qty: number }
  | { kind: 'badQty' }
  | { kind: 'noCode'; qty: number }
  | { kind: 'longCode'; qty: number }
  | { kind: 'ragged' };

type Mode = 'ERROR' | 'IGNORE' | 'UPDATE';

const qty = fc.integer({ min: 0, max: 1000 });
const spec: fc.Arbitrary<Spec> = fc.oneof(
  { weight: 12, arbitrary: fc.record({ kind: fc.constant('new' as const), key: fc.integer({ min: 0, max: 40 }), qty }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('existing' as const), key: fc.integer({ min: 0, max: 3 }), qty }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'badQty' as const }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('noCode' as const), qty }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('longCode' as const), qty }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'ragged' as const }) },
);
const specs = fc.oneof(fc.array(spec, { minLength: 1, maxLength: 40 }), fc.array(spec, { minLength: 501, maxLength: 1100 }));

function codeOf(s: Spec, prefix: string): string | null {
  if (s.kind === 'new') return `${prefix}n${s.key}`;
  if (s.kind === 'existing') return `${prefix}e${s.key}`;
  return null;
}

function csvLine(s: Spec, prefix: string): string {
  switch (s.kind) {
    case 'new':
    case 'existing':
      return `${codeOf(s, prefix)},${s.qty}`;
    case 'badQty':
      return `${prefix}bad,x`;
    case 'noCode':
      return `,${s.qty}`;
    case 'longCode':
      return `${'L'.repeat(11)},${s.qty}`;
    case 'ragged':
      return `${prefix}rag`;
  }
}

interface Outcome {
  successCount: number;
  failureCount: number;
  skippedCount: number;
  table: Map<string, number>;
}

/** The batches as the service should see them: row failures, then per-mode database behaviour. */
function model(rows: readonly Spec[], mode: Mode, prefix: string, existing: Map<string, number>): Outcome {
  const table = new Map(existing);
  const out: Outcome = { successCount: 0, failureCount: 0, skippedCount: 0, table };
  for (let start = 0; start < rows.length; start += BATCH) {
    const batch = rows.slice(start, start + BATCH);
    const valid = batch.flatMap((s) => (s.kind === 'new' || s.kind === 'existing' ? [{ code: codeOf(s, prefix) ?? '', qty: s.qty }] : []));
    const invalid = batch.length - valid.length;
    if (mode === 'ERROR') {
      const codes = valid.map((v) => v.code);
      if (codes.some((c) => table.has(c)) || new Set(codes).size !== codes.length) {
        out.failureCount += batch.length;
        continue;
      }
      for (const v of valid) table.set(v.code, v.qty);
      out.successCount += valid.length;
      out.failureCount += invalid;
      continue;
    }
    const last = new Map<string, number>();
    for (const v of valid) last.set(v.code, v.qty);
    out.skippedCount += valid.length - last.size;
    out.failureCount += invalid;
    for (const [code, value] of last) {
      if (mode === 'IGNORE' && table.has(code)) {
        out.skippedCount++;
        continue;
      }
      table.set(code, value);
      out.successCount++;
    }
  }
  return out;
}

describe.each(vendors)('import counts and table contents on $name', (target) => {
  let ws: TestWorkspace;
  let stock: string;
  let run = 0;

  beforeAll(async () => {
    ws = await startWorkspace(target, { fixture: false });
    await ws.db.query(`CREATE TABLE ${ws.db.table('stock')} (${serialId(ws)}, code varchar(10) NOT NULL UNIQUE, qty integer NOT NULL)`);
    await sync(ws);
    stock = await viewUuidOf(ws, 'stock');
  });
  afterAll(async () => ws?.close());

  it('success + failure + skipped = total, and the table holds exactly what the result claims', async () => {
    await fc.assert(
      fc.asyncProperty(specs, fc.constantFrom<Mode>('ERROR', 'IGNORE', 'UPDATE'), async (rows, mode) => {
        const prefix = `r${++run}`;
        const existing = new Map([0, 1, 2, 3].map((k) => [`${prefix}e${k}`, k] as [string, number]));
        await ws.db.query(`INSERT INTO ${ws.db.table('stock')} (code, qty) VALUES ${[...existing].map(([c, q]) => `('${c}', ${q})`).join(', ')}`);
        const csv = `code,qty\n${rows.map((s) => csvLine(s, prefix)).join('\n')}\n`;
        const done = doneOf(await importFile(ws, stock, csv, { query: { onConflict: mode, conflictColumns: 'code' } }));
        const expected = model(rows, mode, prefix, existing);
        expect(done.totalCount).toBe(rows.length);
        expect(done.successCount + done.failureCount + done.skippedCount).toBe(done.totalCount);
        expect({ success: done.successCount, failure: done.failureCount, skipped: done.skippedCount }).toEqual({
          success: expected.successCount, failure: expected.failureCount, skipped: expected.skippedCount,
        });
        const stored = await ws.db.query(`SELECT code, qty FROM ${ws.db.table('stock')} WHERE code LIKE '${prefix}n%' OR code LIKE '${prefix}e%'`);
        const actual = new Map(stored.map((r) => [String(r.code), Number(r.qty)]));
        expect(actual).toEqual(expected.table);
      }),
      { numRuns: 12 },
    );
  }, 120_000);
});
