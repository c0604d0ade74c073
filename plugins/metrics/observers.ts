/** Core's observer hooks (cache, import) fed into the service's counters. */
import type { ImportObserver } from '../../core/import/index.ts';
import type { CacheObserver, WorkspaceCache } from '../../core/workspace/cache.ts';
import type { ServiceMetrics } from './registry.ts';

export function cacheObserver(metrics: ServiceMetrics): CacheObserver {
  return {
    hit: () => void (metrics.pendingLookups.hit += 1),
    miss: () => void (metrics.pendingLookups.miss += 1),
  };
}

export function importObserver(metrics: ServiceMetrics): ImportObserver {
  return {
    batchWritten(rows) {
      metrics.importBatches.inc();
      metrics.importRows.inc({ outcome: 'success' }, rows.success);
      metrics.importRows.inc({ outcome: 'failure' }, rows.failure);
      metrics.importRows.inc({ outcome: 'skipped' }, rows.skipped);
    },
  };
}

/** Sets the pool gauge from the pools as they are now; a pool closed since the last scrape disappears. */
export function recordPools(metrics: ServiceMetrics, workspaces: WorkspaceCache): void {
  metrics.poolConnections.reset();
  for (const { workspace, stats } of workspaces.poolStats()) {
    metrics.poolConnections.set({ workspace, state: 'total' }, stats.total);
    metrics.poolConnections.set({ workspace, state: 'idle' }, stats.idle);
    metrics.poolConnections.set({ workspace, state: 'waiting' }, stats.waiting);
  }
}
