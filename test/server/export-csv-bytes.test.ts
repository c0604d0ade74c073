/**
 * DESIGN §14 "exact answers", CSV: the bytes the writer puts out for cells a database can hold
 * (null, "", separators, quotes, line breaks, spaces, formulas, U+FEFF), with no database: a
 * made-up export of one batch, written by the route's `sendExport`.
 */
import type { AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:http';
import Koa from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cell } from '../../core/query/export-cells.ts';
import { sendExport } from '../../server/routes/export.ts';

const CELLS: Cell[] = [null, '', 'plain', 'a,b', 'say "hi"', 'line\nbreak', 'cr\ronly', 'crlf\r\nend', ' padded ', ' ', '=1+2', '-1', '\uFEFFbom', 'Ωmega 東京'];

async function* oneBatch(): AsyncGenerator<Cell[][], void, undefined> {
  yield [CELLS, CELLS.map((c) => (c === null ? '' : null))];
}

describe('CSV bytes', () => {
  let server: Server;
  let url: string;

  beforeAll(async () => {
    const app = new Koa();
    app.use(async (ctx) => {
      const columns = CELLS.map((_, i) => ({ path: [], key: `c${i}`, type: 'text' as const, entity: 'things' }));
      await sendExport(ctx, { format: 'csv', exported: { entity: 'things', columns, batches: oneBatch() }, header: columns.map((c) => c.key) });
    });
    server = createServer(app.callback());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('null is empty, "" is quoted, separators, quotes and any line break are quoted, the rest as it is; rows end with CRLF', async () => {
    const text = await (await fetch(url)).text();
    const header = CELLS.map((_, i) => `c${i}`).join(',');
    const first = [
      '',
      '""',
      'plain',
      '"a,b"',
      '"say ""hi"""',
      '"line\nbreak"',
      '"cr\ronly"',
      '"crlf\r\nend"',
      ' padded ',
      ' ',
      '=1+2',
      '-1',
      '\uFEFFbom',
      'Ωmega 東京',
    ].join(',');
    const second = ['""', ...CELLS.slice(1).map(() => '')].join(',');
    expect(text).toBe(`${header}\r\n${first}\r\n${second}\r\n`);
  });
});
