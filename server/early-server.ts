/**
 * The HTTP server is bound before the service has started: opening the embedded
 * database takes seconds, and a supervisor or balancer must meanwhile see a live process that is
 * not ready yet. Until the started service takes over (`serve`), GET /healthz answers 200,
 * GET /readyz 503 `{ status: 'starting' }` (the shape of its other not-ready answers), and every
 * other request 503 `STARTING` in the error envelope with `Retry-After`.
 *
 * This module is loaded before the rest of the service (server/main.ts), so it stays small:
 * node:http and the server limits, no Koa.
 */
import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { monitorEventLoopDelay, performance, type IntervalHistogram } from 'node:perf_hooks';
import type { Logger } from 'pino';
import { createHttpServer, type HttpLimits } from './http-server.ts';
import { STATUS_BY_CODE } from './shared/status.ts';

/** Seconds a client is told to wait while the service starts (a start takes a few seconds). */
export const STARTING_RETRY_AFTER_SECONDS = 2;

export interface StartFigures {
  /** Milliseconds from the process start to now. */
  readonly startMs: number;
  /** The longest the event loop was kept busy while the server was listening, in milliseconds. */
  readonly eventLoopMaxDelayMs: number;
}

export interface EarlyServer {
  readonly server: Server;
  readonly port: number;
  readonly url: string;
  /** Every request from now on goes to `handler` (the started service's app). */
  serve(handler: RequestListener): void;
  /** How long the start took and how long the event loop was blocked meanwhile (for the log). */
  startFigures(): StartFigures;
  close(): Promise<void>;
}

export interface EarlyServerOptions {
  readonly port: number;
  readonly host: string;
  readonly limits: HttpLimits;
  readonly logger: Logger;
}

const HEADERS = { 'content-type': 'application/json; charset=utf-8', 'x-content-type-options': 'nosniff', 'cache-control': 'no-store' };

function answer(req: IncomingMessage, res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { ...HEADERS, ...headers, 'content-length': String(Buffer.byteLength(text)) });
  res.end(req.method === 'HEAD' ? undefined : text);
}

/** The answers while starting: alive, not ready, come back later. */
export function startingHandler(req: IncomingMessage, res: ServerResponse): void {
  const path = (req.url ?? '/').split('?', 1)[0];
  const probe = req.method === 'GET' || req.method === 'HEAD';
  const retry = { 'retry-after': String(STARTING_RETRY_AFTER_SECONDS) };
  if (probe && path === '/healthz') return answer(req, res, 200, { status: 'ok' });
  if (probe && path === '/readyz') return answer(req, res, 503, { status: 'starting' }, retry);
  const error = { code: 'STARTING', message: `the service is starting; try again in ${STARTING_RETRY_AFTER_SECONDS} s` };
  answer(req, res, STATUS_BY_CODE.STARTING, { error, retryAfterSeconds: STARTING_RETRY_AFTER_SECONDS }, retry);
}

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

/** Watches the event loop from the moment the server listens: a block there delays every probe. */
function watchEventLoop(): IntervalHistogram {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  return histogram;
}

export async function listenEarly(options: EarlyServerOptions): Promise<EarlyServer> {
  let handler: RequestListener = startingHandler;
  const server = createHttpServer((req, res) => handler(req, res), options.limits, options.logger);
  const port = await listen(server, options.port, options.host);
  const loop = watchEventLoop();
  let figures: StartFigures | undefined;
  const startFigures = (): StartFigures => {
    figures ??= { startMs: Math.round(performance.now()), eventLoopMaxDelayMs: Math.round(loop.max / 1e6) };
    loop.disable();
    return figures;
  };
  return {
    server,
    port,
    url: `http://${options.host}:${port}`,
    serve(next) {
      handler = next;
    },
    startFigures,
    /** After a failed start: nothing is in flight worth waiting for (probes at most). */
    close() {
      loop.disable();
      return new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
