/**
 * The one outbound request kind of the external-JWT plugin: GET a small JSON document from an
 * address a workspace owner configured. Bounded in time (the whole exchange, body included), in
 * size, and never redirected (a redirect could point at an internal address the owner could not
 * configure directly).
 */
export const FETCH_TIMEOUT_MS = 5000;
/** Discovery documents and key sets are a few kilobytes; real ones stay far below this. */
export const MAX_DOCUMENT_BYTES = 256 * 1024;

export class FetchFailed extends Error {
  constructor(reason: string) {
    super(`identity provider fetch failed: ${reason}`);
    this.name = 'FetchFailed';
  }
}

async function readBounded(response: Response): Promise<string> {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > MAX_DOCUMENT_BYTES) throw new FetchFailed('document too large');
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_DOCUMENT_BYTES) {
      await reader.cancel();
      throw new FetchFailed('document too large');
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** GETs `url` and parses its JSON body; any status but 200, a redirect, a timeout or junk is a FetchFailed. */
export async function fetchJsonDocument(url: string, headers?: Headers): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url, { headers: headers ?? new Headers({ accept: 'application/json' }), redirect: 'manual', signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
  } catch {
    throw new FetchFailed('no response');
  }
  if (response.status !== 200) {
    await response.body?.cancel().catch(() => undefined);
    throw new FetchFailed(`status ${response.status}`);
  }
  try {
    return JSON.parse(await readBounded(response)) as unknown;
  } catch (error) {
    throw error instanceof FetchFailed ? error : new FetchFailed('not a JSON document');
  }
}
