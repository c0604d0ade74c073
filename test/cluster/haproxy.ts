/**
 * HAProxy from Debian's package in front of the instances: a config file in a temp folder, one
 * foreground process, and its state read from the stats socket (`show stat`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { track } from './children.ts';

export const HAPROXY_BINARY = process.env.HAPROXY_BINARY ?? '/usr/sbin/haproxy';

export function haproxyInstalled(): boolean {
  return existsSync(HAPROXY_BINARY);
}

export interface Backend {
  readonly name: string;
  readonly port: number;
}

/**
 * The README's example configuration with test timings: health checks every 200 ms so a dead
 * instance is out within half a second. A request that could not connect is retried on another
 * instance (`option redispatch 1`); one that reached an instance is never sent twice, since
 * `retry-on` keeps its default (connection failures only). X-Forwarded-For is replaced, not
 * appended to: with TRUST_PROXY=true an instance takes the leftmost address, which a client could
 * otherwise choose. `X-Served-By` names the instance.
 */
export function haproxyConfig(port: number, backends: readonly Backend[], socket: string): string {
  return `global
  maxconn 512
  nbthread 1
  stats socket ${socket} mode 600 level admin

defaults
  mode http
  timeout connect 1s
  timeout client 30s
  timeout server 30s
  retries 2
  option redispatch 1

frontend api
  bind 127.0.0.1:${port}
  http-request set-header X-Forwarded-For %[src]
  default_backend instances

backend instances
  balance roundrobin
  option httpchk
  http-check send meth GET uri /readyz
  http-check expect status 200
  default-server inter 200ms fall 2 rise 2
  http-response set-header X-Served-By %s
${backends.map((b) => `  server ${b.name} 127.0.0.1:${b.port} check`).join('\n')}
`;
}

export interface Balancer {
  readonly url: string;
  readonly pid: number;
  /** Each backend's state as HAProxy sees it: `UP`, `DOWN`, `UP 1/2`, … */
  states(): Promise<Record<string, string>>;
  output(): string;
  stop(): Promise<void>;
}

function showStat(socket: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const client = connect(socket, () => client.end('show stat\n'));
    client.on('data', (chunk: Buffer) => (text += chunk.toString()));
    client.on('end', () => resolve(text));
    client.on('error', reject);
  });
}

/** `show stat` is CSV with a `# pxname,svname,…` header; the server rows of backend `instances`. */
async function backendStates(socket: string): Promise<Record<string, string>> {
  const [header = '', ...rows] = (await showStat(socket)).trim().split('\n');
  const columns = header.replace(/^# /, '').split(',');
  const at = (name: string) => columns.indexOf(name);
  const states: Record<string, string> = {};
  for (const row of rows.map((line) => line.split(','))) {
    const server = row[at('svname')] ?? '';
    if (row[at('pxname')] === 'instances' && server !== 'BACKEND') states[server] = row[at('status')] ?? '';
  }
  return states;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitForSocket(child: ChildProcess, socket: string, output: () => string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (child.exitCode !== null) throw new Error(`haproxy exited with ${child.exitCode}: ${output()}`);
    if (existsSync(socket)) return;
    await sleep(50);
  }
  throw new Error(`haproxy did not open its stats socket: ${output()}`);
}

/** HAProxy could not bind the port it was given (taken since it was probed): start again on another. */
export class PortTaken extends Error {}

/** HAProxy on loopback `port`, in front of `backends`, config and stats socket in `dir`. */
export async function startHaproxy(dir: string, port: number, backends: readonly Backend[]): Promise<Balancer> {
  const config = join(dir, 'haproxy.cfg');
  const socket = join(dir, `haproxy-${port}.sock`);
  writeFileSync(config, haproxyConfig(port, backends, socket));
  // -db: stay in the foreground, so the test owns the one process; -f: our file only.
  const child = track(spawn(HAPROXY_BINARY, ['-db', '-f', config], { stdio: ['ignore', 'pipe', 'pipe'] }));
  let out = '';
  const keep = (chunk: Buffer) => void (out = (out + chunk.toString()).slice(-20_000));
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    await waitForSocket(child, socket, () => out);
  } catch (error) {
    child.kill('SIGKILL');
    await exited;
    throw /cannot bind|Address already in use/i.test(out) ? new PortTaken(String(error)) : error;
  }
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid ?? -1,
    states: () => backendStates(socket),
    output: () => out,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
