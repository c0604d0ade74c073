/**
 * Three (or `count`) compiled instances (node on the tsc output, as `npm run start:dist` runs
 * them) sharing one control store on the local PostgreSQL server, each on a random loopback port,
 * with HAProxy in front (DESIGN §16 "tested as deployed"). The suite needs HAProxy: under CI=true it must be
 * installed (.ci/run installs it); elsewhere the suite is skipped and says why.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { LISTENER_APPLICATION_NAME } from '../../dialects/postgres/index.ts';
import { ADMIN_TOKEN, TEST_SECRETS_KEY } from '../support/harness.ts';
import { freePort } from '../support/free-port.ts';
import { PG_ADMIN_URL } from '../support/vendors.ts';
import { compiledMain } from './build.ts';
import { track } from './children.ts';
import { HAPROXY_BINARY, haproxyInstalled, PortTaken, startHaproxy, type Balancer } from './haproxy.ts';

/** Why the suite does not run here, or undefined when it does; throws under CI=true. */
export function clusterSkipReason(): string | undefined {
  if (haproxyInstalled()) return undefined;
  if (process.env.CI === 'true') throw new Error(`CI=true and HAProxy is not installed at ${HAPROXY_BINARY} (.ci/run installs it: apt-get install -y haproxy)`);
  return `skipped: HAProxy is not installed at ${HAPROXY_BINARY} (apt-get install -y haproxy)`;
}

export interface Instance {
  readonly name: string;
  readonly url: string;
  readonly port: number;
  readonly process: ChildProcess;
  output(): string;
  /** Resolves once the process is gone. */
  exited(): Promise<void>;
}

export interface Cluster {
  readonly balancer: Balancer;
  readonly instances: readonly Instance[];
  /** Stops HAProxy and every instance still running, and removes the temp folder. */
  stop(): Promise<void>;
}

/** Only what node needs, then the service's own settings: the runner's environment does not leak in. */
function instanceEnv(dir: string, controlUrl: string, extra: Record<string, string>): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dir,
    CONTROL_DATABASE_URL: controlUrl,
    SECRETS_KEY: TEST_SECRETS_KEY,
    // The test identity providers listen on 127.0.0.1.
    IDP_ALLOW_PRIVATE: 'true',
    ADMIN_TOKEN,
    LOG_LEVEL: 'warn',
    SHUTDOWN_DRAIN_SECONDS: '0',
    ...extra,
  };
}

async function startInstance(main: string, name: string, env: Record<string, string>): Promise<Instance> {
  const child = track(spawn(process.execPath, [main], { env, stdio: ['ignore', 'pipe', 'pipe'] }));
  let out = '';
  const keep = (chunk: Buffer) => void (out = (out + chunk.toString()).slice(-100_000));
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + 60_000;
  for (;;) {
    const url = /listening on (http:\/\/\S+)/.exec(out)?.[1];
    if (url) return { name, url, port: Number(new URL(url).port), process: child, output: () => out, exited: () => exited };
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`instance ${name} did not start: ${out}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function stopInstance(instance: Instance): Promise<void> {
  const child = instance.process;
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  const killed = setTimeout(() => child.kill('SIGKILL'), 5000);
  await instance.exited();
  clearTimeout(killed);
}

/** Resolves once every backend is UP in HAProxy's eyes. */
async function allUp(balancer: Balancer, names: readonly string[], timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let states: Record<string, string> = {};
  while (Date.now() < deadline) {
    states = await balancer.states();
    if (names.every((name) => states[name] === 'UP')) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`backends not all UP: ${JSON.stringify(states)}`);
}

/**
 * `count` instances (i1, i2, …) on `controlUrl` with `env` added to each one's environment, and
 * HAProxy in front once all of them are healthy. The balancer's port is chosen first: every
 * instance gets its URL as PUBLIC_URL (the issuer of internal tokens must be one for all). The
 * first instance starts alone: it migrates a fresh control store.
 */
export async function startCluster(controlUrl: string, env: Record<string, string> = {}, count = 3): Promise<Cluster> {
  const main = await compiledMain();
  const names = Array.from({ length: count }, (_, i) => `i${i + 1}`);
  for (let attempt = 1; ; attempt++) {
    try {
      return await startClusterOn(await freePort(), main, controlUrl, env, names);
    } catch (error) {
      if (!(error instanceof PortTaken) || attempt === 3) throw error;
    }
  }
}

async function startClusterOn(port: number, main: string, controlUrl: string, env: Record<string, string>, names: readonly string[]): Promise<Cluster> {
  const dir = mkdtempSync(join(tmpdir(), 'wdapi-cluster-'));
  const instances: Instance[] = [];
  let balancer: Balancer | undefined;
  const stop = async () => {
    await balancer?.stop();
    await Promise.all(instances.map(stopInstance));
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const publicUrl = `http://127.0.0.1:${port}`;
    const start = (name: string) => startInstance(main, name, instanceEnv(join(dir, name), controlUrl, { PUBLIC_URL: publicUrl, ...env }));
    const [first = 'i1', ...rest] = names;
    instances.push(await start(first));
    instances.push(...(await Promise.all(rest.map(start))));
    balancer = await startHaproxy(dir, port, instances.map((i) => ({ name: i.name, port: i.port })));
    await allUp(balancer, names);
  } catch (error) {
    await stop();
    throw error;
  }
  return { balancer, instances, stop };
}

/** The change listeners' backends on the control database: application name and pid. */
export async function listenerBackends(controlUrl: string): Promise<number[]> {
  return adminRows('SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND datname = $2', [LISTENER_APPLICATION_NAME, databaseOf(controlUrl)]);
}

/**
 * Ends every change listener's connection to the control database; their pids. Two steps, so that
 * nothing but the pids found can be ended: a pg_terminate_backend call in a WHERE clause may be
 * evaluated on rows the other conditions reject (every backend of the server).
 */
export async function terminateListeners(controlUrl: string): Promise<number[]> {
  const pids = await listenerBackends(controlUrl);
  if (pids.length > 0) await adminRows('SELECT pg_terminate_backend(pid) AS pid FROM unnest($1::int[]) AS pid', [pids]);
  return pids;
}

function databaseOf(url: string): string {
  return new URL(url).pathname.slice(1);
}

async function adminRows(text: string, params: unknown[]): Promise<number[]> {
  const client = new pg.Client({ connectionString: PG_ADMIN_URL });
  await client.connect();
  try {
    return (await client.query<{ pid: number }>(text, params)).rows.map((row) => row.pid);
  } finally {
    await client.end();
  }
}
