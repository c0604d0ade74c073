/**
 * Starts the change listener for a PostgreSQL control store (DESIGN §16). The embedded store serves
 * one instance, which drops what it changes itself, so it needs none.
 */
import type { Logger } from 'pino';
import { ChangeListener, type ChangeEvent } from '../core/workspace/change-listener.ts';
import { CHANGE_CHANNEL } from '../core/workspace/change-notice.ts';
import type { WorkspaceCache } from '../core/workspace/cache.ts';
import { openPgListener } from '../dialects/postgres/index.ts';

const LEVELS: Record<ChangeEvent, 'info' | 'warn' | 'error'> = { listening: 'info', lost: 'warn', 'connect-failed': 'warn', 'bad-payload': 'warn', 'subscriber-failed': 'error' };

/** Listening once the first attempt succeeds; otherwise it keeps trying while the cache checks versions. */
export async function listenForChanges(controlUrl: string, cache: WorkspaceCache, logger: Logger): Promise<ChangeListener> {
  const listener = new ChangeListener({
    target: cache,
    async open(handlers) {
      const session = await openPgListener(controlUrl, CHANGE_CHANNEL, handlers);
      return { ping: async () => void (await session.query({ text: 'SELECT 1', params: [] })), close: () => session.close() };
    },
    report: (event, details) => logger[LEVELS[event]]({ ...details, event }, `control-store change listener: ${event}`),
  });
  await listener.start();
  return listener;
}
