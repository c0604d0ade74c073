/** Runs one autocannon job in a child process (see load-child.ts) and returns its sample. */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Sample } from './stats.ts';

export interface LoadJob {
  readonly url: string;
  readonly method: 'GET' | 'POST';
  /** Absolute path; `{id}` is replaced per request by a rotating order id. */
  readonly path: string;
  readonly body?: string;
  readonly apiKey: string;
  readonly connections: number;
  readonly warmup: number;
  readonly duration: number;
  /** Where the rotating id walk starts, so later rounds do not repeat earlier ids. */
  readonly firstIndex: number;
}

const CHILD = fileURLToPath(new URL('./load-child.ts', import.meta.url));

export function sampleHttp(job: LoadJob): Promise<Sample> {
  return new Promise((resolve, reject) => {
    const child = fork(CHILD, [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    let answered = false;
    child.once('message', (message) => {
      answered = true;
      const reply = message as Sample | { error: string };
      if ('error' in reply) reject(new Error(`load generator failed: ${reply.error}`));
      else resolve(reply);
    });
    child.once('error', reject);
    child.once('exit', (code) => {
      if (!answered) reject(new Error(`load generator exited with code ${code} before answering`));
    });
    child.send(job);
  });
}
