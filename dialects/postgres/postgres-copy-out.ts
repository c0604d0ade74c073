/**
 * `COPY … TO STDOUT` read straight off pg's connection, as pg-copy-streams does (a pg
 * "submittable" that takes the socket from pg's parser until CopyDone, then gives it back), but
 * without a Buffer per row: each CopyData payload (PostgreSQL sends one per row: protocol, "COPY
 * Operations") goes to copy-records.ts, which writes the records, CRLF-ended and with timestamps
 * in the wire form, into a few reused buffers that go on whole. pg-copy-streams 7.0.0 took a
 * slice of every row and joined them again: 1M slices per 1M-row export, which were a fifth of
 * the service's CPU in that export and most of its young-generation garbage.
 *
 * Each read is parsed where the socket read it (read-sink-socket.ts), and nothing of it is kept:
 * records are copied out, and a message the read cut is carried into the next one in a buffer of
 * its own.
 */
import type { Socket } from 'node:net';
import { Readable } from 'node:stream';
import type pg from 'pg';
import { BufferPool } from './copy-buffer-pool.ts';
import { CsvRecords } from './copy-records.ts';
import { setReadSink, type ReadSink } from './read-sink-socket.ts';

const COPY_DATA = 0x64; // 'd'
const COPY_DONE = 0x63; // 'c'
const ERROR_RESPONSE = 0x45; // 'E'
/** A message's type byte and its length (which counts itself, not the type byte). */
const HEADER = 5;

type DataHandler = (data: Buffer) => void;

export class CopyCsvOut extends Readable implements pg.Submittable {
  private connection: pg.Connection | null = null;
  private pgHandler: DataHandler | null = null;
  /** The bytes so far of a message the previous read cut (its first `carried` bytes). */
  private carry = Buffer.allocUnsafe(0);
  private carried = 0;
  private wanted = false;
  private pumping = false;
  /** Our socket's reads come to `sink`; null: a plain socket, read through 'readable'. */
  private sink: ReadSink | null = null;
  private readonly pool = new BufferPool();
  private readonly records: CsvRecords;
  private readonly onReadable = (): void => this.pump();

  /** @param timestampCells the indexes of the cells that are timestamps, ascending (copy-records.ts) */
  constructor(
    private readonly text: string,
    timestampCells: readonly number[],
  ) {
    // One chunk at a time (object mode): a byte stream joins the chunks it holds into a new
    // Buffer when read whole, and a chunk must reach the consumer as the pool's buffer.
    super({ objectMode: true, highWaterMark: 1 });
    this.records = new CsvRecords(this.pool, timestampCells, (chunk) => {
      this.wanted = this.push(chunk);
    });
  }

  /** Called by pg when this query's turn comes. */
  submit(connection: pg.Connection): void {
    this.connection = connection;
    const socket = connection.stream;
    const sink: ReadSink = { read: (bytes) => this.readInto(bytes) };
    if (setReadSink(socket as Socket, sink)) {
      this.sink = sink;
      connection.query(this.text);
      return;
    }
    const handlers = socket.listeners('data') as DataHandler[];
    const handler = handlers[0];
    if (handlers.length !== 1 || !handler) throw new Error('COPY: pg connection not in the expected state');
    this.pgHandler = handler;
    socket.removeListener('data', handler);
    socket.pause();
    socket.on('readable', this.onReadable);
    connection.query(this.text);
  }

  override _read(): void {
    this.wanted = true;
    // read(0) starts a stopped handle at once (net.Socket.read); resume() would start it again
    // on the next tick too, after a read may have stopped it, and the socket would read ahead.
    if (this.sink) this.connection?.stream.read(0);
    else this.pump();
  }

  /**
   * The consumer is done with `chunk` (written out): its buffer may be written into again. Call
   * it before asking for the next chunk, or never (the buffer is then left to the GC).
   */
  recycle(chunk: Uint8Array): void {
    this.pool.give(chunk);
  }

  /** A read of our socket; false pauses the socket until `_read`. */
  private readInto(bytes: Buffer): boolean {
    if (this.destroyed) return false;
    try {
      this.parse(bytes);
    } catch (error) {
      this.destroy(error as Error);
      return false;
    }
    return this.wanted || this.connection === null;
  }

  /** pg reports an ErrorResponse (handed back to it by `detach`) or a broken connection. */
  handleError(error: Error): void {
    this.destroy(error);
  }

  handleCommandComplete(): void {}

  handleReadyForQuery(): void {}

  private pump(): void {
    const socket = this.connection?.stream;
    if (this.pumping || !socket) return;
    this.pumping = true;
    let chunk: Buffer | null;
    try {
      while (this.wanted && this.connection && (chunk = socket.read() as Buffer | null) !== null) this.parse(chunk);
    } catch (error) {
      // Thrown in the socket's event: the stream fails instead of the process.
      this.destroy(error as Error);
    }
    this.pumping = false;
  }

  /** One read: its messages handled, a cut one carried, its records sent on. */
  private parse(chunk: Buffer): void {
    let read = this.carried > 0 ? this.completeCarried(chunk) : 0;
    while (read >= 0 && this.connection !== null && read + HEADER <= chunk.length) {
      const end = read + 1 + chunk.readUInt32BE(read + 1);
      if (end > chunk.length) break;
      const type = chunk[read];
      if (type === COPY_DATA) this.records.write(chunk, read + HEADER, end);
      else if (type === COPY_DONE || type === ERROR_RESPONSE) {
        this.detach(chunk.subarray(type === COPY_DONE ? end : read), type === COPY_DONE);
        break;
      }
      // CopyOutResponse, and the NoticeResponse/ParameterStatus a server may interleave: skipped.
      read = end;
    }
    if (read >= 0 && this.connection !== null && read < chunk.length) this.keep(chunk, read, chunk.length);
    this.records.flush();
  }

  /**
   * The carried message completed from the start of `chunk` and handled; the bytes of `chunk`
   * it took, or -1 when `chunk` did not complete it (or handed the socket back).
   */
  private completeCarried(chunk: Buffer): number {
    let taken = this.keep(chunk, 0, Math.min(chunk.length, Math.max(0, HEADER - this.carried)));
    if (this.carried < HEADER) return -1;
    const length = 1 + this.carry.readUInt32BE(1);
    taken += this.keep(chunk, taken, Math.min(chunk.length, taken + length - this.carried));
    if (this.carried < length) return -1;
    this.carried = 0;
    const type = this.carry[0];
    if (type === COPY_DATA) this.records.write(this.carry, HEADER, length);
    else if (type === COPY_DONE) this.detach(chunk.subarray(taken), true);
    else if (type === ERROR_RESPONSE) this.detach(Buffer.concat([this.carry.subarray(0, length), chunk.subarray(taken)]), false);
    return this.connection === null ? -1 : taken;
  }

  /** chunk[from, to) added to the carried message; the bytes added. */
  private keep(chunk: Buffer, from: number, to: number): number {
    const need = this.carried + to - from;
    if (need > this.carry.length) {
      const larger = Buffer.allocUnsafe(Math.max(need, 2 * this.carry.length, 1024));
      this.carry.copy(larger, 0, 0, this.carried);
      this.carry = larger;
    }
    chunk.copy(this.carry, this.carried, from, to);
    this.carried = need;
    return to - from;
  }

  /** The socket back to pg with `after`: CommandComplete and ReadyForQuery, or the ErrorResponse. */
  private detach(after: Buffer, done: boolean): void {
    const connection = this.connection;
    if (!connection) return;
    this.connection = null;
    // A copy: pg's parser keeps what it is given, and the socket reads into the same memory again.
    const rest = Buffer.from(after);
    this.records.flush();
    if (done) this.push(null);
    if (this.sink) this.giveBackSink(connection.stream as Socket, rest);
    else this.giveBackSocket(connection.stream as Socket, rest);
  }

  /** Our socket: its reads go to pg's 'data' listener again, which never left. */
  private giveBackSink(socket: Socket, after: Buffer): void {
    setReadSink(socket, null);
    this.sink = null;
    socket.emit('data', after);
  }

  private giveBackSocket(socket: Socket, after: Buffer): void {
    const handler = this.pgHandler;
    if (!handler) return;
    this.pgHandler = null;
    socket.removeListener('readable', this.onReadable);
    socket.on('data', handler);
    handler(after);
    // As pg-copy-streams: the 'data' listener alone may not resume a stream paused in readable mode.
    process.nextTick(() => socket.resume());
  }
}
