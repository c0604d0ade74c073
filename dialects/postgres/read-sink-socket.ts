/**
 * pg's socket, made by us (pg's `stream` option) so that it reads into one buffer of its own. A
 * plain net.Socket reads every chunk into a new 64 KB ArrayBuffer, freed only when V8 collects;
 * the COPY export allocates so few JS objects that collections are rare, and the dead chunks of a
 * 1M-row export piled up to ~30 MB before V8's external-memory limit forced one (docs/export.md,
 * "Export memory, third pass").
 *
 * The socket reads into its buffer (net.Socket's `onread`). By default every read is copied out
 * and emitted as 'data', which is what pg's parser listens to, so pg sees what a plain socket gives
 * it (its parser keeps and even writes into the chunks it is given). A `ReadSink` set on the
 * socket (the COPY reader) instead takes each read in place, and must be done with its bytes when
 * it returns: the next read lands in the same memory. Pause and resume work as on a plain socket
 * (net.Socket stops and starts the handle).
 */
import { Socket, type OnReadOpts, type SocketConstructorOpts } from 'node:net';

/** The size of a read: libuv's own for a plain socket. */
export const READ_SIZE = 64 * 1024;

export interface ReadSink {
  /** `bytes` (a view of the socket's buffer, read into again after this returns) were read; false stops reading until `socket.resume()`. */
  read(bytes: Buffer): boolean;
}

const SINKS = new WeakMap<Socket, { set(sink: ReadSink | null): void }>();

/** A socket for pg whose reads a `ReadSink` can take (`setReadSink`). */
export function sinkSocket(): Socket {
  const own = Buffer.allocUnsafeSlow(READ_SIZE);
  let sink: ReadSink | null = null;
  const onread: OnReadOpts = {
    buffer: own,
    callback: (length, buffer) => {
      const bytes = Buffer.from(buffer.buffer, buffer.byteOffset, length);
      if (sink) return sink.read(bytes);
      // A copy of the read's length, as a plain socket hands over.
      socket.emit('data', Buffer.from(bytes));
      return true;
    },
  };
  // The constructor reads `onread` (net.js; @types/node lists it for connect() only).
  const socket = new Socket({ onread } as SocketConstructorOpts);
  SINKS.set(socket, { set: (next) => (sink = next) });
  return socket;
}

/**
 * pg's `stream` option (pg calls it with the connection's config, which @types/pg leaves out):
 * our socket, or a plain one when TLS wraps it (TLS reads the handle itself).
 */
export function pgStream(config?: { ssl?: unknown }): Socket {
  return config?.ssl ? new Socket() : sinkSocket();
}

/** Sends the socket's reads to `sink` (null: back to 'data'); false when the socket is not one of ours. */
export function setReadSink(socket: Socket, sink: ReadSink | null): boolean {
  const entry = SINKS.get(socket);
  entry?.set(sink);
  return entry !== undefined;
}
