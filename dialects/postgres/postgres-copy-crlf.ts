/**
 * COPY … (FORMAT csv) ends records with LF; the export writes CRLF (DESIGN §14). The COPY query
 * ends every record with an empty last cell (postgres-copy-sql.ts), so each record ends `,\n`:
 * the comma becomes the CR, in place, without copying a byte. An LF inside a quoted cell is data
 * and stays; a cell's quotes are always paired (`""` inside one toggles twice), so counting them
 * tells which LF ends a record. A record may be split across chunks, so each chunk is held until
 * the next one arrives (its last byte may be the comma of the next chunk's first LF).
 */
const QUOTE = 0x22;
const COMMA = 0x2c;
const LF = 0x0a;
const CR = 0x0d;

export class CrlfRecords {
  private quoted = false;
  private held: Uint8Array | null = null;

  /** Takes the next chunk of COPY output; gives back the chunk before it, now final (or null). */
  push(chunk: Uint8Array): Uint8Array | null {
    if (chunk.length === 0) return null;
    this.scan(chunk);
    const done = this.held;
    this.held = chunk;
    return done;
  }

  /** The last chunk, once COPY has ended. */
  end(): Uint8Array | null {
    if (this.quoted) throw new Error('COPY output ended inside a quoted cell');
    const done = this.held;
    this.held = null;
    return done;
  }

  /**
   * Buffer.indexOf (memchr) finds the next quote and LF; a chunk with no quote costs one search
   * per record. Outside quotes the next quote is searched again only once passed.
   */
  private scan(chunk: Uint8Array): void {
    const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length);
    let quoted = this.quoted;
    let at = 0;
    let quote = -2;
    while (at < bytes.length) {
      if (quoted) {
        const close = bytes.indexOf(QUOTE, at);
        if (close < 0) break;
        quoted = false;
        at = close + 1;
        continue;
      }
      if (quote !== -1 && quote < at) quote = bytes.indexOf(QUOTE, at);
      const lf = bytes.indexOf(LF, at);
      if (quote !== -1 && (lf === -1 || quote < lf)) {
        quoted = true;
        at = quote + 1;
      } else if (lf !== -1) {
        this.recordEnd(bytes, lf);
        at = lf + 1;
      } else break;
    }
    this.quoted = quoted;
  }

  private recordEnd(chunk: Uint8Array, lf: number): void {
    const [bytes, at] = lf > 0 ? [chunk, lf - 1] : [this.held, (this.held?.length ?? 0) - 1];
    if (!bytes || bytes[at] !== COMMA) throw new Error('COPY output: a record does not end with its empty last cell');
    bytes[at] = CR;
  }
}
