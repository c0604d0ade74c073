/**
 * The HTTP server around the Koa callback: header size and timeouts so that a slow or stalled
 * client cannot hold a socket for minutes, and answers in the error envelope where one is possible.
 *
 * Timeouts:
 * - headers: Node's `headersTimeout` (the whole header block must arrive in time);
 * - body idle: no body byte for `bodyIdleTimeoutMs` ends the request, on every route;
 * - whole request: the body must be complete within `requestTimeoutMs`, except on the streaming
 *   import uploads (up to 100 MiB), which a slow but steady link may take minutes to send, so
 *   only the idle timeout applies to them. Node's own `requestTimeout` is off because it cannot
 *   tell those routes apart;
 * - keep-alive: Node's `keepAliveTimeout`.
 */
import { createServer, STATUS_CODES, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import type { ErrorCode } from '../core/errors.ts';
import { STATUS_BY_CODE } from './shared/status.ts';

export interface HttpLimits {
  readonly headersTimeoutMs: number;
  readonly requestTimeoutMs: number;
  readonly bodyIdleTimeoutMs: number;
  readonly keepAliveTimeoutMs: number;
  /** Largest header block in bytes (Node's default of 16 KiB refuses real IdP tokens). */
  readonly maxHeaderBytes: number;
  /** Most header lines a request may have; Node would keep the first 2000 and drop the rest unseen. */
  readonly maxHeaderCount: number;
}

export const DEFAULT_HTTP_LIMITS: HttpLimits = {
  headersTimeoutMs: 20_000,
  requestTimeoutMs: 30_000,
  bodyIdleTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  maxHeaderBytes: 64 * 1024,
  maxHeaderCount: 2000,
};

/** The routes whose body is a file streamed while it is imported (server/routes/import.ts). */
const STREAMING_UPLOAD = /^\/api\/(?:data\/import\/[^/?]+|imports\/[^/?]+\/resume)\/?(?:\?|$)/;

/** Headers every answer carries, raw ones included (see server/middleware/response-headers.ts). */
const RAW_HEADERS = { 'content-type': 'application/json; charset=utf-8', 'x-content-type-options': 'nosniff', 'cache-control': 'no-store', connection: 'close' };

function envelope(code: ErrorCode, message: string): string {
  return JSON.stringify({ error: { code, message } });
}

/** A whole HTTP response as bytes, for sockets that have no ServerResponse (clientError). */
function rawResponse(code: ErrorCode, message: string): string {
  const body = envelope(code, message);
  const status = STATUS_BY_CODE[code];
  const headers = { ...RAW_HEADERS, 'content-length': String(Buffer.byteLength(body)) };
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}`);
  return `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\n${lines.join('\r\n')}\r\n\r\n${body}`;
}

function clientErrorAnswer(error: NodeJS.ErrnoException, limits: HttpLimits): { code: ErrorCode; message: string } {
  if (error.code === 'HPE_HEADER_OVERFLOW') return { code: 'HEADERS_TOO_LARGE', message: `the request headers are larger than ${limits.maxHeaderBytes} bytes` };
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return { code: 'REQUEST_TIMEOUT', message: `the request headers did not arrive within ${limits.headersTimeoutMs / 1000} s` };
  return { code: 'BAD_REQUEST', message: 'the request is not valid HTTP' };
}

/** Parse errors, header overflow and the headers timeout: Node hands over the bare socket. */
function onClientError(limits: HttpLimits, logger: Logger) {
  return (error: NodeJS.ErrnoException, socket: Duplex): void => {
    const inResponse = (socket as Socket & { _httpMessage?: ServerResponse })._httpMessage?.headersSent === true;
    if (error.code === 'ECONNRESET' || !socket.writable || inResponse) {
      socket.destroy();
      return;
    }
    const answer = clientErrorAnswer(error, limits);
    logger.info({ status: STATUS_BY_CODE[answer.code], code: answer.code }, 'client error');
    // Keep reading what the client still sends, so closing does not reset the connection
    // before the answer is read; a client that never stops is cut after a second.
    socket.on('data', () => undefined);
    socket.end(rawResponse(answer.code, answer.message));
    setTimeout(() => socket.destroy(), 1000).unref();
  };
}

/** More header lines than the limit: Node kept `maxHeadersCount` of them, one more than allowed. */
function tooManyHeaders(req: IncomingMessage, limits: HttpLimits): boolean {
  return req.rawHeaders.length > 2 * limits.maxHeaderCount;
}

function refuseHeaders(res: ServerResponse, limits: HttpLimits): void {
  const body = envelope('HEADERS_TOO_LARGE', `the request has more than ${limits.maxHeaderCount} header lines`);
  res.writeHead(STATUS_BY_CODE.HEADERS_TOO_LARGE, { ...RAW_HEADERS, 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

function endRequest(req: IncomingMessage, res: ServerResponse, message: string): void {
  if (res.headersSent) {
    // The answer had begun (a streamed import): closing the connection is all that is left.
    req.socket.destroy();
    return;
  }
  const body = envelope('REQUEST_TIMEOUT', message);
  res.writeHead(STATUS_BY_CODE.REQUEST_TIMEOUT, { ...RAW_HEADERS, 'content-length': Buffer.byteLength(body) });
  res.end(body, () => req.socket.destroy());
}

function hasBody(req: IncomingMessage): boolean {
  return Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
}

/**
 * Watches a request's body: the socket's byte count must move at least every idle period, and
 * the body must be complete by the request deadline (not for streaming uploads). Polling the
 * byte count leaves the body stream to the route (a 'data' listener would consume it).
 */
function guardBody(limits: HttpLimits) {
  const tick = Math.max(50, Math.min(limits.bodyIdleTimeoutMs, limits.requestTimeoutMs) / 4);
  const watch = (req: IncomingMessage, res: ServerResponse): void => {
    const started = Date.now();
    const deadline = STREAMING_UPLOAD.test(req.url ?? '') ? Infinity : started + limits.requestTimeoutMs;
    let lastBytes = req.socket.bytesRead;
    let lastProgress = started;
    const timer = setInterval(() => {
      if (req.complete || req.socket.destroyed) return clearInterval(timer);
      const now = Date.now();
      if (req.socket.bytesRead !== lastBytes) [lastBytes, lastProgress] = [req.socket.bytesRead, now];
      if (now - lastProgress >= limits.bodyIdleTimeoutMs) {
        clearInterval(timer);
        endRequest(req, res, `no part of the request body arrived for ${limits.bodyIdleTimeoutMs / 1000} s`);
      } else if (now >= deadline) {
        clearInterval(timer);
        endRequest(req, res, `the request body did not arrive within ${limits.requestTimeoutMs / 1000} s`);
      }
    }, tick);
    timer.unref();
    res.once('close', () => clearInterval(timer));
  };
  return (req: IncomingMessage, res: ServerResponse): void => {
    if (req.complete || !hasBody(req)) return;
    // Node parses the rest of a read after 'request' and before any microtask runs, so a body
    // that came with its headers (nearly every JSON body) is complete here and needs no timer.
    queueMicrotask(() => {
      if (!req.complete) watch(req, res);
    });
  };
}

export function createHttpServer(handler: RequestListener, limits: HttpLimits, logger: Logger): Server {
  const server = createServer({
    maxHeaderSize: limits.maxHeaderBytes,
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: 0,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    // Node checks the headers timeout on this interval (30 s by default, too coarse for 20 s).
    connectionsCheckingInterval: Math.min(1000, limits.headersTimeoutMs / 2),
  });
  // One more than allowed, so that a request over the limit can be told from one at it.
  server.maxHeadersCount = limits.maxHeaderCount + 1;
  const guard = guardBody(limits);
  // One listener: Node copies the listener array of an event that has several, on every request.
  server.on('request', (req, res) => {
    if (tooManyHeaders(req, limits)) return refuseHeaders(res, limits);
    guard(req, res);
    handler(req, res);
  });
  server.on('clientError', onClientError(limits, logger));
  return server;
}
