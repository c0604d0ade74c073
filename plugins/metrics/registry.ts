/**
 * The service's Prometheus metrics (DESIGN §16), one registry per service so that several
 * services in one process (tests) keep their own counts.
 */
import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';
import { registerRequestMetrics, RequestTally, type TallyMetric } from './request-tally.ts';

export interface ServiceMetrics {
  readonly registry: Registry;
  /** Counts and times every request; http_requests_total and http_request_duration_seconds read it. */
  readonly requests: RequestTally;
  readonly httpDuration: TallyMetric;
  /** Workspace runtime lookups: `hit` from the cache, `miss` went to the control store. */
  readonly cacheLookups: Counter<'result'>;
  /** Lookups since the last scrape, added to cacheLookups when scraped (one per request: a plain count is cheaper than inc). */
  readonly pendingLookups: { hit: number; miss: number };
  readonly changeNotices: Counter;
  readonly importBatches: Counter;
  /** Import rows by outcome: success, failure, skipped. */
  readonly importRows: Counter<'outcome'>;
  readonly rateLimitRefusals: Counter;
  /** Connections of each workspace's pool by state: total, idle, waiting (requests queued). */
  readonly poolConnections: Gauge<'workspace' | 'state'>;
}

/** Latency buckets from 5 ms to 10 s: reads are milliseconds, exports and imports seconds. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export function createServiceMetrics(): ServiceMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  const requests = new RequestTally(DURATION_BUCKETS);
  const pendingLookups = { hit: 0, miss: 0 };
  const cacheLookups = new Counter({
    name: 'wdapi_workspace_cache_lookups_total',
    help: 'Workspace runtime lookups; result=hit answered from the cache, miss went to the control store',
    labelNames: ['result'],
    registers,
    collect() {
      this.inc({ result: 'hit' }, pendingLookups.hit);
      this.inc({ result: 'miss' }, pendingLookups.miss);
      pendingLookups.hit = 0;
      pendingLookups.miss = 0;
    },
  });
  return {
    registry,
    requests,
    httpDuration: registerRequestMetrics(registry, requests).duration,
    cacheLookups,
    pendingLookups,
    changeNotices: new Counter({ name: 'wdapi_change_notifications_received_total', help: 'Control-store change notifications heard on LISTEN/NOTIFY', registers }),
    importBatches: new Counter({ name: 'wdapi_import_batches_total', help: 'CSV import batches written', registers }),
    importRows: new Counter({ name: 'wdapi_import_rows_total', help: 'CSV import rows by outcome (success, failure, skipped)', labelNames: ['outcome'], registers }),
    rateLimitRefusals: new Counter({ name: 'wdapi_rate_limit_refusals_total', help: 'Requests refused with 429 RATE_LIMITED', registers }),
    poolConnections: new Gauge({ name: 'wdapi_pool_connections', help: 'Workspace pool connections by state (total, idle, waiting)', labelNames: ['workspace', 'state'], registers }),
  };
}
