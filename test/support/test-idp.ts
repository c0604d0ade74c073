/**
 * A real OpenID identity provider for tests: a node:http server on a random 127.0.0.1 port that
 * serves `{issuerPath}/.well-known/openid-configuration` and `{issuerPath}/jwks.json` for every
 * registered issuer, signs tokens with RS256 / ES256 keys made by jose, can add, remove and
 * replace keys (rotation), and counts requests per path (to observe the service's JWKS caching).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { exportJWK, exportSPKI, generateKeyPair, SignJWT, type JWK, type JWTPayload } from 'jose';

export type KeyAlg = 'RS256' | 'ES256';

type KeyPair = Awaited<ReturnType<typeof generateKeyPair>>;

export interface IdpKey {
  readonly kid: string;
  readonly alg: KeyAlg;
  readonly privateKey: KeyPair['privateKey'];
  readonly publicKey: KeyPair['publicKey'];
  readonly publicJwk: JWK;
}

export interface IssuerOptions {
  /** The issuer (and so the `iss` of tokens) ends with a slash: `http://127.0.0.1:p/path/`. */
  readonly trailingSlash?: boolean;
  /** The discovery document leaves out `jwks_uri`. */
  readonly withoutJwksUri?: boolean;
}

export interface SignOptions {
  /** Which published key signs: the newest key of this algorithm unless `kid` or `key` says otherwise. */
  readonly alg?: KeyAlg;
  readonly kid?: string;
  /** Sign with this key (published or not). */
  readonly key?: IdpKey;
  /** Protected header members that override the defaults (`alg`, `kid`, `typ`). */
  readonly header?: Record<string, unknown>;
}

interface RegisteredIssuer {
  readonly path: string;
  readonly issuer: string;
  readonly options: IssuerOptions;
}

export async function makeKey(alg: KeyAlg, kid = `${alg.toLowerCase()}-${randomBytes(4).toString('hex')}`): Promise<IdpKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  const publicJwk: JWK = { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' };
  return { kid, alg, privateKey, publicKey, publicJwk };
}

/** Base64url of a string or JSON value (for hand-built tokens). */
export function b64url(value: unknown): string {
  return Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');
}

export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

export class TestIdp {
  private keys: IdpKey[] = [];
  private readonly issuers = new Map<string, RegisteredIssuer>();
  private readonly counts = new Map<string, number>();
  private readonly server = createServer((req, res) => this.handle(req, res));
  private port = 0;

  /** Starts an IdP with one RS256 and one ES256 key. */
  static async start(): Promise<TestIdp> {
    const idp = new TestIdp();
    await idp.addKey('RS256');
    await idp.addKey('ES256');
    await new Promise<void>((resolve, reject) => {
      idp.server.once('error', reject);
      idp.server.listen(0, '127.0.0.1', () => resolve());
    });
    idp.port = (idp.server.address() as AddressInfo).port;
    return idp;
  }

  /** `http://127.0.0.1:<port>` */
  get origin(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /**
   * Registers an issuer at `path` (e.g. `/tenant-a`) and returns its issuer URL. The discovery
   * document is served at `{path}/.well-known/openid-configuration`, the keys at `{path}/jwks.json`.
   */
  registerIssuer(path: string, options: IssuerOptions = {}): string {
    const clean = path.replace(/\/+$/, '');
    const issuer = `${this.origin}${clean}${options.trailingSlash ? '/' : ''}`;
    this.issuers.set(clean, { path: clean, issuer, options });
    return issuer;
  }

  jwksUri(path: string): string {
    return `${this.origin}${path.replace(/\/+$/, '')}/jwks.json`;
  }

  discoveryPath(path: string): string {
    return `${path.replace(/\/+$/, '')}/.well-known/openid-configuration`;
  }

  // ── keys ────────────────────────────────────────────────────────────────────
  async addKey(alg: KeyAlg, kid?: string): Promise<IdpKey> {
    const key = await makeKey(alg, kid);
    this.keys.push(key);
    return key;
  }

  /** Rotation: the published set becomes exactly these new keys. */
  async replaceKeys(...algs: KeyAlg[]): Promise<IdpKey[]> {
    const fresh = await Promise.all(algs.map((alg) => makeKey(alg)));
    this.keys = fresh;
    return fresh;
  }

  removeKey(kid: string): void {
    this.keys = this.keys.filter((k) => k.kid !== kid);
  }

  publishedKeys(): readonly IdpKey[] {
    return this.keys;
  }

  key(alg: KeyAlg): IdpKey {
    const key = [...this.keys].reverse().find((k) => k.alg === alg);
    if (!key) throw new Error(`the test IdP has no ${alg} key`);
    return key;
  }

  /** SPKI PEM of the newest published RSA public key (the HS256 key-confusion attack uses it). */
  async rsaPublicPem(): Promise<string> {
    return exportSPKI(this.key('RS256').publicKey);
  }

  async sign(claims: JWTPayload & Record<string, unknown>, options: SignOptions = {}): Promise<string> {
    const key = options.key ?? (options.kid ? this.keys.find((k) => k.kid === options.kid) : this.key(options.alg ?? 'RS256'));
    if (!key) throw new Error(`the test IdP has no key '${options.kid}'`);
    const header = { alg: key.alg, kid: key.kid, typ: 'JWT', ...(options.header ?? {}) } as { alg: string } & Record<string, unknown>;
    return new SignJWT(claims).setProtectedHeader(header).sign(key.privateKey);
  }

  // ── request counts ─────────────────────────────────────────────────────────
  count(path: string): number {
    return this.counts.get(path) ?? 0;
  }

  resetCounts(): void {
    this.counts.clear();
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const path = new URL(req.url ?? '/', this.origin).pathname;
    this.counts.set(path, (this.counts.get(path) ?? 0) + 1);
    const send = (status: number, body: unknown): void => {
      res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      res.end(JSON.stringify(body));
    };
    if (req.method !== 'GET') return send(405, { error: 'method not allowed' });
    for (const issuer of this.issuers.values()) {
      if (path === this.discoveryPath(issuer.path)) {
        return send(200, {
          issuer: issuer.issuer,
          ...(issuer.options.withoutJwksUri ? {} : { jwks_uri: this.jwksUri(issuer.path) }),
          id_token_signing_alg_values_supported: ['RS256', 'ES256'],
          subject_types_supported: ['public'],
          response_types_supported: ['id_token'],
        });
      }
      if (path === `${issuer.path}/jwks.json`) return send(200, { keys: this.keys.map((k) => k.publicJwk) });
    }
    send(404, { error: 'not found' });
  }
}
