/** A refused HTTP answer as an Error: the envelope's code and message, or the start of the body. */
export async function failure(response: Response): Promise<Error> {
  const text = await response.text();
  try {
    const body = JSON.parse(text) as { error?: { code?: string; message?: string } };
    return new Error(`${response.status} ${body.error?.code ?? ''}: ${body.error?.message ?? text}`);
  } catch {
    return new Error(`${response.status}: ${text.slice(0, 200)}`);
  }
}

/** Socket and DNS codes as a person reads them; others are shown as their code alone. */
const CAUSES: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host not found',
  ECONNRESET: 'connection reset',
  ETIMEDOUT: 'timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  UND_ERR_CONNECT_TIMEOUT: 'timed out while connecting',
  UND_ERR_SOCKET: 'the connection closed',
};

/** How long to wait for the answer's headers (an import's or export's body may then take as long as it needs). */
function headersTimeoutMs(): number {
  const value = Number(process.env.WDAPI_TIMEOUT_MS);
  return Number.isInteger(value) && value > 0 ? value : 60_000;
}

/** fetch's "fetch failed" hides the reason in `cause` (undici); its code is what a user can act on. */
function causeOf(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
  const code = typeof cause?.code === 'string' ? cause.code : undefined;
  if (code) return `${CAUSES[code] ?? 'failed'} (${code})`;
  return typeof cause?.message === 'string' ? cause.message : String((error as Error).message ?? error);
}

/** fetch, with a failure to connect or to get an answer told as the URL and the cause. */
export async function request(url: string, init: RequestInit = {}): Promise<Response> {
  const shown = url.split('?')[0];
  const limit = headersTimeoutMs();
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), limit);
  try {
    return await fetch(url, { ...init, signal: controller.signal });
  } catch (error) {
    if (controller.signal.aborted) throw new Error(`cannot reach ${shown}: no answer within ${limit} ms (timeout)`);
    throw new Error(`cannot reach ${shown}: ${causeOf(error)}`);
  } finally {
    clearTimeout(timer);
  }
}
