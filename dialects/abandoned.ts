/**
 * What every driver does when nobody wants a statement's answer any more (`QueryOptions.signal`):
 * a wait for a pooled connection is given up at once, and a connection granted after that goes
 * straight back to the pool without running anything.
 */

/** The rejection of a statement whose caller went away; no client ever sees it. */
export function abandonedError(): Error {
  return new Error('the statement was abandoned: its caller went away');
}

/**
 * `acquire()`'s connection, or a rejection as soon as `signal` aborts. A connection that arrives
 * after the abort is handed to `giveBack` (the pool cannot take a waiter out of its queue).
 */
export function acquireUnlessAbandoned<C>(acquire: () => Promise<C>, giveBack: (connection: C) => void, signal: AbortSignal): Promise<C> {
  if (signal.aborted) return Promise.reject(abandonedError());
  return new Promise<C>((resolve, reject) => {
    const abandon = (): void => reject(abandonedError());
    signal.addEventListener('abort', abandon, { once: true });
    acquire().then(
      (connection) => {
        signal.removeEventListener('abort', abandon);
        if (signal.aborted) giveBack(connection);
        else resolve(connection);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', abandon);
        reject(error);
      },
    );
  });
}

/** Runs `onAbort` if `signal` aborts before the returned function is called (which removes the listener). */
export function whileRunning(signal: AbortSignal | undefined, onAbort: () => void): () => void {
  if (!signal) return noop;
  if (signal.aborted) {
    onAbort();
    return noop;
  }
  signal.addEventListener('abort', onAbort, { once: true });
  return () => signal.removeEventListener('abort', onAbort);
}

function noop(): void {}
