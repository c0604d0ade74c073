/**
 * `POST /api/views/{uuid}/formula-check` (the admin application's formula editor): gates 1 and 2
 * as saving a computed column runs them, nothing saved, and the values on the first rows.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORDERS } from '../support/fixture.ts';
import { startWorkspace, type TestWorkspace } from '../support/harness.ts';
import { vendorsToRun } from '../support/vendors.ts';

const vendors = await vendorsToRun();

describe.each(vendors)('formula check on $name', (target) => {
  let ws: TestWorkspace;
  let view: string;
  beforeAll(async () => {
    ws = await startWorkspace(target);
    const views = await ws.call('GET', ws.admin('/views'));
    view = views.body.data.find((v: { entity: string; isDefault: boolean }) => v.entity === 'orders' && v.isDefault).uuid;
  });
  afterAll(async () => ws?.close());

  const check = (body: unknown, token?: string | null) => ws.call('POST', `/api/views/${view}/formula-check`, { body, ...(token !== undefined ? { token } : {}) });

  it('answers the canonical formula, its type and the values of the first rows, in id order', async () => {
    const res = await check({ formula: 'quantity  *  2', previewRows: 3 });
    expect(res.status).toBe(200);
    const expected = [...ORDERS].sort((a, b) => Number(a.id) - Number(b.id)).slice(0, 3).map((o) => ({ id: o.id, value: Number(o.quantity) * 2 }));
    expect(res.body.data).toEqual({ formula: 'quantity * 2', type: 'number', preview: expected });
  });

  it('previews each formula by its own values, one check after another', async () => {
    const first = [...ORDERS].sort((a, b) => Number(a.id) - Number(b.id)).slice(0, 3);
    const doubled = await check({ formula: 'quantity * 3', previewRows: 3 });
    expect(doubled.body.data.preview).toEqual(first.map((o) => ({ id: o.id, value: Number(o.quantity) * 3 })));
    const upper = await check({ formula: 'UPPER(status)', previewRows: 3 });
    expect(upper.body.data).toEqual({ formula: 'UPPER(status)', type: 'text', preview: first.map((o) => ({ id: o.id, value: String(o.status).toUpperCase() })) });
  });

  it('saves nothing', async () => {
    await check({ formula: 'quantity * 2' });
    const columns = await ws.call('GET', `/api/views/${view}/columns`);
    expect(columns.body.data.filter((c: { kind: string }) => c.kind === 'COMPUTED')).toEqual([]);
  });

  it('a gate-1 or checker refusal is INVALID_FORMULA with its position', async () => {
    const res = await check({ formula: "quantity + 'x'" });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'INVALID_FORMULA', details: { position: { offset: 11, line: 1, column: 12 }, reason: 'type_mismatch' } });
  });

  it('bad payloads and other credentials are refused', async () => {
    expect((await check({})).body.error.code).toBe('VALIDATION_FAILED');
    expect((await check({ formula: 'id', previewRows: 101 })).body.error.code).toBe('VALIDATION_FAILED');
    expect((await check({ formula: 'id', extra: 1 })).body.error.code).toBe('VALIDATION_FAILED');
    expect((await check({ formula: 'id' }, null)).status).toBe(401);
  });
});
