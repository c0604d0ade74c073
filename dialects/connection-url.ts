/** Checks a workspace's connection URL before any connection is tried (Dialect.urlProblem). */

/**
 * Why `url` is not a `protocol://…` URL of one of `protocols` with a host, or null. Drivers read
 * such text differently (pg takes `not a url` for a host name), so the service checks it itself.
 */
export function urlProblem(url: string, protocols: readonly string[], example: string): string | null {
  const parsed = URL.canParse(url) ? new URL(url) : null;
  if (!parsed || !protocols.includes(parsed.protocol) || parsed.hostname === '') {
    return `is not a connection URL of the form ${example}`;
  }
  return null;
}
