/** The request tally prints what prom-client's own Counter and Histogram print for the same requests. */
import fc from 'fast-check';
import { Counter, Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { registerRequestMetrics, RequestTally } from '../../../plugins/metrics/request-tally.ts';

const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const LABELS = ['method', 'route', 'status'] as const;

const request = fc.record({
  method: fc.constantFrom('GET', 'POST', 'DELETE'),
  route: fc.constantFrom('/api/v1/:org/:ws/:entity', '/healthz', '(unmatched)'),
  status: fc.constantFrom(200, 201, 404, 500),
  // Bucket bounds themselves included: `le` means less than or equal.
  seconds: fc.oneof(fc.constantFrom(...BUCKETS, 0, 11), fc.double({ min: 0, max: 20, noNaN: true })),
});

/** The registry's text, one line per sample, in a stable order. */
async function lines(registry: Registry): Promise<string[]> {
  return (await registry.metrics()).split('\n').filter((line) => line && !line.startsWith('#')).sort();
}

describe('RequestTally', () => {
  it('gives the same Prometheus text as prom-client Counter + Histogram for any requests', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(request, { maxLength: 40 }), async (requests) => {
        const ours = new Registry();
        const tally = new RequestTally(BUCKETS);
        registerRequestMetrics(ours, tally);
        const theirs = new Registry();
        const counter = new Counter({ name: 'http_requests_total', help: 'h', labelNames: LABELS, registers: [theirs] });
        const histogram = new Histogram({ name: 'http_request_duration_seconds', help: 'h', labelNames: LABELS, buckets: BUCKETS, registers: [theirs] });
        for (const r of requests) {
          tally.record(r.method, r.route, r.status, r.seconds);
          const labels = { method: r.method, route: r.route, status: String(r.status) };
          counter.inc(labels);
          histogram.observe(labels, r.seconds);
        }
        expect(await lines(ours)).toEqual(await lines(theirs));
      }),
      { numRuns: 200 },
    );
  });
});
