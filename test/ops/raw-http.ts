/** Raw sockets for the slow-client tests: what a browser or fetch would never send. */
import { connect, type Socket } from 'node:net';

export interface RawExchange {
  readonly socket: Socket;
  /** Everything the server sent so far. */
  received(): string;
  /** Resolves when the server closed the connection (FIN or reset), with the milliseconds it took. */
  closed(): Promise<number>;
  write(text: string): void;
}

export function openRaw(url: string): Promise<RawExchange> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = connect(Number(port), hostname, () => {
      let text = '';
      socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
      const closed = new Promise<number>((done) => socket.once('close', () => done(Date.now() - started)));
      socket.on('error', () => undefined);
      resolve({ socket, received: () => text, closed: () => closed, write: (t) => void socket.write(t) });
    });
    socket.once('error', reject);
  });
}

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Parses the first response on a connection (Content-Length or close-delimited body). */
export function parseResponse(text: string): RawResponse {
  const end = text.indexOf('\r\n\r\n');
  const head = end < 0 ? text : text.slice(0, end);
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status: Number(statusLine.split(' ')[1] ?? 0), headers, body: end < 0 ? '' : text.slice(end + 4) };
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
