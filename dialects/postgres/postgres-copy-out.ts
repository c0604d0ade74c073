/**
 * `COPY … TO STDOUT` read straight off pg's connection, as pg-copy-streams does (a pg
 * "submittable" that takes the socket from pg's parser until CopyDone, then gives it back), but
 * without a Buffer per row: each socket chunk's CopyData payloads are moved together inside the
 * chunk itself (copyWithin) and the chunk goes on as one Buffer. pg-copy-streams 7.0.0 took a
 * slice of every row and joined them again: 1M slices per 1M-row export, which were a fifth of
 * the service's CPU in that export and most of its young-generation garbage.
 *
 * PostgreSQL sends one CopyData message per row (protocol, "COPY Operations": "always one per
 * row"), each ending with the record's LF. The export's COPY query ends every record with an
 * empty last cell (postgres-copy-sql.ts), so each payload ends `,\n`: the comma becomes the CR of
 * the CRLF the row path writes, in place, without a byte more.
 */
import type { Socket } from 'node:net';
import { Readable } from 'node:stream';
import type pg from 'pg';
import { READ_SIZE, setReadSink, type ReadSink } from './read-sink-socket.ts';

const COPY_DATA = 0x64; // 'd'
const COPY_DONE = 0x63; // 'c'
const ERROR_RESPONSE = 0x45; // 'E'
const COMMA = 0x2c;
const LF = 0x0a;
const CR = 0x0d;
/** A message's type byte and its length (which counts itself, not the type byte). */
const HEADER = 5;

type DataHandler = (data: Buffer) => void;

/** Free buffers kept for reuse: more are in use at once only while the consumer falls behind. */
const POOL_FREE = 8;

/**
 * The buffers the socket reads into while COPY holds it (pg's socket from read-sink-socket.ts).
 * A buffer goes back to the pool when the chunk made of it has been written out (`recycle`) or
 * when no row of it was passed on, so an export reads into a handful of buffers instead of a new
 * 64 KB one per read.
 */
class ReadPool {
  private readonly free: ArrayBuffer[] = [];
  private readonly mine = new WeakSet<ArrayBuffer>();

  take(): Buffer {
    const memory = this.free.pop() ?? this.fresh();
    return Buffer.from(memory);
  }

  owns(bytes: Uint8Array): boolean {
    return this.mine.has(bytes.buffer as ArrayBuffer);
  }

  /** A buffer of the pool holding `bytes` (the first read of a COPY lands in the socket's own). */
  copy(bytes: Buffer): Buffer {
    const target = this.take();
    bytes.copy(target);
    return target.subarray(0, bytes.length);
  }

  /** `bytes`' memory is free again; anything not the pool's (a plain socket's chunk, a concat) is left to the GC. */
  give(bytes: Uint8Array): void {
    if (this.owns(bytes) && this.free.length < POOL_FREE) this.free.push(bytes.buffer as ArrayBuffer);
  }

  private fresh(): ArrayBuffer {
    const memory = new ArrayBuffer(READ_SIZE);
    this.mine.add(memory);
    return memory;
  }
}

/** A chunk's rows [0, rows), then `have` of the `payload` bytes of the row the chunk cut. */
interface Held {
  readonly data: Buffer;
  readonly rows: number;
  readonly payload: number;
  have: number;
}

export class CopyCsvOut extends Readable implements pg.Submittable {
  private connection: pg.Connection | null = null;
  private pgHandler: DataHandler | null = null;
  /** The start of a message the previous socket chunk did not hold whole (a row's: `held`). */
  private pending: Buffer | null = null;
  private held: Held | null = null;
  private wanted = false;
  private pumping = false;
  /** Our socket's reads come to `sink`; null: a plain socket, read through 'readable'. */
  private sink: ReadSink | null = null;
  private readonly pool = new ReadPool();
  private readonly onReadable = (): void => this.pump();

  constructor(private readonly text: string) {
    // One chunk at a time (object mode): a byte stream joins the chunks it holds into a new
    // Buffer when read whole, and a chunk must reach the consumer as the pool's buffer.
    super({ objectMode: true, highWaterMark: 1 });
  }

  /** Called by pg when this query's turn comes. */
  submit(connection: pg.Connection): void {
    this.connection = connection;
    const socket = connection.stream;
    const sink: ReadSink = { buffer: () => this.pool.take(), read: (bytes) => this.readInto(bytes) };
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
   * The consumer is done with `chunk` (written out): its buffer may be read into again. Call it
   * before asking for the next chunk, or never (the buffer is then left to the GC).
   */
  recycle(chunk: Uint8Array): void {
    this.pool.give(chunk);
  }

  /** A read of our socket, in a pool buffer; false pauses the socket until `_read`. */
  private readInto(bytes: Buffer): boolean {
    if (this.destroyed) return false;
    try {
      this.parse(this.pool.owns(bytes) ? bytes : this.pool.copy(bytes));
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

  private parse(chunk: Buffer): void {
    let data = chunk;
    let read = 0;
    let write = 0;
    if (this.held) {
      read = this.fill(chunk);
      // All of `chunk` went into the held row.
      if (this.held) return this.pool.give(chunk);
    } else if (this.pending) {
      const pending = this.pending;
      this.pending = null;
      const row = this.rowAfterCutHeader(pending, chunk);
      if (row) ({ write, read } = row);
      else {
        data = Buffer.concat([pending, chunk]);
        this.pool.give(chunk);
      }
    }
    while (read + HEADER <= data.length) {
      const end = read + 1 + data.readUInt32BE(read + 1);
      if (end > data.length) break;
      const type = data[read];
      if (type === ERROR_RESPONSE) return this.detach(data, write, read, false);
      if (type === COPY_DONE) return this.detach(data, write, end, true);
      if (type === COPY_DATA) write = this.moveRow(data, read + HEADER, end, write);
      // CopyOutResponse, and the NoticeResponse/ParameterStatus a server may interleave: skipped.
      read = end;
    }
    if (read < data.length && this.hold(data, read, write)) return;
    // A copy: `data` goes back to the pool once its rows are written.
    if (read < data.length) this.pending = Buffer.from(data.subarray(read));
    this.pushRows(data, write);
  }

  /**
   * A row whose header the previous chunk cut (`pending`, under 5 bytes; ~5% of chunks): its
   * payload is all in `chunk`, so it moves to the chunk's start, and the chunk stays the pool's
   * buffer instead of a new one joining the two. Null (join them) for anything else.
   */
  private rowAfterCutHeader(pending: Buffer, chunk: Buffer): { write: number; read: number } | null {
    const rest = HEADER - pending.length;
    if (rest <= 0 || pending[0] !== COPY_DATA || chunk.length < rest) return null;
    const length = Buffer.concat([pending, chunk.subarray(0, rest)]).readUInt32BE(1);
    const end = rest + length - 4;
    if (end > chunk.length) return null;
    return { write: this.moveRow(chunk, rest, end, 0), read: end };
  }

  /** The rows at the start of `data` passed on; without any, `data` is free at once. */
  private pushRows(data: Buffer, end: number): void {
    if (end > 0) this.wanted = this.push(data.subarray(0, end));
    else this.pool.give(data);
  }

  /**
   * A row cut by the chunk's end (nearly every chunk): its first bytes are moved behind the
   * chunk's rows, and the chunk is held until the next one completes the row in the room the
   * dropped message headers left (5 bytes a row). Joining the cut row's start with the next chunk
   * (Buffer.concat) copied every chunk once more: up to a fifth of the service's CPU in profiles.
   * False when the cut message is not a row or there is no room for the rest of it.
   */
  private hold(data: Buffer, read: number, write: number): boolean {
    if (read + HEADER > data.length || data[read] !== COPY_DATA) return false;
    const payload = data.readUInt32BE(read + 1) - 4;
    if (write + payload > data.length) return false;
    data.copyWithin(write, read + HEADER);
    this.held = { data, rows: write, payload, have: data.length - read - HEADER };
    return true;
  }

  /** The held row completed from the start of `chunk`, and the held rows passed on; the bytes of `chunk` it took. */
  private fill(chunk: Buffer): number {
    const held = this.held as Held;
    const taken = Math.min(held.payload - held.have, chunk.length);
    chunk.copy(held.data, held.rows + held.have, 0, taken);
    held.have += taken;
    if (held.have < held.payload) return taken;
    this.held = null;
    this.pushRows(held.data, this.moveRow(held.data, held.rows, held.rows + held.payload, held.rows));
    return taken;
  }

  /** One row's payload moved to `write`, its `,\n` turned into CRLF; the next write position. */
  private moveRow(data: Buffer, from: number, to: number, write: number): number {
    if (to - from < 2 || data[to - 1] !== LF || data[to - 2] !== COMMA) throw new Error('COPY: a row does not end with its empty last cell');
    data[to - 2] = CR;
    if (write !== from) data.copyWithin(write, from, to);
    return write + to - from;
  }

  /** The socket back to pg with the bytes after `rest`: CommandComplete and ReadyForQuery, or the ErrorResponse. */
  private detach(data: Buffer, write: number, rest: number, done: boolean): void {
    const connection = this.connection;
    if (!connection) return;
    this.connection = null;
    // A copy: pg's parser keeps what it is given, and `data` goes back to the pool.
    const after = Buffer.from(data.subarray(rest));
    this.pushRows(data, write);
    if (done) this.push(null);
    if (this.sink) this.giveBackSink(connection.stream as Socket, after);
    else this.giveBackSocket(connection.stream as Socket, after);
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
