/**
 * The load generator, in its own process so that it does not share the event loop with the
 * server under test. Receives a LoadJob over IPC, answers with a Sample.
 */
import autocannon, { type AutocannonRequest } from 'autocannon';
import { orderIdFor } from './ids.ts';
import type { LoadJob } from './load.ts';
import type { Sample } from './stats.ts';

function requestsOf(job: LoadJob): AutocannonRequest[] {
  const headers: Record<string, string> = { authorization: `Bearer ${job.apiKey}`, ...(job.body ? { 'content-type': 'application/json' } : {}) };
  let next = job.firstIndex;
  return [{
    method: job.method,
    path: job.path,
    headers,
    ...(job.body ? { body: job.body } : {}),
    // Rotating ids: the same walk the raw floor takes.
    setupRequest: (request) => (job.path.includes('{id}') ? { ...request, path: job.path.replace('{id}', String(orderIdFor(next++))) } : request),
  }];
}

async function fire(job: LoadJob, seconds: number): Promise<Sample> {
  const latencies: number[] = [];
  const instance = autocannon({ url: job.url, connections: job.connections, duration: seconds, requests: requestsOf(job), timeout: 30 });
  instance.on('response', (_client, status, _bytes, responseTime) => {
    if (status >= 200 && status < 300) latencies.push(responseTime);
  });
  const result = await instance;
  return { latencies, seconds: result.duration, errors: result.errors + result.timeouts + result.non2xx };
}

process.once('message', (message) => {
  const job = message as LoadJob;
  void (async () => {
    if (job.warmup > 0) await fire(job, job.warmup);
    const measured = await fire(job, job.duration);
    process.send?.(measured, () => process.exit(0));
  })().catch((error: unknown) => {
    process.send?.({ error: String(error) }, () => process.exit(1));
  });
});
