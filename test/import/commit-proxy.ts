/**
 * A TCP proxy between the service and a shared database server that can cut the connection at a
 * transaction's COMMIT: either after the database answered it (committed; the answer is dropped,
 * so the outcome is unknown to the service) or instead of forwarding it (nothing is committed).
 * It recognises the PostgreSQL simple-query message `Q` "COMMIT" and the MySQL COM_QUERY (0x03)
 * "COMMIT", which is how pg and mysql2 end a transaction.
 */
import { createServer, connect, type AddressInfo, type Server, type Socket } from 'node:net';

const POSTGRES_COMMIT = Buffer.concat([Buffer.from('Q'), Buffer.from([0, 0, 0, 11]), Buffer.from('COMMIT\0')]);
const MYSQL_COMMIT = Buffer.concat([Buffer.from([7, 0, 0, 0, 3]), Buffer.from('COMMIT')]);

export type CutMode = 'after-commit' | 'before-commit';

function isCommit(chunk: Buffer): boolean {
  return chunk.includes(POSTGRES_COMMIT) || chunk.includes(MYSQL_COMMIT);
}

export class CommitProxy {
  private cut: { mode: CutMode; skip: number } | undefined;
  private readonly sockets = new Set<Socket>();
  /** COMMITs cut so far. */
  cuts = 0;

  private constructor(private readonly server: Server, readonly port: number) {}

  static async start(upstreamHost: string, upstreamPort: number): Promise<CommitProxy> {
    let proxy: CommitProxy | undefined;
    const server = createServer((client) => proxy?.pipe(client, upstreamHost, upstreamPort));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    proxy = new CommitProxy(server, (server.address() as AddressInfo).port);
    return proxy;
  }

  /** The database URL with its host and port replaced by the proxy's. */
  urlThrough(url: string): string {
    const parsed = new URL(url);
    parsed.hostname = '127.0.0.1';
    parsed.port = String(this.port);
    return parsed.toString();
  }

  /** Cuts the connection at the COMMIT after `skip` more COMMITs have passed, once. */
  cutAtCommit(mode: CutMode, skip = 0): void {
    this.cut = { mode, skip };
  }

  private pipe(client: Socket, host: string, port: number): void {
    const upstream = connect(port, host);
    for (const socket of [client, upstream]) {
      this.sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => this.sockets.delete(socket));
    }
    upstream.on('data', (chunk: Buffer) => client.write(chunk));
    upstream.on('close', () => client.destroy());
    client.on('close', () => upstream.destroy());
    client.on('data', (chunk: Buffer) => {
      if (!this.cut || !isCommit(chunk)) return void upstream.write(chunk);
      if (this.cut.skip > 0) {
        this.cut.skip--;
        return void upstream.write(chunk);
      }
      const { mode } = this.cut;
      this.cut = undefined;
      this.cuts++;
      // The server's answer must never reach the service: stop relaying before anything else.
      upstream.removeAllListeners('data');
      if (mode === 'before-commit') {
        client.destroy();
        upstream.destroy();
        return;
      }
      // The COMMIT goes on; when the server answers, it has committed: only then both ends are
      // cut, so the service loses the answer and the test finds the batch committed.
      upstream.once('data', () => {
        client.destroy();
        upstream.destroy();
      });
      upstream.write(chunk);
    });
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
