/**
 * Compiled reads per request shape. Planning, compiling and rendering a request cost
 * about as much CPU as reading its page, and clients repeat a few shapes, so a scope keeps what it
 * compiled for each. One cache lives per workspace runtime and root view (the runtime's memo drops it
 * when the workspace's version moves), and only owners' reads get one: an external user's row policy
 * binds the token's claims into the statement.
 */
import type { ReadRequest } from './request.ts';
import { requestKey } from './request-key.ts';

/** Shapes kept per root view; past this the cache starts over (a client walking `page` fills it). */
const LIMIT = 500;

export class ReadCache {
  private readonly entries = new Map<string, unknown>();
  /**
   * The same values by request object: the routes reuse one parsed request per repeated query
   * string, so a repeated request finds its compiled read without building and hashing its key.
   */
  private readonly byRequest = new WeakMap<ReadRequest, Map<string, unknown>>();

  /** The value made for `key`, made now when missing. What `make` throws is thrown, never kept. */
  get<T>(key: string, make: () => T): T {
    const hit = this.entries.get(key);
    if (hit !== undefined) return hit as T;
    const value = make();
    if (this.entries.size >= LIMIT) this.entries.clear();
    this.entries.set(key, value);
    return value;
  }

  /** get(`${kind}:${requestKey(request)}`, make), looked up by the request object first. */
  forRequest<T>(kind: string, request: ReadRequest, make: () => T): T {
    let kinds = this.byRequest.get(request);
    const known = kinds?.get(kind);
    if (known !== undefined) return known as T;
    const value = this.get(`${kind}:${requestKey(request)}`, make);
    if (!kinds) this.byRequest.set(request, (kinds = new Map()));
    kinds.set(kind, value);
    return value;
  }
}
