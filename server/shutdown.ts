/**
 * Stopping the service (DESIGN §11): drain, stop accepting, let in-flight requests finish, close
 * the pools. Everything after the drain has `deadlineMs`: a response still open then (a stream
 * whose client reads nothing, a request waiting on a statement that does not end) is cut, so a
 * rolling restart never waits for a supervisor's SIGKILL. Closing the pools afterwards gets a short
 * bound of its own: a statement that never returns keeps its pooled connection checked out.
 */
import type { Server } from 'node:http';
import type { Logger } from 'pino';
import type { Lifecycle } from './shared/services.ts';

/** How long closing the pools and stores may take once the open responses are cut. */
const RELEASE_BOUND_MS = 2000;

export interface ShutdownPlan {
  readonly server: Server;
  readonly lifecycle: Lifecycle;
  readonly logger: Logger;
  /** Closes pools, stores and listeners, in order; runs once no response is open. */
  readonly release: () => Promise<void>;
}

/** True when `promise` settled within `ms`; false when the time ran out first. */
async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([promise.then(() => true, () => true), late]);
  } finally {
    clearTimeout(timer);
  }
}

export async function shutDown(plan: ShutdownPlan, drainMs: number, deadlineMs: number): Promise<void> {
  const { server, lifecycle, logger } = plan;
  if (drainMs > 0) {
    lifecycle.draining = true;
    logger.info({ drainMs }, 'service draining');
    await new Promise((resolve) => setTimeout(resolve, drainMs));
  }
  const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  if (!(await settlesWithin(stopped, deadlineMs))) {
    logger.warn({ deadlineMs }, 'shutdown deadline passed');
    server.closeAllConnections();
    await stopped;
  }
  const released = plan.release();
  if (!(await settlesWithin(released, RELEASE_BOUND_MS))) logger.warn({ boundMs: RELEASE_BOUND_MS }, 'pools did not close in time');
}
