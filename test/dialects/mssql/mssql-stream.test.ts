/**
 * The SQL Server export stream (Driver.stream, DESIGN §14) without a server: a stand-in for
 * mssql's streaming Request emits rows; the driver pauses it at each full batch, resumes when the
 * batch is taken, normalises uuids, and cancels the request when the consumer leaves early.
 */
import { EventEmitter } from 'node:events';
import sql from 'mssql';
import { describe, expect, it } from 'vitest';
import { streamRows } from '../../../dialects/mssql/mssql-driver.ts';

class FakeRequest extends EventEmitter {
  stream = false;
  paused = 0;
  resumed = 0;
  cancelled = false;
  inputs: unknown[] = [];
  text = '';

  input(_name: string, _type: unknown, value: unknown): void {
    this.inputs.push(value);
  }
  pause(): void {
    this.paused++;
  }
  resume(): void {
    this.resumed++;
  }
  cancel(): void {
    this.cancelled = true;
  }
  query(text: string): this {
    this.text = text;
    return this;
  }

  /** Plays a result: its columns, the rows (one per tick), then done. */
  async play(rows: number, fail?: Error): Promise<void> {
    this.emit('recordset', { u: { name: 'u', type: sql.UniqueIdentifier } });
    for (let i = 1; i <= rows; i++) {
      await new Promise((resolve) => setImmediate(resolve));
      this.emit('row', { id: i, u: 'ABC-DEF' });
    }
    if (fail) this.emit('error', fail);
    this.emit('done', {});
  }
}

const STATEMENT = { text: 'SELECT 1 WHERE x = @p1', params: ['v'] };

describe('mssql stream', () => {
  it('streams in batches with pause/resume, binds parameters and lowers uuids', async () => {
    const request = new FakeRequest();
    const batches: unknown[][] = [];
    const reading = (async () => {
      for await (const batch of streamRows(request as unknown as sql.Request, STATEMENT, 2)) batches.push(batch);
    })();
    await request.play(5);
    await reading;
    expect(request.stream).toBe(true);
    expect(request.inputs).toEqual(['v']);
    expect(batches.map((b) => b.map((r) => (r as { id: number }).id))).toEqual([[1, 2], [3, 4], [5]]);
    expect((batches[0]?.[0] as { u: string }).u).toBe('abc-def');
    expect(request.paused).toBeGreaterThan(0);
    expect(request.resumed).toBeGreaterThan(0);
    expect(request.cancelled).toBe(false);
  });

  it('a consumer leaving early cancels the request', async () => {
    const request = new FakeRequest();
    const iterator = streamRows(request as unknown as sql.Request, STATEMENT, 2)[Symbol.asyncIterator]();
    const first = iterator.next();
    void request.play(10);
    expect((await first).value).toHaveLength(2);
    await iterator.return?.();
    expect(request.cancelled).toBe(true);
  });

  it('an error ends the stream with that error', async () => {
    const request = new FakeRequest();
    const reading = (async () => {
      for await (const _batch of streamRows(request as unknown as sql.Request, STATEMENT, 100)) void _batch;
    })();
    await request.play(3, new Error('deadlock'));
    await expect(reading).rejects.toThrow('deadlock');
  });
});
