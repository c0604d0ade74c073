/**
 * One database session shared by the whole service (the embedded PGlite). A transaction takes it
 * exclusively, one after another; a statement outside any transaction waits only while one is open
 * or queued, since between BEGIN and COMMIT it would otherwise run inside someone else's
 * transaction. (PGlite itself behaves the same in process: a query waits for its transaction mutex.)
 */
export class SessionLease {
  private last: Promise<void> = Promise.resolve();
  private exclusiveCount = 0;

  /** Runs `work` with the session to itself; the lease is released however `work` ends. */
  async exclusive<T>(work: () => Promise<T>): Promise<T> {
    const before = this.last;
    let release!: () => void;
    this.last = new Promise((resolve) => (release = resolve));
    this.exclusiveCount++;
    try {
      await before;
      return await work();
    } finally {
      this.exclusiveCount--;
      release();
    }
  }

  /** Runs `work` once no transaction holds or waits for the session. */
  async shared<T>(work: () => Promise<T>): Promise<T> {
    while (this.exclusiveCount > 0) await this.last;
    return work();
  }
}
