/**
 * The embedded PGlite in a worker thread (pglite-thread.ts), seen from the service's thread: a
 * small request/reply protocol (pglite-protocol.ts) and a session lease. PGlite is one session, so
 * a transaction takes the lease from BEGIN to COMMIT or ROLLBACK and any other statement waits for
 * it; outside transactions statements go straight to the thread, which answers in order.
 *
 * Not the library's own PGliteWorker (@electric-sql/pglite/worker): it elects a leader through
 * navigator.locks and talks over BroadcastChannel, made for browser tabs; Node 20 has no
 * navigator.locks.
 */
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { EmbeddedDatabaseError, type ThreadAsk, type ThreadReady, type ThreadReply, type ThreadRequest, type WireError } from './pglite-protocol.ts';
import { SessionLease } from './session-lease.ts';

/** What the embedded database gives its drivers, whichever thread runs it. */
export interface EmbeddedSession {
  query<T = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<{ rows: T[]; affectedRows: number }>;
  /** Several statements without parameters (DDL scripts). */
  exec(text: string): Promise<void>;
  /** Runs `work` between BEGIN and COMMIT (ROLLBACK on throw) with the session to itself. */
  transaction<T>(work: (query: EmbeddedSession['query']) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** connection_failure (SQLSTATE class 08): the dialect maps it to connection_lost. */
const THREAD_GONE: WireError = { code: '08006', message: 'the embedded database thread has stopped' };

type Pending = { resolve(reply: ThreadReply & { ok: true }): void; reject(error: Error): void };

/**
 * Running from TypeScript sources (tsx, vitest) the thread loads its module through tsx's
 * CommonJS API: a worker started with `--import tsx` in Node 20 does not apply the loader to its
 * own entry, and tsx's ESM API starts a loader thread of its own (~300 ms of CPU more per open).
 * Compiled (dist), the module is plain JavaScript beside this file.
 */
function startThread(dataDir: string | undefined): Worker {
  const workerData = { dataDir };
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL('./pglite-thread.js', import.meta.url), { workerData });
  const thread = fileURLToPath(new URL('./pglite-thread.ts', import.meta.url));
  const api = createRequire(import.meta.url).resolve('tsx/cjs/api');
  const source = `require(${JSON.stringify(api)}).require(${JSON.stringify(thread)}, ${JSON.stringify(thread)})`;
  // No execArgv: the parent's (a test runner's, tsx's) loaders are not wanted in the thread.
  return new Worker(source, { eval: true, workerData, execArgv: [] });
}

class WorkerSession implements EmbeddedSession {
  private readonly pending = new Map<number, Pending>();
  private readonly lease = new SessionLease();
  private nextId = 1;
  private gone: Error | undefined;
  private closing = false;
  private closed: Promise<void> | undefined;

  constructor(private readonly worker: Worker) {
    // Idle, the thread does not keep the process alive (a script that never closes still ends);
    // while a reply is awaited it does.
    worker.unref();
    worker.on('message', (reply: ThreadReply) => this.settle(reply));
    worker.on('error', (error) => this.stop(new EmbeddedDatabaseError({ ...THREAD_GONE, message: `${THREAD_GONE.message}: ${error.message}` })));
    worker.on('exit', () => this.stop(new EmbeddedDatabaseError(THREAD_GONE)));
  }

  query<T = Record<string, unknown>>(text: string, params: readonly unknown[] = []): Promise<{ rows: T[]; affectedRows: number }> {
    return this.lease.shared(() => this.send<T>({ op: 'query', text, params }));
  }

  async exec(text: string): Promise<void> {
    await this.lease.shared(() => this.send({ op: 'exec', text }));
  }

  transaction<T>(work: (query: EmbeddedSession['query']) => Promise<T>): Promise<T> {
    return this.lease.exclusive(async () => {
      const query: EmbeddedSession['query'] = (text, params = []) => this.send({ op: 'query', text, params });
      await query('BEGIN');
      try {
        const result = await work(query);
        await query('COMMIT');
        return result;
      } catch (error) {
        // A thread that is gone has no transaction left to roll back.
        await query('ROLLBACK').catch(() => undefined);
        throw error;
      }
    });
  }

  close(): Promise<void> {
    this.closed ??= this.shutDown();
    return this.closed;
  }

  private async shutDown(): Promise<void> {
    if (this.gone) return;
    this.closing = true;
    const exited = new Promise<void>((resolve) => this.worker.once('exit', () => resolve()));
    // Kept alive until the thread has ended, or the process could end first with close unsettled.
    this.worker.ref();
    // Statements already asked for finish first: the thread answers in order.
    await this.lease.exclusive(() => this.send({ op: 'close' })).catch(() => undefined);
    await exited;
  }

  private send<T>(ask: ThreadAsk): Promise<{ rows: T[]; affectedRows: number }> {
    if (this.gone) return Promise.reject(this.gone);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve: (reply) => resolve({ rows: reply.rows as T[], affectedRows: reply.affectedRows }), reject });
      if (this.pending.size === 1) this.worker.ref();
      try {
        this.worker.postMessage({ ...ask, id } satisfies ThreadRequest);
      } catch (error) {
        // A parameter that cannot be cloned (a function): this statement fails, nothing waits on it.
        this.forget(id);
        reject(error);
      }
    });
  }

  private settle(reply: ThreadReply): void {
    const waiting = this.forget(reply.id);
    if (!waiting) return;
    if (reply.ok) waiting.resolve(reply);
    else waiting.reject(new EmbeddedDatabaseError(reply.error));
  }

  private forget(id: number): Pending | undefined {
    const waiting = this.pending.get(id);
    this.pending.delete(id);
    if (this.pending.size === 0 && !this.closing) this.worker.unref();
    return waiting;
  }

  private stop(reason: Error): void {
    this.gone ??= reason;
    for (const waiting of this.pending.values()) waiting.reject(reason);
    this.pending.clear();
  }
}

/** Starts the thread and opens the database there; `dataDir` undefined means in memory. */
export function openPGliteWorker(dataDir?: string): Promise<EmbeddedSession> {
  const worker = startThread(dataDir);
  return new Promise((resolve, reject) => {
    const failed = (error: Error): void => {
      void worker.terminate();
      reject(error);
    };
    worker.once('message', (message: ThreadReady) => {
      worker.off('error', failed);
      if (message.ready) resolve(new WorkerSession(worker));
      else failed(new Error(`opening the embedded database${dataDir ? ` in ${dataDir}` : ''} failed: ${message.error.message}`));
    });
    worker.once('error', failed);
    worker.once('exit', (code) => reject(new Error(`the embedded database thread exited (code ${code}) before the database was open`)));
  });
}
