/**
 * The one outbound request kind of the external-JWT plugin: GET a small JSON document from an
 * address a workspace owner configured. Bounded in time (the whole exchange, body included), in
 * size, never redirected (a redirect could point at an internal address the owner could not
 * configure directly), and held to the private-address rule (core/outbound-address.ts) on the
 * address actually connected to.
 */
import { request as httpRequest, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { guardedLookup, outboundUrlProblem } from '../../../core/outbound-address.ts';

export const FETCH_TIMEOUT_MS = 5000;
/** Discovery documents and key sets are a few kilobytes; real ones stay far below this. */
export const MAX_DOCUMENT_BYTES = 256 * 1024;

export class FetchFailed extends Error {
  constructor(reason: string) {
    super(`identity provider fetch failed: ${reason}`);
    this.name = 'FetchFailed';
  }
}

export interface FetchOptions {
  /** IDP_ALLOW_PRIVATE: loopback, link-local and private addresses may be fetched (a self-hosted network). */
  readonly allowPrivate: boolean;
  readonly headers?: Headers;
}

async function readBounded(response: IncomingMessage): Promise<string> {
  const declared = Number(response.headers['content-length']);
  if (Number.isFinite(declared) && declared > MAX_DOCUMENT_BYTES) throw new FetchFailed('document too large');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response as AsyncIterable<Buffer>) {
    size += chunk.byteLength;
    if (size > MAX_DOCUMENT_BYTES) {
      response.destroy();
      throw new FetchFailed('document too large');
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function send(url: URL, headers: OutgoingHttpHeaders, allowPrivate: boolean, signal: AbortSignal): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const request = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, { headers, signal, agent: false, lookup: guardedLookup(allowPrivate) }, resolve);
    request.on('error', reject);
    request.end();
  });
}

/** GETs `url` and parses its JSON body; any status but 200, a redirect, a timeout, a refused address or junk is a FetchFailed. */
export async function fetchJsonDocument(url: string, options: FetchOptions): Promise<unknown> {
  // Literal addresses connect without a lookup: the rule is checked on the URL first.
  if (outboundUrlProblem(url, options.allowPrivate)) throw new FetchFailed('address refused');
  const headers = Object.fromEntries(options.headers ?? new Headers({ accept: 'application/json' }));
  const signal = AbortSignal.timeout(FETCH_TIMEOUT_MS);
  let response: IncomingMessage;
  try {
    response = await send(new URL(url), headers, options.allowPrivate, signal);
  } catch {
    throw new FetchFailed('no response');
  }
  if (response.statusCode !== 200) {
    response.destroy();
    throw new FetchFailed(`status ${response.statusCode}`);
  }
  try {
    return JSON.parse(await readBounded(response)) as unknown;
  } catch (error) {
    throw error instanceof FetchFailed ? error : new FetchFailed('not a JSON document');
  }
}
