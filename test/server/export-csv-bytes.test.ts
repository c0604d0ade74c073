/**
 * DESIGN §14 "exact answers", CSV: the bytes the writer puts out for cells a database can hold
 * (null, "", separators, quotes, line breaks, spaces, formulas, U+FEFF), with no database: a
 * made-up export of one batch, written by the route's `sendExport`. Then the database's own CSV
 * (Driver.csvCopy), whose chunks share memory the reader fills again once the next is asked for,
 * reaching a slow client intact.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cell } from '../../core/query/export-cells.ts';
import { sendExport } from '../../server/routes/export.ts';
import { serveKoa, type LoopbackServer } from '../support/koa-server.ts';

const CELLS: Cell[] = [null, '', 'plain', 'a,b', 'say "hi"', 'line\nbreak', 'cr\ronly', 'crlf\r\nend', ' padded ', ' ', '=1+2', '-1', '\uFEFFbom', 'Ωmega 東京'];

async function* oneBatch(): AsyncGenerator<Cell[][], void, undefined> {
  yield [CELLS, CELLS.map((c) => (c === null ? '' : null))];
}

describe('CSV bytes', () => {
  let server: LoopbackServer;
  let url: string;

  beforeAll(async () => {
    server = await serveKoa(async (ctx) => {
      const columns = CELLS.map((_, i) => ({ path: [], key: `c${i}`, type: 'text' as const, entity: 'things' }));
      await sendExport(ctx, { format: 'csv', exported: { entity: 'things', columns, batches: oneBatch() }, header: columns.map((c) => c.key) });
    });
    url = server.url;
  });
  afterAll(() => server.close());

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

/** CHUNKS chunks of 64 KB, all in one buffer filled again for each (as the COPY reader reuses its buffers). */
const CHUNKS = 120;
const chunkText = (i: number): string => `${i},${'abcdefghij'[i % 10]!.repeat(64 * 1024 - String(i).length - 3)}\r\n`;

async function* reusedChunks(): AsyncGenerator<Uint8Array, void, undefined> {
  const memory = Buffer.alloc(64 * 1024);
  for (let i = 0; i < CHUNKS; i++) {
    memory.write(chunkText(i), 'latin1');
    yield memory;
  }
}

/** The body read with a pause after every chunk, so the server's socket backs up and its writes wait. */
function slowBody(url: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request(url, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (chunk: Buffer) => {
        parts.push(chunk);
        res.pause();
        setTimeout(() => res.resume(), 1);
      });
      res.on('end', () => resolve(Buffer.concat(parts).toString('latin1')));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('CSV bytes written by the database', () => {
  let server: LoopbackServer;
  let url: string;

  beforeAll(async () => {
    server = await serveKoa(async (ctx) => {
      const columns = [{ path: [], key: 'id', type: 'integer' as const, entity: 'things' }, { path: [], key: 'pad', type: 'text' as const, entity: 'things' }];
      await sendExport(ctx, { format: 'csv', exported: { entity: 'things', columns, chunks: reusedChunks() }, header: ['id', 'pad'] });
    });
    url = server.url;
  });
  afterAll(() => server.close());

  it('reach a slow client intact: the next chunk is asked for only once the socket took the last', async () => {
    const expected = ['id,pad\r\n', ...Array.from({ length: CHUNKS }, (_, i) => chunkText(i))].join('');
    const body = await slowBody(url);
    expect(body.length).toBe(expected.length);
    expect(body === expected).toBe(true);
  });
});
