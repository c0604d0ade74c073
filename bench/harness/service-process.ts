/** The parent's handle on the service running alone in a child process (service-child.ts). */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export interface ServiceUsage {
  /** RSS when the measurement began (after a GC when the child has --expose-gc). */
  readonly baseRss: number;
  /** RSS at the time of the reading; V8's heap in use and Buffers outside it, for the breakdown. */
  readonly rss: number;
  readonly heapUsed: number;
  readonly external: number;
  /** The larger of the sampled peak and the kernel's peak. */
  readonly peakRss: number;
  readonly sampledPeakRss: number;
  /** VmHWM after a reset through /proc/self/clear_refs; null where the reset is not allowed. */
  readonly kernelPeakRss: number | null;
  /** user + system CPU of the child since the mark. */
  readonly cpuMicros: number;
}

export type ChildRequest =
  | { kind: 'start'; databaseUrl: string; controlDatabase: string }
  | { kind: 'mark' }
  | { kind: 'read' }
  | { kind: 'close' };

export type ChildReply =
  | { kind: 'started'; url: string; apiKey: string; prefix: string }
  | { kind: 'usage'; usage: ServiceUsage }
  | { kind: 'failed'; error: string };

export interface ServiceProcess {
  readonly url: string;
  readonly apiKey: string;
  readonly pid: number;
  records(path: string): string;
  /** Starts a measurement: peak RSS and CPU count from here. */
  mark(): Promise<ServiceUsage>;
  read(): Promise<ServiceUsage>;
  close(): Promise<void>;
}

const TS_CHILD = fileURLToPath(new URL('./service-child.ts', import.meta.url));

function nextReply(child: ChildProcess): Promise<ChildReply> {
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null): void => reject(new Error(`the service child exited with code ${code}`));
    child.once('exit', onExit);
    child.once('message', (message) => {
      child.off('exit', onExit);
      resolve(message as ChildReply);
    });
  });
}

async function usage(child: ChildProcess, request: ChildRequest): Promise<ServiceUsage> {
  const answer = nextReply(child);
  child.send(request);
  const message = await answer;
  if (message.kind !== 'usage') throw new Error(`the service child answered ${JSON.stringify(message)}`);
  return message.usage;
}

/**
 * `compiled` is dist/bench/harness/service-child.js run on plain node; without it the TypeScript source
 * runs under tsx. Its own control database (`controlDatabase`, control-db.ts's controlDatabaseName),
 * so it does not disturb the bench's in-process service, nor another bench's children.
 */
export async function startServiceProcess(databaseUrl: string, compiled: string | null, controlDatabase: string): Promise<ServiceProcess> {
  // BENCH_CPU_PROF=<dir>: the child writes a CPU profile there when it exits (for looking, not for figures).
  const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  // BENCH_PERF=1: the child writes /tmp/perf-<pid>.map, so `perf record -p <pid>` names JavaScript frames.
  if (process.env.BENCH_PERF) profile.push('--perf-basic-prof', '--interpreted-frames-native-stack');
  const execArgv = [...(compiled ? [] : ['--import', 'tsx']), '--expose-gc', ...profile];
  const child = fork(compiled ?? TS_CHILD, [], { execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const started = nextReply(child);
  child.send({ kind: 'start', databaseUrl, controlDatabase } satisfies ChildRequest);
  const message = await started;
  if (message.kind !== 'started') {
    child.kill();
    throw new Error(`the service child did not start: ${JSON.stringify(message)}`);
  }
  return {
    url: message.url,
    apiKey: message.apiKey,
    pid: child.pid ?? -1,
    records: (path) => `${message.prefix}${path}`,
    mark: () => usage(child, { kind: 'mark' }),
    read: () => usage(child, { kind: 'read' }),
    close: () => new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.send({ kind: 'close' } satisfies ChildRequest);
    }),
  };
}
