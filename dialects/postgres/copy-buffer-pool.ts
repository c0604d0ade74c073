/**
 * The buffers a COPY export writes its records into (copy-records.ts). A buffer goes back to the
 * pool once the consumer has written its chunk out (CopyCsvOut.recycle), so an export cycles
 * through a handful of 64 KB buffers instead of a new one per chunk, each freed only by a GC
 * (docs/export.md, "Export memory, third pass").
 */
import { READ_SIZE } from './read-sink-socket.ts';

/** Free buffers kept for reuse: more are in use at once only while the consumer falls behind. */
const POOL_FREE = 8;

export class BufferPool {
  private readonly free: ArrayBuffer[] = [];
  private readonly mine = new WeakSet<ArrayBuffer>();

  /** A buffer of READ_SIZE bytes. */
  take(): Buffer {
    const memory = this.free.pop() ?? this.fresh();
    return Buffer.from(memory);
  }

  /** `bytes`' memory is free again; anything not the pool's (an outsized record) is left to the GC. */
  give(bytes: Uint8Array): void {
    const memory = bytes.buffer as ArrayBuffer;
    if (this.mine.has(memory) && this.free.length < POOL_FREE) this.free.push(memory);
  }

  private fresh(): ArrayBuffer {
    const memory = new ArrayBuffer(READ_SIZE);
    this.mine.add(memory);
    return memory;
  }
}
