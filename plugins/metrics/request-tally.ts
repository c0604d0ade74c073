/**
 * http_requests_total and http_request_duration_seconds, counted as plain numbers per label set and
 * turned into Prometheus samples only when scraped. prom-client's Counter and Histogram check and
 * hash the label object on every inc/observe (≈10 µs a request, the largest single item of the
 * service's overhead over a hand-written route); here a request costs two Map lookups. The two
 * metrics are registered in the prom-client registry like its own, so /metrics is unchanged.
 */
import type { Registry } from 'prom-client';

export interface RequestLabels {
  readonly method: string;
  readonly route: string;
  readonly status: string;
}

interface Series {
  readonly labels: RequestLabels;
  count: number;
  sum: number;
  /** Observations per bucket, not cumulative; the last one is +Inf. */
  readonly buckets: number[];
}

/** One sample as prom-client's registry prints it. */
export interface TallySample {
  readonly metricName: string;
  readonly labels: Record<string, string | number>;
  readonly value: number;
}

/** The part of prom-client's metric interface its Registry uses (get, reset, name, help, type). */
export interface TallyMetric {
  readonly name: string;
  readonly help: string;
  readonly type: 'counter' | 'histogram';
  readonly aggregator: 'sum';
  get(): Promise<{ name: string; help: string; type: string; aggregator: 'sum'; values: TallySample[] }>;
  reset(): void;
}

export class RequestTally {
  /** route → `method status` → series: no key string is built per request. */
  private readonly series = new Map<string, Map<string, Series>>();

  constructor(private readonly bounds: readonly number[]) {}

  record(method: string, route: string, status: number, seconds: number): void {
    let byRoute = this.series.get(route);
    if (!byRoute) this.series.set(route, (byRoute = new Map()));
    const key = method + status;
    let series = byRoute.get(key);
    if (!series) byRoute.set(key, (series = { labels: { method, route, status: String(status) }, count: 0, sum: 0, buckets: new Array<number>(this.bounds.length + 1).fill(0) }));
    series.count += 1;
    series.sum += seconds;
    const bucket = this.bucketOf(seconds);
    series.buckets[bucket] = (series.buckets[bucket] ?? 0) + 1;
  }

  reset(): void {
    this.series.clear();
  }

  counterSamples(name: string): TallySample[] {
    return this.all().map((s) => ({ metricName: name, labels: { ...s.labels }, value: s.count }));
  }

  /** Cumulative `_bucket` samples with `le`, then `_sum` and `_count`, as prom-client's Histogram gives them. */
  histogramSamples(name: string): TallySample[] {
    const samples: TallySample[] = [];
    for (const s of this.all()) {
      let cumulative = 0;
      for (const [i, bound] of [...this.bounds, '+Inf' as const].entries()) {
        cumulative += s.buckets[i] ?? 0;
        samples.push({ metricName: `${name}_bucket`, labels: { le: bound, ...s.labels }, value: cumulative });
      }
      samples.push({ metricName: `${name}_sum`, labels: { ...s.labels }, value: s.sum });
      samples.push({ metricName: `${name}_count`, labels: { ...s.labels }, value: s.count });
    }
    return samples;
  }

  private bucketOf(seconds: number): number {
    const bounds = this.bounds;
    for (let i = 0; i < bounds.length; i++) if (seconds <= (bounds[i] as number)) return i;
    return bounds.length;
  }

  private all(): Series[] {
    return [...this.series.values()].flatMap((byRoute) => [...byRoute.values()]);
  }
}

function tallyMetric(name: string, help: string, type: TallyMetric['type'], tally: RequestTally, samples: () => TallySample[]): TallyMetric {
  return {
    name,
    help,
    type,
    aggregator: 'sum',
    get: async () => ({ name, help, type, aggregator: 'sum', values: samples() }),
    reset: () => tally.reset(),
  };
}

/** Registers both metrics of `tally` in `registry` and returns them (tests read their samples). */
export function registerRequestMetrics(registry: Registry, tally: RequestTally): { requests: TallyMetric; duration: TallyMetric } {
  const requests = tallyMetric('http_requests_total', 'HTTP requests by method, route template and status', 'counter', tally, () => tally.counterSamples('http_requests_total'));
  const duration = tallyMetric('http_request_duration_seconds', 'HTTP request duration by method, route template and status', 'histogram', tally, () => tally.histogramSamples('http_request_duration_seconds'));
  // prom-client's registry prints any object with this interface; its types only name its own classes.
  for (const metric of [requests, duration]) registry.registerMetric(metric as unknown as Parameters<Registry['registerMetric']>[0]);
  return { requests, duration };
}
