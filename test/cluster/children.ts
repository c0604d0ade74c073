/** Every process the cluster tests start, killed if the test process ends before its own cleanup ran. */
import type { ChildProcess } from 'node:child_process';

const children = new Set<ChildProcess>();
const running = (child: ChildProcess) => child.exitCode === null && child.signalCode === null;

process.once('exit', () => {
  for (const child of children) if (running(child)) child.kill('SIGKILL');
});

/** Tracks `child` until it exits. */
export function track(child: ChildProcess): ChildProcess {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}
