/**
 * The bench service alone in a child process, so that its resident memory and CPU time during an
 * export are its own: in the bench process they would include the floors, the other service's
 * caches and the reading client. Driven over IPC by service-process.ts.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { startBenchService } from './service.ts';
import type { ChildReply, ChildRequest, ServiceUsage } from './service-process.ts';

const SAMPLE_MS = 10;

/** Writing 5 to clear_refs resets the kernel's peak RSS (VmHWM); false where that is not allowed. */
function resetHighWaterMark(): boolean {
  try {
    writeFileSync('/proc/self/clear_refs', '5');
    return true;
  } catch {
    return false;
  }
}

function highWaterMark(): number | null {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
    return match ? Number(match[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/** Peak RSS and CPU time since the last `mark`: sampled every 10 ms, and the kernel's own peak when it can be reset. */
function usageMeter() {
  let base = process.memoryUsage().rss;
  let sampledPeak = base;
  let cpuBase = process.cpuUsage();
  let kernelPeak = false;
  const timer = setInterval(() => (sampledPeak = Math.max(sampledPeak, process.memoryUsage().rss)), SAMPLE_MS);
  timer.unref();
  return {
    mark(): void {
      global.gc?.();
      base = process.memoryUsage().rss;
      sampledPeak = base;
      kernelPeak = resetHighWaterMark();
      cpuBase = process.cpuUsage();
    },
    read(): ServiceUsage {
      const { rss, heapUsed, external } = process.memoryUsage();
      sampledPeak = Math.max(sampledPeak, rss);
      const cpu = process.cpuUsage(cpuBase);
      const kernel = kernelPeak ? highWaterMark() : null;
      return { baseRss: base, rss, heapUsed, external, peakRss: Math.max(sampledPeak, kernel ?? 0), sampledPeakRss: sampledPeak, kernelPeakRss: kernel, cpuMicros: cpu.user + cpu.system };
    },
  };
}

const reply = (message: ChildReply): void => {
  process.send?.(message);
};

process.once('message', (first) => {
  const { databaseUrl, controlDatabase } = first as Extract<ChildRequest, { kind: 'start' }>;
  void (async () => {
    const bench = await startBenchService(databaseUrl, controlDatabase);
    const meter = usageMeter();
    process.on('message', (message) => {
      const request = message as ChildRequest;
      if (request.kind === 'mark') meter.mark();
      if (request.kind === 'mark' || request.kind === 'read') reply({ kind: 'usage', usage: meter.read() });
      if (request.kind === 'close') void bench.service.close().then(() => process.exit(0));
    });
    reply({ kind: 'started', url: bench.url, apiKey: bench.apiKey, prefix: bench.records('') });
  })().catch((error: unknown) => {
    reply({ kind: 'failed', error: String(error) });
    process.exit(1);
  });
});
