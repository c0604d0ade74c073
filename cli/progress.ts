/**
 * A one-line progress bar on stderr that measures rows the service has PROCESSED (its `progress`
 * events), not bytes sent: the upload runs far ahead of the import, so a byte bar said 100 % when
 * less than half the rows were in. The total is estimated from the file's line breaks (exact
 * unless a quoted cell spans lines), so the bar stops at 99 % until the `done` event.
 * Redrawn at most 10 times a second on a terminal, once a second otherwise.
 */
const WIDTH = 30;

export interface ProgressState {
  readonly rows: number;
  readonly estimatedRows: number;
  readonly batches: number;
  readonly errors: number;
  readonly seconds: number;
  readonly done: boolean;
}

/** The bar's text; pure, so the percentage rule is testable without a terminal. */
export function progressLine(state: ProgressState): string {
  const share = state.done ? 1 : Math.min(0.99, state.estimatedRows > 0 ? state.rows / state.estimatedRows : 0);
  const filled = Math.round(share * WIDTH);
  const rate = Math.round(state.rows / Math.max(0.001, state.seconds));
  const bar = `[${'#'.repeat(filled)}${'-'.repeat(WIDTH - filled)}] ${(share * 100).toFixed(0).padStart(3)}%`;
  return `${bar}  rows ${state.rows} of ~${state.estimatedRows}  batches ${state.batches}  ${rate} rows/s  errors ${state.errors}`;
}

export class ProgressBar {
  private rows = 0;
  private batches = 0;
  private errors = 0;
  private readonly started = Date.now();
  private drawnAt = 0;
  private shown = false;
  private readonly tty = process.stderr.isTTY === true;

  constructor(private readonly estimatedRows: number) {}

  progress(event: { batchesDone: number; rowsRead: number; errorCount: number }): void {
    this.batches = event.batchesDone;
    this.rows = event.rowsRead;
    this.errors = event.errorCount;
    this.draw(false, false);
  }

  /** A message on a line of its own; on a terminal the bar is cleared first and redrawn after. */
  note(text: string): void {
    if (this.tty && this.shown) process.stderr.write('\r\u001b[K');
    process.stderr.write(`${text}\n`);
    if (this.tty && this.shown) this.draw(true, false);
  }

  finish(done: boolean): void {
    this.draw(true, done);
    if (this.tty) process.stderr.write('\n');
  }

  private draw(force: boolean, done: boolean): void {
    const now = Date.now();
    if (!force && now - this.drawnAt < (this.tty ? 100 : 1000)) return;
    this.drawnAt = now;
    this.shown = true;
    const line = progressLine({ rows: this.rows, estimatedRows: this.estimatedRows, batches: this.batches, errors: this.errors, seconds: (now - this.started) / 1000, done });
    process.stderr.write(this.tty ? `\r${line}\u001b[K` : `${line}\n`);
  }
}
