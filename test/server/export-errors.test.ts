/**
 * DESIGN §14 "Export": an error after the first bytes ends NDJSON with an error line and resets a
 * CSV connection; an error before them is a plain JSON error. The writer is driven by a made-up
 * export whose second batch fails (a real database cannot be made to fail on cue mid-stream).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../core/errors.ts';
import type { JsonRecord } from '../../core/query/assemble.ts';
import type { RecordExport } from '../../core/query/export.ts';
import type { Cell } from '../../core/query/export-cells.ts';
import { sendExport, type ExportResponse } from '../../server/routes/export.ts';
import { serveKoa, type LoopbackServer } from '../support/koa-server.ts';

async function* failing<T>(failAt: number, row: (i: number) => T): AsyncGenerator<T[], void, undefined> {
  for (let i = 0; ; i++) {
    if (i === failAt) throw new ApiError('BAD_REQUEST', 'division by zero in where');
    yield [row(i)];
  }
}

function fakeExport<T>(failAt: number, row: (i: number) => T): RecordExport<T> {
  return { entity: 'things', columns: [{ path: [], key: 'id', type: 'integer', entity: 'things' }, { path: [], key: 'name', type: 'text', entity: 'things' }], batches: failing(failAt, row) };
}

function fakeResponse(format: string, failAt: number): ExportResponse {
  if (format === 'csv') return { format, exported: fakeExport<Cell[]>(failAt, (i) => [String(i), `row ${i}`]), header: ['id', 'name'] };
  return { format: 'ndjson', exported: fakeExport<JsonRecord>(failAt, (i) => ({ id: i, name: `row ${i}` })) };
}

describe('export errors', () => {
  let server: LoopbackServer;
  let url: string;

  beforeAll(async () => {
    server = await serveKoa(async (ctx) => {
      try {
        await sendExport(ctx, fakeResponse(String(ctx.query.format), Number(ctx.query.failAt)));
      } catch (error) {
        ctx.status = 400;
        ctx.body = { error: { code: (error as ApiError).code } };
      }
    });
    url = server.url;
  });
  afterAll(() => server.close());

  it('NDJSON ends with a final error line after the rows already sent', async () => {
    const response = await fetch(`${url}/?format=ndjson&failAt=2`);
    expect(response.status).toBe(200);
    const lines = (await response.text()).split('\n').filter((l) => l !== '').map((l) => JSON.parse(l));
    expect(lines).toEqual([{ id: 0, name: 'row 0' }, { id: 1, name: 'row 1' }, { event: 'error', code: 'BAD_REQUEST', message: 'division by zero in where' }]);
  });

  it('CSV resets the connection: the client never gets a whole-looking file', async () => {
    const response = await fetch(`${url}/?format=csv&failAt=2`);
    expect(response.status).toBe(200);
    await expect(response.text()).rejects.toThrow();
  });

  it('an error in the first batch is an ordinary error response', async () => {
    const response = await fetch(`${url}/?format=csv&failAt=0`);
    expect(response.status).toBe(400);
  });
});
