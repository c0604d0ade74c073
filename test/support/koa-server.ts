/** A Koa app of one middleware on a random loopback port, for tests that drive a route's writer without the service. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';

export interface LoopbackServer {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  close(): Promise<void>;
}

export async function serveKoa(handle: Koa.Middleware): Promise<LoopbackServer> {
  const app = new Koa();
  app.silent = true;
  app.use(handle);
  const server = createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
