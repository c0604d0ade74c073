/**
 * An identity provider that misbehaves on demand: a node:http server on a random 127.0.0.1 port
 * serving, per issuer path, a discovery document and a key set (the keys of a real TestIdp, so
 * its tokens verify once the provider behaves), each in a mode that can change at any time.
 * Counts the requests per path, so a test can see how often the service reached out.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestIdp } from '../../support/test-idp.ts';

export type FlakyMode = 'ok' | 'error' | 'hang' | 'junk' | 'wrong-shape' | 'redirect' | 'huge';

interface IssuerModes {
  discovery: FlakyMode;
  jwks: FlakyMode;
}

export class FlakyIdp {
  private readonly issuers = new Map<string, IssuerModes>();
  private readonly counts = new Map<string, number>();
  private readonly server = createServer((req, res) => this.handle(req, res));
  private port = 0;

  private constructor(private readonly keysOf: TestIdp) {}

  static async start(keysOf: TestIdp): Promise<FlakyIdp> {
    const idp = new FlakyIdp(keysOf);
    await new Promise<void>((resolve, reject) => {
      idp.server.once('error', reject);
      idp.server.listen(0, '127.0.0.1', () => resolve());
    });
    idp.port = (idp.server.address() as AddressInfo).port;
    return idp;
  }

  /** Registers `path` with both documents in `ok` mode; returns the issuer URL. */
  registerIssuer(path: string): string {
    this.issuers.set(path, { discovery: 'ok', jwks: 'ok' });
    return `http://127.0.0.1:${this.port}${path}`;
  }

  setMode(path: string, document: keyof IssuerModes, mode: FlakyMode): void {
    const modes = this.issuers.get(path);
    if (!modes) throw new Error(`unknown issuer path ${path}`);
    modes[document] = mode;
  }

  discoveryPath(path: string): string {
    return `${path}/.well-known/openid-configuration`;
  }

  jwksPath(path: string): string {
    return `${path}/jwks.json`;
  }

  count(path: string): number {
    return this.counts.get(path) ?? 0;
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const path = new URL(req.url ?? '/', `http://127.0.0.1:${this.port}`).pathname;
    this.counts.set(path, (this.counts.get(path) ?? 0) + 1);
    for (const [issuerPath, modes] of this.issuers) {
      if (path === this.discoveryPath(issuerPath)) {
        return this.answer(res, modes.discovery, { issuer: `http://127.0.0.1:${this.port}${issuerPath}`, jwks_uri: `http://127.0.0.1:${this.port}${this.jwksPath(issuerPath)}` }, { jwks_uri: 42 });
      }
      if (path === this.jwksPath(issuerPath)) {
        return this.answer(res, modes.jwks, { keys: this.keysOf.publishedKeys().map((k) => k.publicJwk) }, { keys: 'none' });
      }
    }
    res.writeHead(404).end();
  }

  private answer(res: ServerResponse, mode: FlakyMode, good: unknown, wrongShape: unknown): void {
    const json = (status: number, body: unknown): void => void res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    switch (mode) {
      case 'ok':
        return json(200, good);
      case 'error':
        return json(500, { error: 'boom' });
      case 'hang':
        return; // never answers: the service's timeout must end it
      case 'junk':
        return void res.writeHead(200, { 'content-type': 'application/json' }).end('<html>this is not JSON {');
      case 'wrong-shape':
        return json(200, wrongShape);
      case 'redirect':
        // A client that followed it would show up in the count of `/elsewhere`.
        return void res.writeHead(302, { location: `http://127.0.0.1:${this.port}/elsewhere` }).end();
      case 'huge':
        return json(200, { ...(good as object), padding: 'x'.repeat(2 * 1024 * 1024) });
    }
  }
}
