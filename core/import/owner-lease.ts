/**
 * Who runs an import job, and whether that process is still alive. Each service process has a
 * random instance id; a job records the id of the process running it. A RUNNING job whose owner
 * is gone shows as INTERRUPTED at once and can be resumed, instead of waiting for its heartbeat
 * to go stale (the heartbeat stays as the fallback when liveness cannot be told).
 *
 * - Embedded control store (PGlite): only one process can open it, so every other instance id
 *   belongs to a process that has ended.
 * - PostgreSQL control store: the process holds a session-level advisory lock keyed by its id on
 *   a connection of its own; the server releases it when that connection ends, also on SIGKILL.
 *   Another process asks with `pg_try_advisory_xact_lock`: getting the lock means no one holds it.
 */
import { createHash, randomUUID } from 'node:crypto';
import { render, sql } from '../sql.ts';
import type { Executor } from '../../dialects/dialect.ts';

export interface OwnerLease {
  /** This process's id; the jobs it runs record it as their owner. */
  readonly instanceId: string;
  /** False only when the owning process is certainly gone. */
  isAlive(owner: string): Promise<boolean>;
  close(): Promise<void>;
}

/** A session of its own on the control database (it must outlive any pool's idle timeout). */
export interface LeaseSession extends Executor {
  close(): Promise<void>;
}

export type OpenLeaseSession = (onLost: () => void) => Promise<LeaseSession>;

/** Advisory lock namespace ('WDAP'), so that the keys cannot meet another application's locks. */
const LOCK_CLASS = 0x57444150;
const RECONNECT_MS = 1000;

const renderer = { quoteIdent: (name: string) => `"${name.replace(/"/g, '""')}"`, placeholder: (i: number) => `$${i}` };

/** The instance id folded into the lock's 32-bit object key; a collision only makes a dead owner look alive. */
function lockKey(instanceId: string): number {
  return createHash('sha1').update(instanceId).digest().readInt32BE(0);
}

/** When liveness cannot be told: every owner counts as alive, and only a stale heartbeat ends a job. */
export function heartbeatOnlyLease(): OwnerLease {
  return { instanceId: randomUUID(), isAlive: async () => true, close: async () => undefined };
}

/** For the embedded control store, which one process at a time can open. */
export function singleProcessLease(): OwnerLease {
  const instanceId = randomUUID();
  return { instanceId, isAlive: async (owner) => owner === instanceId, close: async () => undefined };
}

/**
 * For a PostgreSQL control store. `open` gives the dedicated session; `store` is any executor
 * on the same database for the liveness questions. A lost session is opened again and locked
 * again (meanwhile this process's jobs may look dead to others: the job markers in the
 * workspace database keep a resume from writing a batch twice).
 */
export async function advisoryLease(open: OpenLeaseSession, store: Executor): Promise<OwnerLease> {
  const instanceId = randomUUID();
  const key = lockKey(instanceId);
  let session: LeaseSession | undefined;
  let closed = false;
  const lock = async (): Promise<void> => {
    const next = await open(() => void reconnect());
    await next.query(render(sql`SELECT pg_advisory_lock(${LOCK_CLASS}::integer, ${key}::integer)`, renderer));
    session = next;
  };
  const reconnect = async (): Promise<void> => {
    session = undefined;
    while (!closed && !session) {
      await new Promise((resolve) => setTimeout(resolve, RECONNECT_MS).unref());
      await lock().catch(() => undefined);
    }
  };
  await lock();
  return {
    instanceId,
    async isAlive(owner) {
      if (owner === instanceId) return true;
      const { rows } = await store.query(render(sql`SELECT pg_try_advisory_xact_lock(${LOCK_CLASS}::integer, ${lockKey(owner)}::integer) AS free`, renderer));
      return rows[0]?.free !== true;
    },
    async close() {
      closed = true;
      await session?.close();
    },
  };
}
