/**
 * The private-address rule for every URL the service fetches on a workspace owner's behalf
 * (identity providers now; webhooks, DESIGN §17, use the same rule): http(s) only, no user name or
 * password in the URL, and no host that is, or resolves to, a loopback, link-local, private,
 * shared or otherwise non-public address, unless the deployment allows private addresses (a
 * self-hosted network). Without it an owner could make the service read the cloud metadata address
 * (169.254.169.254) or services bound to the instance's loopback.
 *
 * Two checks: `outboundUrlProblem` and `resolvedHostProblem` when the URL is saved (a clear 400),
 * and `guardedLookup` when it is fetched: the address a connection is made to is the one checked,
 * so a name that resolved to a public address at save and to a private one later is refused too.
 */
import { lookup } from 'node:dns/promises';
import type { LookupFunction } from 'node:net';
import { BlockList, isIP } from 'node:net';
import { lookup as lookupCallback } from 'node:dns';

/** Address ranges that are not the public internet (IANA special-purpose registries). */
const NOT_PUBLIC = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // shared address space (carrier NAT)
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local: the cloud metadata service lives here
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // protocol assignments
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) NOT_PUBLIC.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
] as const) NOT_PUBLIC.addSubnet(network, prefix, 'ipv6');

/** `::ffff:a.b.c.d` (or its hex form `::ffff:7f00:1`, as URL prints it) is the IPv4 address a.b.c.d. */
function mappedIpv4(address: string): string | undefined {
  const match = /^::ffff:(?:(\d+\.\d+\.\d+\.\d+)|([0-9a-f]{1,4}):([0-9a-f]{1,4}))$/i.exec(address);
  if (!match) return undefined;
  if (match[1]) return match[1];
  const high = parseInt(match[2] ?? '0', 16);
  const low = parseInt(match[3] ?? '0', 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

/** True for an IP address outside the public internet (loopback, link-local, private, ...). */
export function isNonPublicAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '');
  const v4 = mappedIpv4(bare);
  if (v4) return NOT_PUBLIC.check(v4, 'ipv4');
  const family = isIP(bare);
  if (family === 0) return false;
  return NOT_PUBLIC.check(bare, family === 6 ? 'ipv6' : 'ipv4');
}

export const PRIVATE_ADDRESS_PROBLEM = 'must not point at a loopback, link-local or private address';

/**
 * What is wrong with `text` as an outbound URL, without looking anything up; null when nothing.
 * The message never repeats the URL (it may carry a password).
 */
export function outboundUrlProblem(text: string, allowPrivate: boolean): string | null {
  if (!URL.canParse(text)) return 'must be an http(s) URL';
  const url = new URL(text);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'must be an http(s) URL';
  if (url.username !== '' || url.password !== '') return 'must not contain a user name or password';
  if (!allowPrivate && isNonPublicAddress(url.hostname)) return PRIVATE_ADDRESS_PROBLEM;
  return null;
}

/** How long a check at save may wait for DNS; a slow resolver must not hold the admin request. */
const RESOLVE_TIMEOUT_MS = 3000;

/**
 * At save: a host name that resolves to a non-public address is refused. A name that does not
 * resolve (yet) is not: every fetch checks the address it connects to again.
 */
export async function resolvedHostProblem(text: string, allowPrivate: boolean): Promise<string | null> {
  if (allowPrivate || !URL.canParse(text)) return null;
  const { hostname } = new URL(text);
  if (isIP(hostname.replace(/^\[|\]$/g, '')) !== 0) return null;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<[]>((resolve) => {
    timer = setTimeout(() => resolve([]), RESOLVE_TIMEOUT_MS);
  });
  try {
    const addresses = await Promise.race([lookup(hostname, { all: true }), timeout]);
    return addresses.some((a) => isNonPublicAddress(a.address)) ? PRIVATE_ADDRESS_PROBLEM : null;
  } catch {
    return null;
  } finally {
    clearTimeout(timer);
  }
}

export class NonPublicAddressError extends Error {
  readonly code = 'ENONPUBLIC';
  constructor() {
    super('refused: the host resolves to a non-public address');
    this.name = 'NonPublicAddressError';
  }
}

/**
 * A `lookup` for node:http(s) requests and sockets that refuses non-public results: the socket
 * connects to the very address checked here, so DNS cannot answer differently between the check
 * and the connection.
 */
export function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    lookupCallback(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      const list = addresses as unknown as { address: string; family: number }[];
      const allowed = allowPrivate ? list : list.filter((a) => !isNonPublicAddress(a.address));
      if (allowed.length === 0) return callback(new NonPublicAddressError(), '', 0);
      if (options.all) return (callback as unknown as (e: null, a: typeof allowed) => void)(null, allowed);
      const first = allowed[0] as { address: string; family: number };
      callback(null, first.address, first.family);
    });
  };
}
