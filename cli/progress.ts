/** A one-line progress bar on stderr: bytes sent, batches, rows/s, errors. Redrawn at most 10 times a second. */
const WIDTH = 30;

export class ProgressBar {
  private bytes = 0;
  private batches = 0;
  private rows = 0;
  private errors = 0;
  private readonly started = Date.now();
  private drawnAt = 0;
  private readonly tty = process.stderr.isTTY === true;

  constructor(private readonly totalBytes: number) {}

  sent(bytes: number): void {
    this.bytes += bytes;
    this.draw(false);
  }

  progress(event: { batchesDone: number; rowsRead: number; errorCount: number }): void {
    this.batches = event.batchesDone;
    this.rows = event.rowsRead;
    this.errors = event.errorCount;
    this.draw(false);
  }

  finish(): void {
    this.draw(true);
    if (this.tty) process.stderr.write('\n');
  }

  private draw(force: boolean): void {
    const now = Date.now();
    if (!force && now - this.drawnAt < (this.tty ? 100 : 2000)) return;
    this.drawnAt = now;
    const share = this.totalBytes > 0 ? Math.min(1, this.bytes / this.totalBytes) : 1;
    const filled = Math.round(share * WIDTH);
    const seconds = Math.max(0.001, (now - this.started) / 1000);
    const rate = Math.round(this.rows / seconds);
    const line = `[${'#'.repeat(filled)}${'-'.repeat(WIDTH - filled)}] ${(share * 100).toFixed(0).padStart(3)}%  batches ${this.batches}  rows ${this.rows}  ${rate} rows/s  errors ${this.errors}`;
    process.stderr.write(this.tty ? `\r${line}\u001b[K` : `${line}\n`);
  }
}
